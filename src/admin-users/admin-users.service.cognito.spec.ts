import { RecordedSessionEnds } from '../../test/support/recorded-session-ends';
import {
  AdminAddUserToGroupCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminUpdateUserAttributesCommand,
  CognitoIdentityProviderClient,
  InternalErrorException,
  ListUsersCommand,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { apiFailure } from '../../test/support/api-failure';
import { MemoryGrantsStore } from '../../test/support/memory-grants-store';
import { MemoryMembershipRemovals } from '../../test/support/memory-membership-removals';
import { RecordedAuditEvents } from '../../test/support/recorded-audit-events';
import { TestClock } from '../../test/support/test-clock';
import { CognitoIdentityStore } from '../identity/cognito/cognito-identity-store';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersService } from './admin-users.service';

const metadata = { $metadata: {} };
const attributes = (values: Record<string, string>) => Object.entries(values).map(([Name, Value]) => ({ Name, Value }));

/** Spec 4.6–4.8 on the Cognito store: how the SDK's answers become the spec's. */
describe(`${AdminUsersService.name} on ${CognitoIdentityStore.name}`, () => {
  const client = new CognitoIdentityProviderClient({ region: 'eu-west-1' });
  const cognito = mockClient(client);
  let store: CognitoIdentityStore;

  beforeEach(() => {
    cognito.reset();
    store = new CognitoIdentityStore(client, {
      userPoolId: 'eu-west-1_TestPool',
      clientId: 'client',
      region: 'eu-west-1',
      superAdminGroup: 'super_admin',
    });
  });

  it("UserNotFoundException on get and delete is the spec's 404", async () => {
    cognito
      .on(AdminGetUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', ...metadata }));
    const service = new AdminUsersService(
      store,
      new RecordedAuditEvents(),
      new MemoryGrantsStore(),
      new MemoryMembershipRemovals(),
      new TestClock(new Date()),
      new RecordedSessionEnds(),
    );
    expect(await apiFailure(service.getUser('ghost'))).toEqual({ status: 404, body: { error: 'User not found' } });
    expect(await apiFailure(service.deleteUser('ghost', { id: 'root', email: null }))).toEqual({
      status: 404,
      body: { error: 'User not found' },
    });
    expect(cognito.commandCalls(AdminDeleteUserCommand)).toHaveLength(0);
  });

  it("other SDK errors are the spec's 500 with the SDK's message as details", async () => {
    cognito.on(AdminGetUserCommand).rejects(new InternalErrorException({ message: 'Cognito is down', ...metadata }));
    expect(
      await apiFailure(
        new AdminUsersService(
          store,
          new RecordedAuditEvents(),
          new MemoryGrantsStore(),
          new MemoryMembershipRemovals(),
          new TestClock(new Date()),
          new RecordedSessionEnds(),
        ).getUser('u-1'),
        AdminUsersController.prototype.getUser,
      ),
    ).toEqual({
      status: 500,
      body: { error: 'Failed to get user', details: 'Cognito is down' },
    });
  });

  it('grant matches the e-mail case-insensitively and reads back the attribute', async () => {
    cognito
      .on(ListUsersCommand)
      .resolves({ Users: [{ Username: 'u-1', Attributes: attributes({ email: 'bob@example.com' }) }] })
      .on(AdminAddUserToGroupCommand)
      .resolves({})
      .on(AdminUpdateUserAttributesCommand)
      .resolves({})
      .on(AdminGetUserCommand)
      .resolves({
        Username: 'u-1',
        UserAttributes: attributes({ email: 'u-1@example.com', 'custom:platform_role': 'super_admin' }),
      });
    const result = await new AdminUsersService(
      store,
      new RecordedAuditEvents(),
      new MemoryGrantsStore(),
      new MemoryMembershipRemovals(),
      new TestClock(new Date()),
      new RecordedSessionEnds(),
    ).grantSuperAdmin({ email: 'BOB@Example.com' }, { id: 'root', email: null });
    expect(result.user).toEqual({
      id: 'u-1',
      email: 'u-1@example.com',
      platformRole: 'super_admin',
      tenantId: null,
      role: null,
    });
    expect(cognito.commandCalls(ListUsersCommand)[0].args[0].input.Filter).toBe('email = "bob@example.com"');
  });
});
