/** The two NoticeMailers: SMTP when SMTP_URL is set, the log otherwise (as the invitation e-mails'). */
import { MailerService } from '@nestjs-modules/mailer';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { maskedSecret, NoticeEmail, NoticeMailer } from './notice-email';

export class NodemailerNoticeMailer extends NoticeMailer {
  constructor(
    private readonly mailer: MailerService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async send(email: NoticeEmail): Promise<void> {
    await this.mailer.sendMail({
      from: this.config.mailFrom,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
    });
  }
}

/** Without SMTP_URL: the message goes to the log, its secret masked in every mode (a setup link is never logged). */
export class LoggedNoticeMailer extends NoticeMailer {
  private readonly logger = new Logger(NoticeMailer.name);

  async send(email: NoticeEmail): Promise<void> {
    this.logger.log(
      `E-mail not sent (SMTP_URL is not set):\nTo: ${email.to}\nSubject: ${email.subject}\n\n${maskedSecret(email.text, email)}`,
    );
  }
}
