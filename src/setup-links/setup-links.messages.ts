/** The codes, reasons and words of setup links (docs/setup-links.md). */
import { HttpStatus } from '@nestjs/common';
import { Refusal, refusalSchema } from '../common/refusal';

/** The refusals of the setup-link routes: `{success:false, error:CODE, reason}`. */
export const SETUP_ERRORS = {
  invalid: 'SETUP_LINK_INVALID',
  limit: 'SETUP_LINK_LIMIT',
  notFound: 'SETUP_LINK_NOT_FOUND',
  closed: 'SETUP_LINK_CLOSED',
  intentNotGranted: 'SETUP_INTENT_NOT_GRANTED',
  notAllowed: 'SETUP_ACTION_NOT_ALLOWED',
} as const;
export type SetupErrorCode = (typeof SETUP_ERRORS)[keyof typeof SETUP_ERRORS];

export const setupRefusal = (status: HttpStatus, error: SetupErrorCode, reason: string) =>
  new Refusal(status, error, { reason });

/** The body of setupRefusal, for the API document. */
export const SetupErrorBody = refusalSchema('SetupErrorBody', Object.values(SETUP_ERRORS), {
  reason: { type: 'string', description: 'What was refused, for a person to read' },
});

export const SETUP_REASONS = {
  intents: 'intents is a non-empty list of distinct values among "domain", "sso", "scim"',
  expiresInHours: 'expiresInHours is a whole number from 1 to 720',
  email: 'email is an e-mail address',
  notFound: 'no such setup link in this organisation',
  closed: 'the link is no longer open: it was completed, revoked, or it expired',
  intent: (intent: string) => `this link does not grant "${intent}"`,
  activate: 'a connection made through a setup link becomes active only by a successful test sign-in',
  primary: 'only the organisation’s owners make a connection primary',
  notMadeHere: (what: string) =>
    `this ${what} was not made through this link: only the organisation’s owners remove it`,
  limit: (perOrg: number) => `an organisation has at most ${perOrg} open setup links (SETUP_LINKS_PER_ORG)`,
};

/** The 500 bodies of the routes. */
export const SETUP_FAILURES = {
  links: 'Failed to manage setup links',
  setup: 'Failed to set up',
} as const;

/** The words of the pages that `GET /setup/{token}` answers (no detail of the organisation). */
export const SETUP_PAGE_WORDS = {
  forwardTitle: 'Opening the setup',
  forwardBody: 'Taking you to the setup…',
  forwardLink: 'Continue to the setup',
  invalid: { title: 'This setup link is not valid', body: 'Check that the whole link was copied from the e-mail.' },
  expired: { title: 'This setup link has expired', body: 'Ask the person who sent it for a new one.' },
  revoked: { title: 'This setup link was revoked', body: 'Ask the person who sent it for a new one.' },
  completed: {
    title: 'This setup is complete',
    body: 'The link was closed when the setup was completed. Ask for a new one to change anything.',
  },
  suspended: { title: 'This setup link cannot be used now', body: 'Ask the person who sent it.' },
} as const;
