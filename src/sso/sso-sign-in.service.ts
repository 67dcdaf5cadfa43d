import { HttpStatus, Injectable } from '@nestjs/common';
import { sessionCookie } from '../auth/session-token';
import { SessionTokenIssuer } from '../auth/session-token-issuer';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SsoConnectionEntity } from '../database/entities';
import { emailDomain } from '../domains/domain-name';
import { IdentityUser } from '../identity/identity-store';
import { OidcCallbackQuery, OidcSignIn } from './oidc/oidc-sign-in';
import { SamlAcsForm, SamlSignIn } from './saml/saml-sign-in';
import { SsoActivations } from './sso-activations';
import { SsoAttempts } from './sso-attempts';
import { SsoConnectionsStore } from './sso-connections.store';
import { connectionEvent } from './sso-events';
import { JoiningRoles, KnownPerson, SignInRefused, SsoMembership } from './sso-membership';
import {
  CallbackRefusal,
  CallbackVerdict,
  failedCheck,
  refusedWith,
  SsoProtocol,
  VerifiedPerson,
} from './sso-protocol';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { SSO_ERRORS, ssoRefusal } from './sso.messages';

/**
 * Single sign-on's sign-in, whatever the protocol (docs/sso.md, "Signing in", steps 3 to 6): the
 * protocol's adapter checks the provider's answer; then the e-mail's domain, the person, the
 * membership, and the session, or an owner's test sign-in's outcome. Every callback records an
 * attempt; a refusal also an `sso.login_failed` event.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    private readonly connections: SsoConnectionsStore,
    private readonly signIns: SsoSignInsStore,
    private readonly oidc: OidcSignIn,
    private readonly saml: SamlSignIn,
    private readonly people: SsoMembership,
    private readonly tokens: SessionTokenIssuer,
    private readonly attempts: SsoAttempts,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly activations: SsoActivations,
  ) {}

  /** GET /sso/oidc/{id}/callback: a session, or a test sign-in's outcome. */
  oidcCallback(id: string, query: OidcCallbackQuery, base: string, browser: Browser): Promise<SignedIn | TestedSignIn> {
    return this.callback(this.oidc, id, query, base, browser);
  }

  /** POST /sso/saml/{id}/acs: a session, or a test sign-in's outcome. */
  samlCallback(id: string, form: SamlAcsForm, base: string, browser: Browser): Promise<SignedIn | TestedSignIn> {
    return this.callback(this.saml, id, form, base, browser);
  }

  /** A callback's checks, then the session or the test's outcome; the attempt recorded either way. */
  private async callback<Message>(
    protocol: SsoProtocol<Message>,
    id: string,
    message: Message,
    base: string,
    browser: Browser,
  ): Promise<SignedIn | TestedSignIn> {
    const connection = await this.answeringConnection(protocol, id, message);
    const verdict: CallbackVerdict = (await this.signIns.tenantActive(connection.tenantId))
      ? await protocol.verify(connection, message, base)
      : refusedWith(failedCheck(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'the organisation is not active'));
    if ('refused' in verdict) return this.refuse(connection, verdict.refused);
    const { person } = verdict;
    try {
      if (person.purpose === 'test') return await this.tested(connection, await this.test(person));
      const { user, location, cookie } = await this.signIn(person, base, browser);
      await this.attempts.record(connection, 'ok', { email: person.sentEmail, subject: person.subject }, 'signed in', [
        connectionEvent('sso.login_succeeded', connection, null, { userId: user.id, email: person.sentEmail }),
      ]);
      return { location, cookie };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      const test = person.purpose === 'test';
      return this.refuse(connection, { ...error.check, email: person.sentEmail, subject: person.subject, test });
    }
  }

  /**
   * The connection a callback names, of the callback's protocol; one that is not active answers only
   * the test sign-ins sent for it (the pending request the message names, read only then).
   */
  private async answeringConnection<Message>(
    protocol: SsoProtocol<Message>,
    id: string,
    message: Message,
  ): Promise<SsoConnectionEntity> {
    const connection = await this.connections.findById(id);
    if (
      connection?.type !== protocol.type ||
      (connection.status !== 'active' &&
        !(await this.signIns.isPendingTest(protocol.claimedRequest(message), connection.id)))
    )
      throw ssoRefusal(
        HttpStatus.NOT_FOUND,
        SSO_ERRORS.notFound,
        `no active ${protocol.type.toUpperCase()} connection with this id`,
      );
    return connection;
  }

  /** The provider is trusted for its organisation's proven domains only. */
  private async proveDomain({ connection, email }: VerifiedPerson): Promise<void> {
    const domain = emailDomain(email);
    const holder = domain ? await this.signIns.holderOf(domain, this.clock.now()) : null;
    if (!holder || holder.tenantId !== connection.tenantId)
      throw new SignInRefused(
        failedCheck(
          HttpStatus.FORBIDDEN,
          SSO_ERRORS.domainMismatch,
          `${domain ?? email} is not a verified domain of this organisation`,
        ),
      );
  }

  /** The checks of a sign-in and a test alike: the domain, then the person and the roles they would join with. */
  private async checked(person: VerifiedPerson): Promise<KnownPerson & { joining: JoiningRoles }> {
    await this.proveDomain(person);
    const known = await this.people.find(person);
    return { ...known, joining: await this.people.joiningRoles(person.connection, person.groups) };
  }

  /** A sign-in's checks without its writes: what it would do. */
  private async test(person: VerifiedPerson): Promise<TestedSignIn> {
    const { connection, email, subject } = person;
    const { user, joining } = await this.checked(person);
    const membership = await this.people.admission(connection, user, email);
    const roles = membership === 'member' ? { role: user!.role!, roles: [] } : joining;
    return { test: { result: 'ok', email, subject, membership, ...roles, activated: false } };
  }

  /** The domain, the person, the membership, the link; then the session. */
  private async signIn(
    person: VerifiedPerson,
    base: string,
    browser: Browser,
  ): Promise<SignedIn & { user: IdentityUser }> {
    const { connection } = person;
    const { user, link, joining } = await this.checked(person);
    const member = await this.people.membership(connection, user, person.email, joining);
    const signedInAs = await this.people.link(member, person, link);
    const { token, ttlSeconds } = await this.tokens.issue(signedInAs, {
      kind: 'sso',
      connectionId: connection.id,
      emailVerified: true,
      userAgent: browser.userAgent,
      ip: browser.ip,
    });
    const cookie = sessionCookie(this.config.sessionCookieName, token, ttlSeconds, browser.secure);
    return { location: absolute(person.returnTo, base), cookie, user: member };
  }

  /** A test sign-in passed: recorded, and a draft connection activated (once, whoever tests at once). */
  private async tested(connection: SsoConnectionEntity, outcome: TestedSignIn): Promise<TestedSignIn> {
    const { test } = outcome;
    const would = test.membership === 'member' ? 'signs in as a member' : `would join with role ${test.role}`;
    await this.attempts.record(connection, 'ok', test, `test sign-in: every check passed; ${test.email} ${would}`, []);
    let current: SsoConnectionEntity | null = connection;
    while (current?.status === 'draft') {
      const now = this.clock.now();
      const activated = connectionEvent('sso.connection_activated', current, null, { by: 'test sign-in' });
      const changes = { status: 'active' as const, activatedAt: now, updatedAt: now };
      if (await this.connections.update(current, changes, [activated], await this.activations.rowsFor(current)))
        return { test: { ...test, activated: true } };
      current = await this.connections.findById(connection.id);
    }
    return outcome;
  }

  private refuse(connection: SsoConnectionEntity, refused: CallbackRefusal): Promise<never> {
    return this.attempts.refuse(connection, refused);
  }
}

/** The browser a callback came from: whether over HTTPS (the cookie's Secure), and what its session keeps of it. */
export interface Browser {
  secure: boolean;
  userAgent: string | null;
  ip: string | null;
}

/** What the callback answers: a redirect with the session cookie. */
export interface SignedIn {
  location: string;
  cookie: string;
}

/** What a test sign-in's callback answers: every check passed, and what a sign-in would do. */
export interface TestedSignIn {
  test: {
    result: 'ok';
    email: string;
    subject: string;
    /** `member`: signs in as a member; `joins`: would join with `role` and the custom `roles` at a sign-in. */
    membership: 'member' | 'joins';
    role: string;
    roles: string[];
    /** A draft connection becomes active when its test sign-in succeeds. */
    activated: boolean;
  };
}

/** returnTo as stored: a path of this service, made absolute on its base. */
const absolute = (returnTo: string, base: string) => (returnTo.startsWith('/') ? `${base}${returnTo}` : returnTo);
