import { HttpStatus, Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { SsoConnectionEntity, SsoRequestEntity } from '../database/entities';
import { SsoConnectionType, SsoRequestPurpose } from '../database/entities/sso.entity';
import { emailDomain } from '../domains/domain-name';
import { DEFAULT_TENANT_NAME } from '../invitations/invitation';
import { OidcSignIn } from './oidc/oidc-sign-in';
import { SamlPostForm } from './saml/saml-post-page';
import { SamlSignIn } from './saml/saml-sign-in';
import { SsoConnectionsStore } from './sso-connections.store';
import { validateDiscoverBody } from './dto/sso-bodies';
import { REQUEST_TTL_MS, RETURN_REFUSED, returnToOf, StartRefused } from './sso-protocol';
import { SsoAttempts } from './sso-attempts';
import { SignedInView } from './sso-signed-in-page';
import { SsoSignInsStore } from './sso-sign-ins.store';
import { PUBLIC_BASE_URL_REQUIRED, SSO_ERRORS, ssoRefusal } from './sso.messages';

export type DiscoverAnswer =
  | { sso: false }
  | {
      sso: true;
      organisation: { id: string; name: string };
      connection: { id: string; type: SsoConnectionType };
      startUrl: string;
    };

/**
 * The way to the provider (docs/sso.md, "Signing in", steps 1 and 2): discovery by e-mail domain,
 * the start (a pending request stored in the database, used once, and the provider's address), and
 * what a SAML provider reads of this service (the page that posts an AuthnRequest, the SP metadata).
 */
@Injectable()
export class SsoStartService {
  constructor(
    private readonly connections: SsoConnectionsStore,
    private readonly signIns: SsoSignInsStore,
    private readonly oidc: OidcSignIn,
    private readonly saml: SamlSignIn,
    private readonly attempts: SsoAttempts,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** POST /api/sso/discover, for the address of a valid body. */
  async discover(email: string, base: string): Promise<DiscoverAnswer> {
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
    this.requireOwnAddress();
    const returnTo = returnToOf(query.returnTo, this.config, base);
    if (returnTo === null) throw ssoRefusal(HttpStatus.BAD_REQUEST, SSO_ERRORS.returnRefused, RETURN_REFUSED);
    let connection: SsoConnectionEntity | null = null;
    let loginHint: string | undefined;
    if (typeof query.connection === 'string' && query.connection !== '') {
      connection = await this.connections.findById(query.connection);
      if (connection && (connection.status !== 'active' || !(await this.signIns.tenantActive(connection.tenantId))))
        connection = null;
    } else if (typeof query.email === 'string' && query.email !== '') {
      loginHint = validateDiscoverBody({ email: query.email }).email;
      connection = (await this.byEmail(loginHint))?.connection ?? null;
    }
    if (!connection)
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no active connection for this e-mail or id');
    return this.toProvider(connection, 'sign_in', returnTo, base, loginHint);
  }

  /** An owner's test sign-in of the connection, whatever its status: the provider's address. */
  startTest(connection: SsoConnectionEntity, base: string): Promise<string> {
    this.requireOwnAddress();
    return this.toProvider(connection, 'test', '/', base);
  }

  /**
   * GET /sso/saml/{id}/requests/{requestId}: the page that posts a pending sign-in's AuthnRequest to a
   * provider that takes HTTP-POST only; 404 once the request is used or expired, or for another connection's.
   */
  async samlPost(id: string, requestId: string, base: string): Promise<SamlPostForm> {
    const connection = await this.connections.findById(id);
    const request = connection?.type === 'saml' ? await this.signIns.findRequest(requestId) : null;
    if (!connection || request?.connectionId !== id || request.usedAt !== null || request.expiresAt <= this.clock.now())
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no pending sign-in with this id');
    return this.saml.postForm(connection, request.state, base);
  }

  /** GET /sso/saml/{id}/metadata: the SP metadata an owner gives the provider, whatever the connection's status. */
  async serviceProviderMetadata(id: string, base: string): Promise<string> {
    const connection = await this.connections.findById(id);
    if (connection?.type !== 'saml')
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no SAML connection with this id');
    return this.saml.serviceProviderMetadata(connection, base);
  }

  /** GET /sso/signed-in: the session's person and their active organisation, or nobody. */
  async signedIn(caller: Caller | undefined): Promise<SignedInView> {
    if (!caller?.email) return null;
    const tenant = caller.tenantId ? await this.signIns.tenantActive(caller.tenantId) : null;
    return { email: caller.email, organisation: tenant && (tenant.name ?? DEFAULT_TENANT_NAME) };
  }

  /** A pending request stored for every instance, and the provider's address for it. */
  private async toProvider(
    connection: SsoConnectionEntity,
    purpose: SsoRequestPurpose,
    returnTo: string,
    base: string,
    loginHint?: string,
  ): Promise<string> {
    const protocol = connection.type === 'saml' ? this.saml : this.oidc;
    const secrets = protocol.newRequestSecrets();
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
    let address: string;
    try {
      address = await protocol.providerAddress(connection, secrets, base, loginHint);
    } catch (error) {
      if (!(error instanceof StartRefused)) throw error;
      return this.attempts.refuse(connection, { ...error.check, email: null, subject: null, test: purpose === 'test' });
    }
    await this.signIns.insertRequest(request);
    return address;
  }

  /**
   * Under NODE_ENV=production a sign-in starts only when PUBLIC_BASE_URL names this service: redirect
   * URIs and ACS URLs made from a request's Host would send the provider's answer where the request said.
   */
  private requireOwnAddress(): void {
    if (this.config.publicBaseUrl === undefined && this.config.nodeEnv === 'production')
      throw ssoRefusal(HttpStatus.SERVICE_UNAVAILABLE, SSO_ERRORS.notConfigured, PUBLIC_BASE_URL_REQUIRED);
  }

  /** The primary connection of the active organisation that holds the e-mail's domain. */
  private async byEmail(email: string): Promise<{ connection: SsoConnectionEntity; tenantName: string | null } | null> {
    const holder = await this.signIns.holderOf(emailDomain(email) ?? '', this.clock.now());
    // The same two reads whether or not a domain signs in by SSO, so that the answer's time does not tell.
    const connection = await this.connections.primaryOf(holder?.tenantId ?? '');
    return holder && connection ? { connection, tenantName: holder.tenantName } : null;
  }
}
