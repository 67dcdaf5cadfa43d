import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it. */
export interface CaughtMail {
  /** The envelope: MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  parsed: ParsedMail;
}

/**
 * A real SMTP server on a free loopback port, in the test process: the app sends to
 * `smtp.url` and the suite reads what arrived. A message is recorded before the server
 * acknowledges it, so it is in `messages` by the time the app counts it as sent. The app
 * sends after answering the request (its outbox): suites wait for messages with `eventually`.
 */
export class SmtpCatcher {
  readonly messages: CaughtMail[] = [];
  private port = 0;

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<SmtpCatcher> {
    const server = new SMTPServer({
      authOptional: true,
      // Plain SMTP on loopback: nodemailer would otherwise try STARTTLS against a self-signed key.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            catcher.messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              parsed,
            });
            callback();
          })
          .catch(callback);
      },
    });
    const catcher = new SmtpCatcher(server);
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    catcher.port = (server.server.address() as AddressInfo).port;
    return catcher;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The messages sent to one address. */
  to(address: string): CaughtMail[] {
    return this.messages.filter((message) => message.to.includes(address));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
