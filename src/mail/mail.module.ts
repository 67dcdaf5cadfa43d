import { MailerModule, MailerOptions, MailerService } from '@nestjs-modules/mailer';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { InvitationMailer } from './invitation-mailer';
import { LoggedInvitationMailer } from './logged-invitation-mailer';
import { NodemailerInvitationMailer } from './nodemailer-invitation-mailer';
import { LoggedNoticeMailer, NodemailerNoticeMailer } from './notice-mailers';
import { NoticeMailer } from './notice-email';
import { InvitationOutboxWorker } from './outbox/invitation-outbox.worker';
import { NoticeOutboxWorker } from './outbox/notice-outbox.worker';

/**
 * Short SMTP timeouts, so that an unreachable or stalled mail server fails a send within seconds
 * and the outbox worker moves on. Responses never wait on SMTP (the outbox sends afterwards);
 * the cap on the whole send is generous, because a send abandoned by the cap while the server
 * still completes it would be delivered twice.
 */
export const SMTP_TIMEOUTS = {
  dnsTimeout: 2_000,
  connectionTimeout: 3_000,
  greetingTimeout: 3_000,
  socketTimeout: 5_000,
};
export const SEND_TIMEOUT_MS = 30_000;

export function mailerOptions(config: AppConfig): MailerOptions {
  return {
    // Without SMTP_URL the module still needs a transport; LoggedInvitationMailer sends nothing through it.
    transport: config.smtpUrl ? { url: config.smtpUrl, ...SMTP_TIMEOUTS } : { jsonTransport: true },
    sendTimeout: SEND_TIMEOUT_MS,
  };
}

@Module({
  imports: [MailerModule.forRootAsync({ inject: [AppConfig], useFactory: mailerOptions })],
  providers: [
    {
      // SMTP when SMTP_URL is set; otherwise the message goes to the log, without being composed
      // by nodemailer (its JSON transport would build a MIME message nobody reads).
      provide: InvitationMailer,
      inject: [AppConfig, MailerService],
      useFactory: (config: AppConfig, mailer: MailerService): InvitationMailer =>
        config.smtpUrl ? new NodemailerInvitationMailer(mailer, config) : new LoggedInvitationMailer(config),
    },
    {
      provide: NoticeMailer,
      inject: [AppConfig, MailerService],
      useFactory: (config: AppConfig, mailer: MailerService): NoticeMailer =>
        config.smtpUrl ? new NodemailerNoticeMailer(mailer, config) : new LoggedNoticeMailer(),
    },
    InvitationOutboxWorker,
    NoticeOutboxWorker,
  ],
  exports: [InvitationOutboxWorker, NoticeOutboxWorker],
})
export class MailModule {}
