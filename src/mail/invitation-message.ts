import { escapeHtml } from '../common/html';
import { InvitationEmail } from './invitation-mailer';

/** The acceptance link of an invitation: `<base address>/invitations/<token>`. */
export const invitationLink = (baseAddress: string, token: string): string =>
  `${baseAddress}/invitations/${encodeURIComponent(token)}`;

export interface InvitationMessage {
  subject: string;
  text: string;
  html: string;
}

/** Tenant names may hold line breaks; a subject must stay one line. */
const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

/**
 * The invitation e-mail as a plain-text and an HTML part. Built in code rather than from
 * template files: every value is escaped in one visible place and nothing is read from disk.
 */
export function buildInvitationMessage(email: InvitationEmail): InvitationMessage {
  const tenant = oneLine(email.tenantName);
  const expires = email.expiresAt.toUTCString();
  const invitedBy = email.inviterEmail ? `${email.inviterEmail} has invited you` : 'You have been invited';
  const subject = `You are invited to join ${tenant}`;

  const text = [
    'Hello,',
    '',
    `${invitedBy} to join ${tenant} as ${email.role}.`,
    '',
    'Accept the invitation:',
    email.link,
    '',
    `The invitation expires on ${expires}. If you did not expect it, you can ignore this e-mail.`,
    '',
  ].join('\n');

  const html = [
    '<!DOCTYPE html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hello,</p>',
    `<p>${escapeHtml(invitedBy)} to join <strong>${escapeHtml(tenant)}</strong> as ${escapeHtml(email.role)}.</p>`,
    `<p><a href="${escapeHtml(email.link)}">Accept the invitation</a></p>`,
    `<p>Or open this link: ${escapeHtml(email.link)}</p>`,
    `<p>The invitation expires on ${escapeHtml(expires)}. If you did not expect it, you can ignore this e-mail.</p>`,
    '</body></html>',
    '',
  ].join('\n');

  return { subject, text, html };
}
