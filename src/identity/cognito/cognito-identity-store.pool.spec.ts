/** The pool's client (createCognitoClient): its endpoint and its retries; and the store's ping of the pool. */

import { DescribeUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CognitoIdentityStore } from './cognito-identity-store';
import { cognito, config, freshStore, POOL } from './cognito-identity-store.spec-fixtures';
import { createCognitoClient } from './cognito-pool';

describe(CognitoIdentityStore.name, () => {
  let store: CognitoIdentityStore;
  beforeEach(() => (store = freshStore()));

  describe('ping (DescribeUserPool)', () => {
    it('ping is DescribeUserPool', async () => {
      cognito.on(DescribeUserPoolCommand).resolves({ UserPool: { Id: POOL } });
      await store.ping();
      expect(cognito.commandCalls(DescribeUserPoolCommand)[0].args[0].input).toEqual({ UserPoolId: POOL });
    });
  });
});

describe(createCognitoClient.name, () => {
  let server: Server;
  let requests = 0;
  let throttleFirst = 0;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'test';
    process.env.AWS_SECRET_ACCESS_KEY = 'test';
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        if (requests <= throttleFirst) {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
          res.end(JSON.stringify({ __type: 'TooManyRequestsException', message: 'Rate exceeded' }));
        } else {
          res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
          res.end(JSON.stringify({ UserPool: { Id: POOL } }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    process.env = { ...saved };
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = 0;
  });

  const storeAt = () => {
    const { port } = server.address() as AddressInfo;
    const cognito = { ...config, endpoint: `http://127.0.0.1:${port}` };
    return new CognitoIdentityStore(createCognitoClient(cognito), cognito);
  };

  it('calls the configured endpoint and retries throttling with the standard strategy', async () => {
    throttleFirst = 2;
    await storeAt().ping();
    expect(requests).toBe(3);
  });

  it('gives up after 3 attempts: the throttling error bubbles up', async () => {
    throttleFirst = 10;
    await expect(storeAt().ping()).rejects.toMatchObject({ name: 'TooManyRequestsException' });
    expect(requests).toBe(3);
  });
});
