import { MailerService } from '@nestjs-modules/mailer';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { buildInvitationMessage } from './invitation-message';
import { InvitationEmail, InvitationMailer } from './invitation-mailer';

/**
 * Sends through @nestjs-modules/mailer: SMTP when SMTP_URL is set; otherwise nodemailer's JSON
 * transport composes the message and it is written to the log, so that a developer can follow
 * the link without a mail server. In production the logged copy has its token masked: whoever
 * reads the log must not be able to accept the invitation.
 */
@Injectable()
export class NodemailerInvitationMailer extends InvitationMailer {
  private readonly logger = new Logger(InvitationMailer.name);

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
    if (!this.config.smtpUrl) {
      const text =
        this.config.nodeEnv === 'production'
          ? message.text.replaceAll(email.link, email.link.replace(/[^/]+$/, '<token>'))
          : message.text;
      this.logger.log(`E-mail not sent (SMTP_URL is not set):\nTo: ${email.to}\nSubject: ${message.subject}\n\n${text}`);
    }
  }
}
