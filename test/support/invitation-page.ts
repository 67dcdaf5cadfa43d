/** What the invitation page says in each state, for the HTTP and the browser suites. */
export const PAGE_TEXT = {
  invited: (tenantName: string) => `You are invited to join ${tenantName}`,
  acceptButton: 'Accept invitation',
  accepted: 'Invitation accepted',
  joined: (tenantName: string, role: string) => `You have joined ${tenantName} as ${role}.`,
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
