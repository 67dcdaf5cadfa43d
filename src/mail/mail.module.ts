import { MailerModule, MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InvitationMailer } from './invitation-mailer';
import { NodemailerInvitationMailer } from './nodemailer-invitation-mailer';
import { InvitationOutbox } from './outbox/invitation-outbox';
import { InvitationOutboxWorker } from './outbox/invitation-outbox.worker';

/**
 * Short SMTP timeouts, so that an unreachable or stalled mail server fails a send within seconds
 * and the outbox worker moves on. Responses never wait on SMTP (the outbox sends afterwards);
 * the cap on the whole send is generous, because a send abandoned by the cap while the server
 * still completes it would be delivered twice.
 */
export const SMTP_TIMEOUTS = { dnsTimeout: 2_000, connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 5_000 };
export const SEND_TIMEOUT_MS = 30_000;

export function mailerOptions(config: AppConfig): MailerOptions {
  return {
    transport: config.smtpUrl ? { url: config.smtpUrl, ...SMTP_TIMEOUTS } : { jsonTransport: true },
    sendTimeout: SEND_TIMEOUT_MS,
  };
}

@Module({
  imports: [MailerModule.forRootAsync({ inject: [AppConfig], useFactory: mailerOptions })],
  providers: [{ provide: InvitationMailer, useClass: NodemailerInvitationMailer }, InvitationOutbox, InvitationOutboxWorker],
  exports: [InvitationOutboxWorker],
})
export class MailModule {}
