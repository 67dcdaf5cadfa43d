import { InvitationEntity } from '../src/database/entities';
import { sessionCookie } from './support/factories';
import { headingOf, PAGE_TEXT, pagePath, visibleText } from './support/invitation-page';
import { useOrganisationSuite } from './support/suites';

const PUBLIC_BASE_URL = 'https://invites.example.com';
const SIGN_IN_URL = 'https://id.example.com/sign-in?client=portal';

/** The invitation page for a signed-in visitor, who joins; and SIGN_IN_URL for one without a session. */
describe('invitation page: joining and signing in', () => {
  const { t, factory, org } = useOrganisationSuite({ app: { env: { SIGN_IN_URL, PUBLIC_BASE_URL } } });

  const address = () => `page-${org.sequence++}@example.com`;
  const invitee = async (role = 'admin') => {
    const user = await factory.user({ email: address() });
    const invitation = await factory.invitation({ tenantId: org.tenant.id, email: user.email, role });
    return { user, invitation, cookie: await sessionCookie(t, user) };
  };
  const open = (token: string, cookie?: string) => {
    const request = t.http.get(pagePath(token));
    return cookie ? request.set('Cookie', cookie) : request;
  };
  /** The page's own button, as a browser posts it: from the page's origin (`site` null: a browser that does not say). */
  const press = (token: string, cookie?: string, site: string | null = 'same-origin') => {
    const request = t.http.post(pagePath(token));
    if (site) request.set('Sec-Fetch-Site', site);
    return cookie ? request.set('Cookie', cookie) : request;
  };
  const statusOf = async (id: string) =>
    (await t.dataSource.getRepository(InvitationEntity).findOneByOrFail({ id })).status;
  const signInHref = (token: string) => {
    const link = new URL(SIGN_IN_URL);
    link.searchParams.set('return_to', `${PUBLIC_BASE_URL}/invitations/${token}`);
    return link.toString().replace(/&/g, '&amp;');
  };

  it('the invited address signed in: "Accept and join"; pressing it makes them a member and says so, with the role', async () => {
    const { user, invitation, cookie } = await invitee();
    const shown = await open(invitation.id, cookie);
    expect(shown.status).toBe(200);
    expect(headingOf(shown.text)).toBe(PAGE_TEXT.invited('Acme'));
    expect(shown.text).toContain(`<button type="submit">${PAGE_TEXT.joinButton}</button>`);

    const res = await press(invitation.id, cookie);
    expect(res.status).toBe(200);
    expect(headingOf(res.text)).toBe(PAGE_TEXT.member('Acme'));
    expect(visibleText(res.text)).toContain(PAGE_TEXT.joined('Acme', 'admin'));
    expect(await statusOf(invitation.id)).toBe('accepted');
    expect(await t.identity.findById(user.id)).toMatchObject({
      userType: 'org',
      tenantId: org.tenant.id,
      role: 'admin',
    });
  });

  it('another address signed in: told the invitation is for another, never shown the invited one; pressing changes nothing', async () => {
    const { invitation } = await invitee();
    const other = await sessionCookie(t, await factory.user({ email: address() }));
    const shown = await open(invitation.id, other);
    expect([shown.status, headingOf(shown.text)]).toEqual([200, PAGE_TEXT.otherAddress]);
    expect(shown.text).not.toContain(invitation.email);
    expect(shown.text).not.toContain('<form');
    expect(shown.text).toContain(
      `<a class="button" href="${signInHref(invitation.id)}">Sign in with another account</a>`,
    );
    const pressed = await press(invitation.id, other);
    expect([pressed.status, headingOf(pressed.text)]).toEqual([403, PAGE_TEXT.otherAddress]);
    expect(await statusOf(invitation.id)).toBe('pending');
  });

  it('no session: sent to sign in, the page on PUBLIC_BASE_URL as return address; pressing the old button accepts nothing', async () => {
    const { invitation } = await invitee();
    const shown = await t.http.get(pagePath(invitation.id)).set('Host', 'evil.example');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`<a class="button" href="${signInHref(invitation.id)}">${PAGE_TEXT.signInLink}</a>`);
    expect(shown.text).not.toContain('<form');
    const pressed = await press(invitation.id);
    expect(pressed.status).toBe(401);
    expect(pressed.text).toContain(PAGE_TEXT.signInLink);
    expect(await statusOf(invitation.id)).toBe('pending');
  });

  it('another site submitting the button with the invitee’s session: the session is not used, nothing is accepted', async () => {
    const { user, invitation, cookie } = await invitee();
    for (const request of [
      press(invitation.id, cookie, 'cross-site'),
      press(invitation.id, cookie, null).set('Origin', 'https://evil.example'),
    ]) {
      const res = await request;
      expect(res.status).toBe(401);
      expect(res.text).toContain(PAGE_TEXT.signInLink);
    }
    expect(await statusOf(invitation.id)).toBe('pending');
    expect((await t.identity.findById(user.id))?.tenantId).toBeNull();
  });

  it('the join’s refusals are explained: a member of another organisation', async () => {
    const member = await factory.member((await factory.tenant()).id, { email: address(), role: 'member' });
    const invitation = await factory.invitation({ tenantId: org.tenant.id, email: member.email });
    const res = await press(invitation.id, await sessionCookie(t, member));
    expect([res.status, headingOf(res.text)]).toEqual([409, 'You are already a member of another organisation']);
    expect(await statusOf(invitation.id)).toBe('pending');
  });
});
