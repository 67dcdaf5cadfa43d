import { connectionActiveEmail, linkEmail, setupCompletedEmail } from './setup-link-emails';

describe(linkEmail.name, () => {
  const email = linkEmail({
    to: 'it@acme.example',
    tenantName: 'Acme\nInc <b>',
    senderEmail: 'owner@acme.example',
    intents: ['domain', 'sso'],
    expiresAt: new Date('2026-03-04T12:00:00Z'),
    url: 'https://tenants.example/setup/tok',
    token: 'tok',
  });

  it('names the steps, the sender and the expiry; the subject on one line; the token is its secret', () => {
    expect(email.subject).toBe('Set up your e-mail domain, single sign-on for Acme Inc <b>');
    expect(email.text).toContain('owner@acme.example asks you to set up your e-mail domain, single sign-on');
    expect(email.text).toContain('Wed, 04 Mar 2026 12:00:00 GMT');
    expect(email.text).toContain('Open the setup:\nhttps://tenants.example/setup/tok');
    expect(email.secret).toBe('tok');
  });

  it('escapes every value in the HTML part', () => {
    expect(email.html).toContain('Acme Inc &lt;b&gt;');
    expect(email.html).not.toContain('<b>');
  });
});

describe('the owners’ notices', () => {
  it('a connection made through a link is active', () => {
    const email = connectionActiveEmail('owner@acme.example', 'Acme', 'Okta');
    expect(email.subject).toBe('Single sign-on is active for Acme');
    expect(email.text).toContain('“Okta”');
    expect(email.secret).toBeUndefined();
  });

  it('a setup was completed, with what the link made, or nothing', () => {
    expect(setupCompletedEmail('o@acme.example', 'Acme', ['the domain acme.example']).text).toContain(
      'Made through the link: the domain acme.example.',
    );
    expect(setupCompletedEmail('o@acme.example', 'Acme', []).text).toContain('Nothing was made through the link.');
  });
});
