import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookPayload } from '../../src/audit/webhook-delivery-row';

/** The signing secret of the test runs: whsec_ and 32 bytes in base64, as Standard Webhooks has it. */
export const TEST_WEBHOOK_SECRET = `whsec_${Buffer.from('e2e-webhook-secret-32-bytes-long').toString('base64')}`;

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as `standardwebhooks` verified it. */
  payload: WebhookPayload;
  /** The status it was answered with. */
  status: number;
}

/** How the receiver answers one request: a status, after a delay. */
export interface Answer {
  status: number;
  delayMs?: number;
}

/**
 * A real HTTP receiver for webhooks, as a customer would run one: it verifies every request with
 * the `standardwebhooks` library (Webhook.verify), keeps the verified ones and counts the others.
 * It answers 204 unless told otherwise (`answer`), and can be stopped (its port then refuses
 * connections: the receiver is down) and started again on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests whose signature did not verify, with the library's reason. */
  readonly unverified: string[] = [];
  private readonly answers: Answer[] = [];
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private readonly verifier = new Webhook(TEST_WEBHOOK_SECRET);

  private constructor(public port: number) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(0);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/tenant-service`;
  }

  /** The next requests get these answers, in order; then 204 again. */
  answer(...answers: Answer[]): void {
    this.answers.push(...answers);
  }

  /** The verified webhooks with this `webhook-id`. */
  withId(id: string): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.headers['webhook-id'] === id);
  }

  /** Verified webhooks that were answered 2xx: what the receiver acknowledged. */
  acknowledged(): ReceivedWebhook[] {
    return this.received.filter((hook) => hook.status >= 200 && hook.status < 300);
  }

  async listen(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answer = this.answers.shift() ?? { status: 204 };
        try {
          const payload = this.verifier.verify(body, request.headers as Record<string, string>) as WebhookPayload;
          this.received.push({ headers: request.headers, body, payload, status: answer.status });
        } catch (error) {
          this.unverified.push(String(error));
        }
        setTimeout(() => {
          if (!response.destroyed) response.writeHead(answer.status).end();
        }, answer.delayMs ?? 0);
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Closes the port and every open connection: the receiver is down until `listen()`. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
