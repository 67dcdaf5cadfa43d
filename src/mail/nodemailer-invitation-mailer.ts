import { MailerService } from '@nestjs-modules/mailer';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { buildInvitationMessage } from './invitation-message';
import { InvitationEmail, InvitationMailer } from './invitation-mailer';

/** Sends over SMTP (SMTP_URL) through @nestjs-modules/mailer. */
@Injectable()
export class NodemailerInvitationMailer extends InvitationMailer {
  constructor(
    private readonly mailer: MailerService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async send(email: InvitationEmail): Promise<void> {
    const message = buildInvitationMessage(email);
    // No `context`: the mailer would then substitute {{…}} inside the already-built parts.
    await this.mailer.sendMail({
      from: this.config.mailFrom,
      to: email.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  }
}
