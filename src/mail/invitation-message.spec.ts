import { InvitationEmail } from './invitation-mailer';
import { buildInvitationMessage } from './invitation-message';

const email = (overrides: Partial<InvitationEmail> = {}): InvitationEmail => ({
  to: 'new@example.com',
  tenantName: 'Acme',
  inviterEmail: 'owner@acme.example',
  role: 'admin',
  expiresAt: new Date('2026-03-08T10:00:00.000Z'),
  link: 'https://portal.example.com/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11',
  ...overrides,
});

describe(buildInvitationMessage.name, () => {
  it('names the tenant in the subject', () => {
    expect(buildInvitationMessage(email()).subject).toBe('You are invited to join Acme');
  });

  it.each(['text', 'html'] as const)('the %s part holds the tenant, inviter, role, expiry and link', (part) => {
    const body = buildInvitationMessage(email())[part];
    expect(body).toContain('owner@acme.example has invited you to join');
    expect(body).toContain('Acme');
    expect(body).toContain('as admin');
    expect(body).toContain('Sun, 08 Mar 2026 10:00:00 GMT');
    expect(body).toContain('https://portal.example.com/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11');
  });

  it('links the acceptance address in the HTML part', () => {
    expect(buildInvitationMessage(email()).html).toContain(
      '<a href="https://portal.example.com/invitations/6f1c2c1e-8d7a-4b8e-9a51-3f0d2b7c9e11">',
    );
  });

  it('escapes every value in the HTML part and leaves the text part literal', () => {
    const message = buildInvitationMessage(
      email({ tenantName: '<img src=x onerror=alert(1)> & "Co"', inviterEmail: "o'hara@example.com" }),
    );
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(message.html).toContain('o&#39;hara@example.com');
    expect(message.html).not.toContain('<img');
    expect(message.text).toContain('<img src=x onerror=alert(1)> & "Co"');
  });

  it('keeps the subject on one line when the tenant name has line breaks', () => {
    expect(buildInvitationMessage(email({ tenantName: 'Acme\r\nBcc: victim@example.com' })).subject).toBe(
      'You are invited to join Acme Bcc: victim@example.com',
    );
  });

  it('reads naturally without an inviter e-mail', () => {
    expect(buildInvitationMessage(email({ inviterEmail: null })).text).toContain(
      'You have been invited to join Acme as admin.',
    );
  });
});
