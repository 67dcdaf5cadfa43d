import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { buildInvitationMessage } from './invitation-message';
import { InvitationEmail, InvitationMailer } from './invitation-mailer';

/**
 * Without SMTP_URL: the message is written to the log instead of being sent, so that a developer
 * can follow the link without a mail server. In production the logged copy has its token masked:
 * whoever reads the log must not be able to accept the invitation.
 */
export class LoggedInvitationMailer extends InvitationMailer {
  private readonly logger = new Logger(InvitationMailer.name);

  constructor(private readonly config: AppConfig) {
    super();
  }

  async send(email: InvitationEmail): Promise<void> {
    const message = buildInvitationMessage(email);
    const text =
      this.config.nodeEnv === 'production'
        ? message.text.replaceAll(email.link, email.link.replace(/[^/]+$/, '<token>'))
        : message.text;
    this.logger.log(`E-mail not sent (SMTP_URL is not set):\nTo: ${email.to}\nSubject: ${message.subject}\n\n${text}`);
  }
}
