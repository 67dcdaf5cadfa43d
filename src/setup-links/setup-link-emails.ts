/**
 * The e-mails of setup links (docs/setup-links.md): the link to the IT admin, and the owners' notices
 * (a connection made through a link became active; a setup was completed). Built in code, every
 * value escaped in one place, as the invitation e-mail is.
 */
import { escapeHtml } from '../common/html';
import { NoticeEmail } from '../mail/notice-email';

const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();

function email(to: string, subject: string, paragraphs: string[], link?: { url: string; label: string }): NoticeEmail {
  const text = [
    'Hello,',
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [`${link.label}:`, link.url, ''] : []),
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    '<p>Hello,</p>',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`] : []),
    '</body></html>',
    '',
  ].join('\n');
  return { to, subject: oneLine(subject), text, html };
}

const STEP_NAMES = { domain: 'your e-mail domain', sso: 'single sign-on', scim: 'SCIM provisioning' } as const;

/** The link to the IT admin: what it sets up, by whom, until when. Its token is the e-mail's secret. */
export function linkEmail(input: {
  to: string;
  tenantName: string;
  senderEmail: string | null;
  intents: (keyof typeof STEP_NAMES)[];
  expiresAt: Date;
  url: string;
  token: string;
}): NoticeEmail {
  const tenant = oneLine(input.tenantName);
  const asks = input.senderEmail ? `${input.senderEmail} asks you` : 'You are asked';
  const steps = input.intents.map((intent) => STEP_NAMES[intent]).join(', ');
  return {
    ...email(
      input.to,
      `Set up ${steps} for ${tenant}`,
      [
        `${asks} to set up ${steps} for ${tenant}.`,
        `The link works until ${input.expiresAt.toUTCString()}. Keep it to yourself: whoever has it can make these changes.`,
      ],
      { url: input.url, label: 'Open the setup' },
    ),
    secret: input.token,
  };
}

/** An owner told that a connection made through a setup link passed its test sign-in and is active. */
export const connectionActiveEmail = (to: string, tenantName: string, connectionName: string): NoticeEmail =>
  email(to, `Single sign-on is active for ${oneLine(tenantName)}`, [
    `The single sign-on connection “${connectionName}”, made through a setup link, passed its test sign-in and is now active for ${oneLine(tenantName)}.`,
    'Members can sign in with it. Requiring single sign-on of every member stays your decision.',
  ]);

/** An owner told that a setup link was completed. */
export const setupCompletedEmail = (to: string, tenantName: string, changes: string[]): NoticeEmail =>
  email(to, `The setup of ${oneLine(tenantName)} is complete`, [
    `The IT admin completed the setup of ${oneLine(tenantName)} and the setup link is now closed.`,
    changes.length ? `Made through the link: ${changes.join('; ')}.` : 'Nothing was made through the link.',
    'Every change is in the audit trail.',
  ]);
