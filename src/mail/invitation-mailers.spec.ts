import { MailerModule } from '@nestjs-modules/mailer';
import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { once } from 'node:events';
import { AddressInfo, createServer, Socket } from 'node:net';
import { AppConfig, parseConfig } from '../config/app-config';
import { InvitationEmail } from './invitation-mailer';
import { LoggedInvitationMailer } from './logged-invitation-mailer';
import { mailerOptions, SMTP_TIMEOUTS } from './mail.module';
import { NodemailerInvitationMailer } from './nodemailer-invitation-mailer';

const email: InvitationEmail = {
  to: 'new@example.com',
  tenantName: 'Acme',
  inviterEmail: 'owner@acme.example',
  role: 'member',
  expiresAt: new Date('2026-03-08T10:00:00.000Z'),
  link: 'http://localhost:3000/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11',
};

/** The real mailer on nodemailer's own transports; the SMTP round trip is in test/org-invite.e2e-spec.ts. */
async function mailerFor(env: Record<string, string>): Promise<NodemailerInvitationMailer> {
  const config = parseConfig(env);
  const moduleRef = await Test.createTestingModule({
    imports: [MailerModule.forRoot(mailerOptions(config))],
    providers: [NodemailerInvitationMailer, { provide: AppConfig, useValue: config }],
  }).compile();
  return moduleRef.get(NodemailerInvitationMailer);
}

describe(LoggedInvitationMailer.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('without SMTP_URL, logs the message with its link instead of sending it', async () => {
    const mailer = new LoggedInvitationMailer(parseConfig({}));
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    await mailer.send(email);
    expect(log).toHaveBeenCalledTimes(1);
    const logged = String(log.mock.calls[0][0]);
    expect(logged).toContain('SMTP_URL is not set');
    expect(logged).toContain('To: new@example.com');
    expect(logged).toContain('Subject: You are invited to join Acme');
    expect(logged).toContain(email.link);
  });

  it('in production without SMTP_URL, logs the message with the token masked', async () => {
    const mailer = new LoggedInvitationMailer(parseConfig({ NODE_ENV: 'production', AUTH_JWT_SECRET: 'k'.repeat(32) }));
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    await mailer.send(email);
    const logged = String(log.mock.calls[0][0]);
    expect(logged).toContain('http://localhost:3000/invitations/<token>');
    expect(logged).not.toContain('6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11');
  });
});

describe(NodemailerInvitationMailer.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('with SMTP_URL, rejects at once when the server refuses the connection, and logs nothing itself', async () => {
    const mailer = await mailerFor({ SMTP_URL: 'smtp://127.0.0.1:1' });
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const started = Date.now();
    await expect(mailer.send(email)).rejects.toThrow(/ECONNREFUSED/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(log).not.toHaveBeenCalled();
  });

  it('with SMTP_URL, gives up within a few seconds on a server that accepts connections but never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const mailer = await mailerFor({ SMTP_URL: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}` });
      const started = Date.now();
      await expect(mailer.send(email)).rejects.toThrow(/Greeting never received/);
      expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUTS.greetingTimeout + 1_000);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});
