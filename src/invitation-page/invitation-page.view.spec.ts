import { html } from '../common/html';
import { invitationPageHeaders, InvitationPageView, renderInvitationPage } from './invitation-page.view';

const NONCE = 'bm9uY2Utb2YtdGhlLXRlc3Q=';
const INJECTION = `<script>alert("x")</script><img src=x onerror='alert(1)'>&amp;`;
const VIEWS: InvitationPageView[] = [
  {
    kind: 'invitation',
    tenantName: 'Acme',
    email: 'carol@example.com',
    role: 'member',
    expiresAt: new Date('2026-03-08T12:00:00Z'),
  },
  { kind: 'accepted', tenantName: 'Acme', role: 'member' },
  { kind: 'already-used' },
  { kind: 'expired' },
  { kind: 'invalid' },
  { kind: 'suspended' },
  { kind: 'failed' },
];

describe(renderInvitationPage.name, () => {
  it.each(VIEWS.map((view) => [view.kind, view]))('%s: one h1, and only the nonced style and script', (_, view) => {
    const page = renderInvitationPage(view as InvitationPageView, NONCE);
    expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page.match(/<script[ >]/g)).toEqual(['<script ']);
    expect(page).toContain(`<script nonce="${NONCE}">`);
    expect(page).toContain(`<style nonce="${NONCE}">`);
    expect(page).toContain('<html lang="en">');
  });

  it('the invitation shows its fields, the expiry in UTC, and one form with the Accept button', () => {
    const page = renderInvitationPage(VIEWS[0], NONCE);
    expect(page).toContain('<dt>Invited address</dt><dd>carol@example.com</dd>');
    expect(page).toContain('<time datetime="2026-03-08T12:00:00.000Z">8 March 2026 at 12:00 UTC</time>');
    expect(page).toContain('<form method="post" action="">');
    expect(page).toContain('<button type="submit">Accept invitation</button>');
  });

  it.each(VIEWS.slice(1).map((view) => [view.kind, view]))('%s has no form and no button', (_, view) => {
    const page = renderInvitationPage(view as InvitationPageView, NONCE);
    expect(page).not.toContain('<form');
    expect(page).not.toContain('<button');
  });

  it('escapes every value: an organisation, address or role holding markup is shown as text', () => {
    const page = renderInvitationPage(
      { kind: 'invitation', tenantName: INJECTION, email: INJECTION, role: INJECTION, expiresAt: new Date() },
      NONCE,
    );
    const accepted = renderInvitationPage({ kind: 'accepted', tenantName: INJECTION, role: INJECTION }, NONCE);
    for (const markup of [page, accepted]) {
      expect(markup).not.toContain('<script>alert');
      expect(markup).not.toContain('<img');
      expect(markup).toContain(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(1)&#39;&gt;&amp;amp;',
      );
    }
  });
});

describe(`${renderInvitationPage.name}: joining`, () => {
  const invitation = {
    kind: 'invitation',
    tenantName: 'Acme',
    email: 'carol@example.com',
    role: 'member',
    expiresAt: new Date(),
  } as const;
  const JOINING: InvitationPageView[] = [
    { kind: 'joined', tenantName: 'Acme', role: 'admin', pending: false },
    { kind: 'joined', tenantName: 'Acme', role: 'admin', pending: true },
    { kind: 'other-address', signedInAs: 'mallory@example.com' },
    { kind: 'not-verified' },
    { kind: 'member-elsewhere' },
    { kind: 'email-in-use' },
  ];

  it('a signed-in invitee gets "Accept and join" in the same form', () => {
    const page = renderInvitationPage({ ...invitation, action: 'join' }, NONCE);
    expect(page).toContain('<form method="post" action="">');
    expect(page).toContain('<button type="submit">Accept and join</button>');
  });

  it('a visitor without a session gets a link to sign in, escaped, and no form', () => {
    const page = renderInvitationPage(
      { ...invitation, action: { signInUrl: 'https://id.example.com/in?a=1&return_to=x"y' } },
      NONCE,
    );
    expect(page).toContain(
      '<a class="button" href="https://id.example.com/in?a=1&amp;return_to=x&quot;y">Sign in to accept</a>',
    );
    expect(page).not.toContain('<form');
  });

  it.each(JOINING.map((view) => [view.kind, view]))('%s: one h1, no form, no button', (_, view) => {
    const page = renderInvitationPage(view as InvitationPageView, NONCE);
    expect(page.match(/<h1[ >]/g)).toHaveLength(1);
    expect(page).not.toContain('<form');
  });

  it('joined says the member and the role; pending says that access is still being set up', () => {
    expect(renderInvitationPage(JOINING[0], NONCE)).toContain('<h1 tabindex="-1">You are now a member of Acme</h1>');
    expect(renderInvitationPage(JOINING[0], NONCE)).toContain('<p>You joined <strong>Acme</strong> as admin.</p>');
    expect(renderInvitationPage(JOINING[1], NONCE)).toContain('still being set up');
  });

  it('another address: the address signed in with is shown, escaped; the accepted page never says the visitor joined', () => {
    expect(renderInvitationPage({ kind: 'other-address', signedInAs: INJECTION }, NONCE)).not.toContain(
      '<script>alert',
    );
    expect(renderInvitationPage({ kind: 'accepted', tenantName: 'Acme', role: 'admin' }, NONCE)).not.toMatch(
      /joined|member of/,
    );
  });
});

describe(invitationPageHeaders.name, () => {
  it('a CSP that runs only the nonced script and style, no referrer, no caching, no indexing', () => {
    expect(invitationPageHeaders(NONCE)).toEqual({
      'Content-Security-Policy':
        `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'nonce-${NONCE}'; connect-src ` +
        `'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
    });
  });
});

describe(html.name, () => {
  it('escapes values, keeps nested fragments and arrays of them, and leaves out null, undefined and false', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    expect(html`<ul title="${'"q"'}">${['<a>', 'b&c'].map(item)}${null}${undefined}${false}${0}</ul>`.markup).toBe(
      '<ul title="&quot;q&quot;"><li>&lt;a&gt;</li><li>b&amp;c</li>0</ul>',
    );
  });
});
