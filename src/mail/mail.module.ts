import { MailerModule, MailerOptions } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InvitationMailer } from './invitation-mailer';
import { NodemailerInvitationMailer } from './nodemailer-invitation-mailer';

/**
 * Short SMTP timeouts, and a cap on the whole send, so that an unreachable or stalled mail
 * server never holds an invitation response for more than a few seconds (CONTRACT, Decisions).
 */
export const SMTP_TIMEOUTS = { dnsTimeout: 2_000, connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 5_000 };
export const SEND_TIMEOUT_MS = 5_000;

export function mailerOptions(config: AppConfig): MailerOptions {
  return {
    transport: config.smtpUrl ? { url: config.smtpUrl, ...SMTP_TIMEOUTS } : { jsonTransport: true },
    sendTimeout: SEND_TIMEOUT_MS,
  };
}

@Module({
  imports: [MailerModule.forRootAsync({ inject: [AppConfig], useFactory: mailerOptions })],
  providers: [{ provide: InvitationMailer, useClass: NodemailerInvitationMailer }],
  exports: [InvitationMailer],
})
export class MailModule {}
