/** What the invitation page says in each state, for the HTTP and the browser suites. */
export const PAGE_TEXT = {
  invited: (tenantName: string) => `You are invited to join ${tenantName}`,
  acceptButton: 'Accept invitation',
  joinButton: 'Accept and join',
  signInLink: 'Sign in to accept',
  accepted: 'Invitation accepted',
  /** The spec accept's result: it names the organisation and role, and makes nobody a member. */
  acceptedFor: (tenantName: string, role: string) => `The invitation to join ${tenantName} as ${role} is accepted.`,
  member: (tenantName: string) => `You are now a member of ${tenantName}`,
  joined: (tenantName: string, role: string) => `You joined ${tenantName} as ${role}.`,
  otherAddress: 'This invitation is for another address',
  alreadyUsed: 'This invitation has already been accepted',
  expired: 'This invitation has expired',
  invalid: 'This invitation link is not valid',
  failed: 'Something went wrong, try again',
};

export const pagePath = (token: string) => `/invitations/${encodeURIComponent(token)}`;

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The text a reader sees in a served page: no style, script or tags; entities decoded; spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity])
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of the page's one h1. */
export const headingOf = (html: string): string => visibleText(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '');
