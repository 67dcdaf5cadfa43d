/** What the invitation e-mail says (spec 4.9 rule 10). */
export interface InvitationEmail {
  to: string;
  /** The tenant's display name: its name, or the spec's default name when it has none. */
  tenantName: string;
  /** The inviter's e-mail, shown as the inviter's name; null when the session carries none. */
  inviterEmail: string | null;
  role: string;
  expiresAt: Date;
  /** The acceptance link: `<base address>/invitations/<token>`. */
  link: string;
}

/** The port that sends invitation e-mails; rejects when the message could not be handed over. */
export abstract class InvitationMailer {
  abstract send(email: InvitationEmail): Promise<void>;
}
