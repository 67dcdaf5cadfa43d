import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { auditEvents, NewAuditEvent } from '../audit/audit-event';
import { SessionTokenIssuer } from '../auth/session-token-issuer';
import { Clock } from '../common/clock';
import { sameEmail } from '../common/email-comparison';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { SsoConnectionEntity, SsoIdentityEntity, SsoRequestEntity } from '../database/entities';
import { SsoConnectionType, SsoRequestPurpose } from '../database/entities/sso.entity';
import { emailDomain } from '../domains/domain-name';
import { MembershipRemovalsStore } from '../memberships/membership-removals.store';
import { IdentityStore, IdentityUser } from '../identity/identity-store';
import { DEFAULT_TENANT_NAME } from '../invitations/invitation';
import { isUniqueViolation } from '../database/unique-violation';
import { JoiningService } from '../joining/joining.service';
import { ScimRoleMappingsStore } from '../scim/scim-role-mappings.store';
import { customRolesFor, roleFor } from '../scim/scim-roles';
import { Discovery, OidcCheckFailed, OidcClient, OidcClientSettings } from './oidc-client';
import { SamlCheckFailed, SamlClient, SamlSettings } from './saml/saml-client';
import { IdpMetadata } from './saml/saml-metadata';
import { acceptedReturnTo } from './return-to';
import { SsoConnectionsStore } from './sso-connections.store';
import { connectionEvent } from './sso-events';
import { openSecret } from './sso-secrets';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { redirectUriOf, samlEndpointsOf, samlPostPageOf } from './sso-views';
import { SSO_ERRORS, SsoErrorCode, ssoRefusal } from './sso.messages';

/** How long a sign-in sent to the provider may take to come back. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** How long the session of a single sign-on lasts (the id token's exp). */
export const SSO_SESSION_TTL_SECONDS = 8 * 3600;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export type DiscoverAnswer =
  | { sso: false }
  | {
      sso: true;
      organisation: { id: string; name: string };
      connection: { id: string; type: SsoConnectionType };
      startUrl: string;
    };

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

/** A refused sign-in, with what the attempt records. */
class SignInRefused extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly code: SsoErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** What the provider proved of the person, whatever the protocol. */
interface ProvenPerson {
  subject: string;
  /** Lower case, an address. */
  email: string;
  groups: string[];
}

/** The provider's answer, checked: the sign-in it answers (an unsolicited SAML response: made up of RelayState), and the person. */
interface ProviderAnswer {
  request: Pick<SsoRequestEntity, 'purpose' | 'returnTo'>;
  person: ProvenPerson;
}

/** What is known of the sign-in while the checks run, for the attempt. */
interface AttemptSubject {
  email: string | null;
  subject: string | null;
  /** An owner's test sign-in. */
  test: boolean;
}

/**
 * Single sign-on's sign-in (docs/sso.md): discovery by e-mail domain, the start (a pending request
 * stored in the database, used once), and the OIDC callback's checks in order (state, the code
 * exchange with the ID token's checks, the e-mail's domain, the person, the membership), then the
 * session. Every callback records an attempt; a refusal also an `sso.login_failed` event.
 */
@Injectable()
export class SsoSignInService {
  private readonly logger = new Logger('SingleSignOn');

  constructor(
    private readonly connections: SsoConnectionsStore,
    private readonly signIns: SsoSignInsStore,
    private readonly removals: MembershipRemovalsStore,
    private readonly oidc: OidcClient,
    private readonly saml: SamlClient,
    private readonly identity: IdentityStore,
    private readonly joining: JoiningService,
    private readonly mappings: ScimRoleMappingsStore,
    private readonly tokens: SessionTokenIssuer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** POST /api/sso/discover. */
  async discover(body: unknown, base: string): Promise<DiscoverAnswer> {
    const email = emailOf(body);
    const found = await this.byEmail(email);
    if (!found) return { sso: false };
    const { connection, tenantName } = found;
    return {
      sso: true,
      organisation: { id: connection.tenantId, name: tenantName ?? DEFAULT_TENANT_NAME },
      connection: { id: connection.id, type: connection.type },
      startUrl: `${base}/sso/start?connection=${encodeURIComponent(connection.id)}`,
    };
  }

  /** GET /sso/start: where the browser goes, the provider's authorisation endpoint. */
  async start(query: Record<string, unknown>, base: string): Promise<string> {
    const returnTo = acceptedReturnTo(query.returnTo, this.returnOrigins(base));
    if (returnTo === null) throw ssoRefusal(HttpStatus.BAD_REQUEST, SSO_ERRORS.returnRefused, RETURN_REFUSED);
    let connection: SsoConnectionEntity | null = null;
    let loginHint: string | undefined;
    if (typeof query.connection === 'string' && query.connection !== '') {
      connection = await this.connections.findById(query.connection);
      if (connection && (connection.status !== 'active' || !(await this.signIns.tenantActive(connection.tenantId))))
        connection = null;
    } else if (typeof query.email === 'string' && query.email !== '') {
      loginHint = emailOf({ email: query.email });
      connection = (await this.byEmail(loginHint))?.connection ?? null;
    }
    if (!connection)
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no active connection for this e-mail or id');
    return this.toProvider(connection, 'sign_in', returnTo, base, loginHint);
  }

  /** An owner's test sign-in of the connection, whatever its status: the provider's address. */
  startTest(connection: SsoConnectionEntity, base: string): Promise<string> {
    return this.toProvider(connection, 'test', '/', base);
  }

  /** GET /sso/oidc/{id}/callback: a session, or a test sign-in's outcome. */
  async oidcCallback(
    id: string,
    query: Record<string, unknown>,
    base: string,
    secure: boolean,
  ): Promise<SignedIn | TestedSignIn> {
    const connection = await this.answeringConnection(id, 'oidc', () => single(query.state));
    return this.callback(connection, base, secure, (known) => this.oidcAnswer(connection, query, base, known));
  }

  /** POST /sso/saml/{id}/acs: a session, or a test sign-in's outcome. */
  async samlCallback(
    id: string,
    body: Record<string, unknown>,
    base: string,
    secure: boolean,
  ): Promise<SignedIn | TestedSignIn> {
    const samlResponse = single(body.SAMLResponse);
    const connection = await this.answeringConnection(id, 'saml', () =>
      samlResponse === undefined ? undefined : (this.saml.claimedRequest(samlResponse) ?? undefined),
    );
    return this.callback(connection, base, secure, (known) => this.samlAnswer(connection, body, base, known));
  }

  /**
   * GET /sso/saml/{id}/requests/{requestId}: the page that posts a pending sign-in's AuthnRequest to a
   * provider that takes HTTP-POST only; 404 once the request is used or expired, or for another connection's.
   */
  async samlPost(
    id: string,
    requestId: string,
    base: string,
  ): Promise<{ action: string; fields: Record<string, string> }> {
    const connection = await this.connections.findById(id);
    const request = connection?.type === 'saml' ? await this.signIns.findRequest(requestId) : null;
    if (!connection || request?.connectionId !== id || request.usedAt !== null || request.expiresAt <= this.clock.now())
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no pending sign-in with this id');
    return this.saml.authorizeForm(this.samlSettings(connection, base), request.state, request.state);
  }

  /** GET /sso/saml/{id}/metadata: the SP metadata an owner gives the provider, whatever the connection's status. */
  async serviceProviderMetadata(id: string, base: string): Promise<string> {
    const connection = await this.connections.findById(id);
    if (connection?.type !== 'saml')
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no SAML connection with this id');
    return this.saml.serviceProviderMetadata(this.samlSettings(connection, base));
  }

  /**
   * The connection a callback names, of the callback's protocol; one that is not active answers only
   * the test sign-ins sent for it (`pending`: the state or InResponseTo that the message names, read
   * only then).
   */
  private async answeringConnection(
    id: string,
    type: SsoConnectionType,
    pending: () => string | undefined,
  ): Promise<SsoConnectionEntity> {
    const connection = await this.connections.findById(id);
    if (
      connection?.type !== type ||
      (connection.status !== 'active' && !(await this.signIns.isPendingTest(pending(), connection.id)))
    )
      throw ssoRefusal(
        HttpStatus.NOT_FOUND,
        SSO_ERRORS.notFound,
        `no active ${type.toUpperCase()} connection with this id`,
      );
    return connection;
  }

  /** A callback's checks, then the session or the test's outcome; the attempt recorded either way. */
  private async callback(
    connection: SsoConnectionEntity,
    base: string,
    secure: boolean,
    verify: (known: AttemptSubject) => Promise<ProviderAnswer>,
  ): Promise<SignedIn | TestedSignIn> {
    const known: AttemptSubject = { email: null, subject: null, test: false };
    try {
      const outcome = await this.signIn(connection, base, secure, known, verify);
      if ('test' in outcome) return await this.tested(connection, outcome);
      await this.record(connection, 'ok', known, 'signed in', [
        connectionEvent('sso.login_succeeded', connection, null, { userId: outcome.user.id, email: known.email }),
      ]);
      return { location: outcome.location, cookie: outcome.cookie };
    } catch (error) {
      const refused = error instanceof SignInRefused ? error : null;
      if (!refused) throw error;
      const detail = known.test ? `test sign-in: ${refused.reason}` : refused.reason;
      await this.record(connection, refused.code, known, detail, [
        connectionEvent('sso.login_failed', connection, null, {
          reason: refused.code,
          detail: refused.reason,
          ...(known.email !== null && { email: known.email }),
          ...(known.test && { test: true }),
        }),
      ]);
      throw ssoRefusal(refused.status, refused.code, refused.reason);
    }
  }

  /** A pending request stored for every instance, and the provider's authorisation address for it. */
  private async toProvider(
    connection: SsoConnectionEntity,
    purpose: SsoRequestPurpose,
    returnTo: string,
    base: string,
    loginHint?: string,
  ): Promise<string> {
    const secrets =
      connection.type === 'saml'
        ? { state: this.saml.newRequestId(), nonce: '', codeVerifier: '' }
        : this.oidc.newRequestSecrets();
    const now = this.clock.now();
    const request: SsoRequestEntity = {
      ...secrets,
      connectionId: connection.id,
      returnTo,
      purpose,
      expiresAt: new Date(now.getTime() + REQUEST_TTL_MS),
      createdAt: now,
      usedAt: null,
    };
    await this.signIns.insertRequest(request);
    // SAML: the AuthnRequest's ID is the request's key, which the response's InResponseTo names. A
    // provider that takes it over HTTP-POST only gets it from a page of ours that posts it (samlPost).
    if (connection.type === 'saml') {
      const settings = this.samlSettings(connection, base);
      if (settings.idp.ssoBinding === 'post') return samlPostPageOf(base, connection.id, secrets.state);
      return (await this.saml.authorizeUrl(settings, secrets.state, secrets.state)).href;
    }
    const url = await this.oidc.authorizationUrl(this.clientSettings(connection, base), {
      ...secrets,
      scopes: connection.scopes,
      loginHint,
    });
    return url.href;
  }

  /** A test sign-in passed: recorded, and a draft connection activated (once, whoever tests at once). */
  private async tested(connection: SsoConnectionEntity, outcome: TestedSignIn): Promise<TestedSignIn> {
    const { test } = outcome;
    const would = test.membership === 'member' ? 'signs in as a member' : `would join with role ${test.role}`;
    await this.record(
      connection,
      'ok',
      { ...test, test: true },
      `test sign-in: every check passed; ${test.email} ${would}`,
      [],
    );
    let current: SsoConnectionEntity | null = connection;
    while (current?.status === 'draft') {
      const now = this.clock.now();
      const activated = connectionEvent('sso.connection_activated', current, null, { by: 'test sign-in' });
      if (await this.connections.update(current, { status: 'active', activatedAt: now, updatedAt: now }, [activated]))
        return { test: { ...test, activated: true } };
      current = await this.connections.findById(connection.id);
    }
    return outcome;
  }

  /** The checks in order; `known` is filled in as the person becomes known, for the attempt. */
  private async signIn(
    connection: SsoConnectionEntity,
    base: string,
    secure: boolean,
    known: AttemptSubject,
    verify: (known: AttemptSubject) => Promise<ProviderAnswer>,
  ): Promise<(SignedIn & { user: IdentityUser }) | TestedSignIn> {
    if (!(await this.signIns.tenantActive(connection.tenantId)))
      throw new SignInRefused(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'the organisation is not active');
    const { request, person } = await verify(known);
    const { email, subject, groups } = person;
    // The provider is trusted for its organisation's proven domains only.
    const domain = emailDomain(email);
    const holder = domain ? await this.signIns.holderOf(domain, this.clock.now()) : null;
    if (!holder || holder.tenantId !== connection.tenantId)
      throw new SignInRefused(
        HttpStatus.FORBIDDEN,
        SSO_ERRORS.domainMismatch,
        `${domain ?? email} is not a verified domain of this organisation`,
      );
    const { user, link } = await this.person(connection, subject, email);
    const joining = await this.joiningRoles(connection, groups);
    if (request.purpose === 'test') {
      const membership = await this.admission(connection, user, email);
      const roles = membership === 'member' ? { role: user!.role!, roles: [] } : joining;
      return { test: { result: 'ok', email, subject, membership, ...roles, activated: false } };
    }
    const member = await this.membership(connection, user, email, joining);
    // A returning person whose provider now gives another address: their account's address follows, as SCIM's change does.
    const moves = link !== null && !sameEmail(member.email, email);
    if (moves && (await this.identity.findByEmail(email)).some((other) => other.id !== member.id)) throw emailInUse();
    if (moves && this.config.identityStore === 'cognito') await this.identity.changeEmail(member.id, email);
    const now = this.clock.now();
    const identity: SsoIdentityEntity = {
      connectionId: connection.id,
      subject,
      userId: member.id,
      email,
      createdAt: link?.createdAt ?? now,
      lastLoginAt: now,
    };
    try {
      await this.signIns.signedIn(identity, link !== null, moves && this.config.identityStore !== 'cognito');
    } catch (error) {
      // The address's unique index: an account made for it meanwhile.
      if (isUniqueViolation(error)) throw emailInUse();
      throw error;
    }
    const token = this.tokens.issue(moves ? { ...member, email } : member, SSO_SESSION_TTL_SECONDS, {
      emailVerified: true,
      ssoConnection: connection.id,
    });
    const cookie =
      `${this.config.sessionCookieName}=${token}; Path=/; Max-Age=${SSO_SESSION_TTL_SECONDS}; HttpOnly; SameSite=Lax` +
      (secure ? '; Secure' : '');
    return { location: absolute(request.returnTo, base), cookie, user: member };
  }

  /** OIDC: the state used once, the code exchanged, the ID token's checks (openid-client). */
  private async oidcAnswer(
    connection: SsoConnectionEntity,
    query: Record<string, unknown>,
    base: string,
    known: AttemptSubject,
  ): Promise<ProviderAnswer> {
    // The pending request: known, of this connection, unused, unexpired; used now, once.
    const state = single(query.state);
    if (!state) throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.stateInvalid, 'state missing');
    const used = await this.signIns.useRequest(state, connection.id, this.clock.now());
    if ('unusable' in used)
      throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.stateInvalid, `state ${used.unusable}`);
    const { request } = used;
    known.test = request.purpose === 'test';
    const idpError = single(query.error);
    if (idpError) {
      const description = single(query.error_description);
      throw new SignInRefused(
        HttpStatus.BAD_REQUEST,
        SSO_ERRORS.idpError,
        `the provider answered ${idpError}${description ? ` (${description.slice(0, 200)})` : ''}`,
      );
    }
    if (!single(query.code)) throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.tokenInvalid, 'code missing');
    // The code exchange and the ID token's checks.
    const settings = this.clientSettings(connection, base);
    const callbackUrl = new URL(settings.redirectUri);
    for (const name of ['code', 'state', 'iss']) {
      const value = single(query[name]);
      if (value !== undefined) callbackUrl.searchParams.set(name, value);
    }
    let verified;
    try {
      verified = await this.oidc.exchange(settings, callbackUrl, request);
    } catch (error) {
      if (error instanceof OidcCheckFailed)
        throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.tokenInvalid, error.message.slice(0, 900));
      throw error;
    }
    known.subject = verified.subject;
    known.email = verified.email;
    if (!verified.email || !EMAIL.test(verified.email))
      throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.tokenInvalid, 'the ID token has no email claim');
    if (verified.emailVerified === false)
      throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.tokenInvalid, 'email_verified is false');
    return {
      request,
      person: { subject: verified.subject, email: verified.email.toLowerCase(), groups: verified.groups },
    };
  }

  /**
   * SAML: the response's checks (SamlClient), the assertion remembered on every instance (a replay,
   * or the second of two copies at once: 409 SSO_REPLAYED), then the request it answers used once; an
   * unsolicited response, where the connection allows one, returns to its RelayState by the returnTo rule.
   */
  private async samlAnswer(
    connection: SsoConnectionEntity,
    body: Record<string, unknown>,
    base: string,
    known: AttemptSubject,
  ): Promise<ProviderAnswer> {
    const samlResponse = single(body.SAMLResponse);
    if (!samlResponse)
      throw new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.assertionInvalid, 'SAMLResponse missing');
    let assertion;
    try {
      assertion = await this.saml.validate(this.samlSettings(connection, base), samlResponse, async (requestId) => {
        const request = await this.signIns.findRequest(requestId);
        if (request?.connectionId !== connection.id) return null;
        known.test = request.purpose === 'test';
        return request.createdAt;
      });
    } catch (error) {
      if (error instanceof SamlCheckFailed)
        throw new SignInRefused(
          HttpStatus.BAD_REQUEST,
          error.idpError ? SSO_ERRORS.idpError : SSO_ERRORS.assertionInvalid,
          error.message.slice(0, 900),
        );
      throw error;
    }
    known.subject = assertion.subject;
    known.email = assertion.email;
    const expiresAt = new Date(assertion.notOnOrAfter.getTime() + this.config.sso.clockSkewSeconds * 1000);
    if (
      !(await this.signIns.rememberAssertion(
        { connectionId: connection.id, assertionId: assertion.id, expiresAt },
        this.clock.now(),
      ))
    )
      throw new SignInRefused(
        HttpStatus.CONFLICT,
        SSO_ERRORS.replayed,
        `assertion ${assertion.id.slice(0, 100)} was used already`,
      );
    let request: ProviderAnswer['request'];
    if (assertion.inResponseTo !== null) {
      const used = await this.signIns.useRequest(assertion.inResponseTo, connection.id, this.clock.now());
      if ('unusable' in used)
        throw new SignInRefused(
          HttpStatus.BAD_REQUEST,
          SSO_ERRORS.assertionInvalid,
          `InResponseTo ${assertion.inResponseTo.slice(0, 100)} ${used.unusable}`,
        );
      request = used.request;
    } else {
      const returnTo = acceptedReturnTo(single(body.RelayState), this.returnOrigins(base));
      if (returnTo === null) throw returnRefused();
      request = { purpose: 'sign_in', returnTo };
    }
    if (!assertion.email || !EMAIL.test(assertion.email))
      throw new SignInRefused(
        HttpStatus.BAD_REQUEST,
        SSO_ERRORS.assertionInvalid,
        'the assertion has no e-mail: a NameID in e-mail format or an email attribute',
      );
    return {
      request,
      person: { subject: assertion.subject, email: assertion.email.toLowerCase(), groups: assertion.groups },
    };
  }

  /**
   * The person: by (connection, subject) from their first sign-in on; at the first, the account that
   * holds the address, if one does; else null (made when they join).
   */
  private async person(
    connection: SsoConnectionEntity,
    subject: string,
    email: string,
  ): Promise<{ user: IdentityUser | null; link: SsoIdentityEntity | null }> {
    const link = await this.signIns.findIdentity(connection.id, subject);
    if (link) {
      const linked = await this.identity.findById(link.userId);
      if (linked) return { user: linked, link };
    }
    const [byAddress] = await this.identity.findByEmail(email);
    return { user: byAddress ?? null, link };
  }

  /**
   * Who the person is to the organisation: a member of it signs in; a member of another is refused; a
   * person this organisation removed is refused as a domain join refuses them; anyone else joins when
   * the connection has jit, else is refused.
   */
  private async admission(
    connection: SsoConnectionEntity,
    user: IdentityUser | null,
    email: string,
  ): Promise<'member' | 'joins'> {
    const { tenantId } = connection;
    if (user?.tenantId === tenantId) return 'member';
    if (user?.tenantId) throw memberOfAnother();
    if (user && (await this.removals.removedFrom(user.id, email, [tenantId])).has(tenantId))
      throw new SignInRefused(
        HttpStatus.FORBIDDEN,
        SSO_ERRORS.removed,
        'the organisation removed this person; only a new invitation brings them back',
      );
    if (connection.jit !== 1)
      throw new SignInRefused(
        HttpStatus.FORBIDDEN,
        SSO_ERRORS.notProvisioned,
        'the person is not a member, and the connection does not add people at sign-in (jit false)',
      );
    return 'joins';
  }

  /**
   * The roles a person joins with: those that the organisation's SCIM role mappings give the
   * provider's `groups` (the highest base role, else member, and the custom roles they map), as SCIM
   * gives them; for a person in no mapped group, the connection's default role.
   */
  private async joiningRoles(
    connection: SsoConnectionEntity,
    groups: string[],
  ): Promise<{ role: string; roles: string[] }> {
    const byDefault = { role: connection.defaultRole, roles: [] };
    if (!groups.length) return byDefault;
    const mapping = await this.mappings.mapping(connection.tenantId);
    const keys = groups.map((group) => group.trim().toLowerCase()).filter((key) => mapping.has(key));
    if (!keys.length) return byDefault;
    return { role: roleFor(keys, mapping), roles: customRolesFor([], keys, mapping) };
  }

  /** The membership, through the joins' one path: the member as they are, or joined with `joining`'s roles. */
  private async membership(
    connection: SsoConnectionEntity,
    user: IdentityUser | null,
    email: string,
    joining: { role: string; roles: string[] },
  ): Promise<IdentityUser> {
    const { tenantId } = connection;
    if ((await this.admission(connection, user, email)) === 'member') return user!;
    const member = { id: user?.id ?? this.ids.uuid(), email: user?.email ?? email };
    // On a user pool the account comes first; a pool that names its users gives it its own id.
    if (!user && this.config.identityStore === 'cognito')
      member.id = await this.identity.createAccount(member.id, member.email);
    const { role, roles } = joining;
    const joined = await this.joining.joinWithoutInvitation(
      member,
      tenantId,
      role,
      () => ({
        required: [],
        events: [auditEvents.memberJoined(member, tenantId, role, 'sso', { connection: connection.id })],
      }),
      { customRoles: roles },
    );
    if (!joined.joined) {
      if (joined.emailInUse) throw emailInUse();
      if (joined.memberOf && joined.memberOf !== tenantId) throw memberOfAnother();
    }
    const stored = await this.identity.findById(member.id);
    if (!stored || stored.tenantId !== tenantId) {
      this.logger.warn(`The join of ${member.id} by single sign-on is not in the identity store yet`);
      throw new SignInRefused(HttpStatus.CONFLICT, SSO_ERRORS.notProvisioned, 'the membership is not in place yet');
    }
    return stored;
  }

  /** The primary connection of the active organisation that holds the e-mail's domain. */
  private async byEmail(email: string): Promise<{ connection: SsoConnectionEntity; tenantName: string | null } | null> {
    const holder = await this.signIns.holderOf(emailDomain(email) ?? '', this.clock.now());
    // The same two reads whether or not a domain signs in by SSO, so that the answer's time does not tell.
    const connection = await this.connections.primaryOf(holder?.tenantId ?? '');
    return holder && connection ? { connection, tenantName: holder.tenantName } : null;
  }

  private samlSettings(connection: SsoConnectionEntity, base: string): SamlSettings {
    const { entityId, acsUrl } = samlEndpointsOf(base, connection.id);
    return {
      idp: JSON.parse(connection.discovery) as IdpMetadata,
      spEntityId: entityId,
      acsUrl,
      wantAssertionsSigned: connection.wantAssertionsSigned === 1,
      allowIdpInitiated: connection.allowIdpInitiated === 1,
      clockSkewMs: this.config.sso.clockSkewSeconds * 1000,
      requestTtlMs: REQUEST_TTL_MS,
    };
  }

  /** Where a sign-in may return: this service, and SSO_RETURN_ORIGINS. */
  private returnOrigins(base: string): string[] {
    return [new URL(base).origin, ...this.config.sso.returnOrigins];
  }

  private clientSettings(connection: SsoConnectionEntity, base: string): OidcClientSettings {
    return {
      discovery: JSON.parse(connection.discovery) as Discovery,
      clientId: connection.clientId,
      clientSecret: openSecret(this.config.sso.secretsKey!, connection.id, connection.clientSecret),
      redirectUri: redirectUriOf(base, connection.id),
    };
  }

  private async record(
    connection: SsoConnectionEntity,
    result: string,
    known: AttemptSubject,
    detail: string,
    events: NewAuditEvent[],
  ): Promise<void> {
    await this.signIns.recordAttempt(
      {
        id: this.ids.uuid(),
        connectionId: connection.id,
        tenantId: connection.tenantId,
        at: this.clock.now(),
        result,
        email: known.email?.slice(0, 320) ?? null,
        subject: known.subject?.slice(0, 255) ?? null,
        detail: detail.slice(0, 1000),
      },
      events,
    );
  }
}

const emailInUse = () =>
  new SignInRefused(HttpStatus.CONFLICT, SSO_ERRORS.emailInUse, 'another account holds this address');

const RETURN_REFUSED = 'returnTo must be a path on this service or an address on an origin of SSO_RETURN_ORIGINS';
const returnRefused = () => new SignInRefused(HttpStatus.BAD_REQUEST, SSO_ERRORS.returnRefused, RETURN_REFUSED);

const memberOfAnother = () =>
  new SignInRefused(
    HttpStatus.CONFLICT,
    SSO_ERRORS.memberOfAnotherOrganisation,
    'the person is a member of another organisation',
  );

/** A query parameter given once, as a string. */
function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function emailOf(body: unknown): string {
  const email = (body as { email?: unknown } | null)?.email;
  if (typeof email !== 'string' || !EMAIL.test(email.trim()))
    throw ssoRefusal(HttpStatus.BAD_REQUEST, SSO_ERRORS.emailInvalid, 'email must be an e-mail address');
  return email.trim().toLowerCase();
}

/** returnTo as stored: a path of this service, made absolute on its base. */
const absolute = (returnTo: string, base: string) => (returnTo.startsWith('/') ? `${base}${returnTo}` : returnTo);
