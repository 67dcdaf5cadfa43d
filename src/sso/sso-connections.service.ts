import { SessionsService } from '../sessions/sessions.service';
import { HttpStatus, Injectable } from '@nestjs/common';
import { auditActor, NewAuditEvent } from '../audit/audit-event';
import { OrgCaller } from '../auth/caller';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { AppConfig } from '../config/app-config';
import { SsoConnectionEntity } from '../database/entities';
import { defaultAuthMethod, OidcCheckFailed, OidcClient } from './oidc/oidc-client';
import { SamlClient } from './saml/saml-client';
import { IdpMetadata } from './saml/saml-metadata';
import { SamlRefused } from './saml/saml-xml';
import { CreateConnectionBody, SetEnforcementBody, validateConnectionPatch } from './dto/sso-bodies';
import {
  metadataSourceOf,
  oidcChangesOf,
  NewOidcConnection,
  NewSamlConnection,
  newConnectionOf,
  SamlMetadataSource,
} from './sso-connection-body';
import { ConnectionChanges, SsoConnectionsStore } from './sso-connections.store';
import { connectionEvent } from './sso-events';
import { sealSecret } from './sso-secrets';
import { SsoStartService } from './sso-start.service';
import { attemptAnswer, AttemptAnswer, connectionAnswer, ConnectionAnswer, SsoEnforcementAnswer } from './sso-views';
import { SSO_ERRORS, ssoRefusal } from './sso.messages';

/**
 * An organisation's single sign-on connections (docs/sso.md), for its owners (the guard's
 * `sso:manage`): the rules in order, body, limit, then the provider's discovery document; a connection starts draft and becomes
 * active by an owner's PATCH or a successful test sign-in.
 */
@Injectable()
export class SsoConnectionsService {
  constructor(
    private readonly store: SsoConnectionsStore,
    private readonly oidc: OidcClient,
    private readonly saml: SamlClient,
    private readonly starts: SsoStartService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly sessions: SessionsService,
  ) {}

  /** POST /api/org/sso/connections. */
  async create(
    caller: OrgCaller,
    body: CreateConnectionBody,
    base: string,
  ): Promise<{ success: true; connection: ConnectionAnswer }> {
    const input = newConnectionOf(body);
    const { connectionsPerOrg } = this.config.sso;
    const limitReached = () =>
      ssoRefusal(
        HttpStatus.UNPROCESSABLE_ENTITY,
        SSO_ERRORS.limit,
        `an organisation has at most ${connectionsPerOrg} connections (SSO_CONNECTIONS_PER_ORG)`,
      );
    if ((await this.store.countOwn(caller.tenantId)) >= connectionsPerOrg) throw limitReached();
    const connection = input.type === 'oidc' ? await this.newOidc(caller, input) : await this.newSaml(caller, input);
    const event = connectionEvent('sso.connection_created', connection, auditActor(caller), { name: connection.name });
    if (!(await this.store.insert(connection, [event], connectionsPerOrg))) throw limitReached();
    return { success: true, connection: await this.answer(connection, base) };
  }

  /** An OIDC connection: the provider's discovery document read, the client secret sealed. */
  private async newOidc(caller: OrgCaller, input: NewOidcConnection): Promise<SsoConnectionEntity> {
    const discovery = await this.discover(input.issuer);
    const id = this.ids.uuid();
    return {
      ...this.newConnection(caller, id, input),
      type: 'oidc',
      name: input.name ?? `OIDC ${new URL(input.issuer).host}`,
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecret: sealSecret(this.secretsKey(), id, input.clientSecret),
      scopes: input.scopes.join(' '),
      tokenEndpointAuthMethod: input.tokenEndpointAuthMethod ?? defaultAuthMethod(discovery),
      discovery: JSON.stringify(discovery),
    };
  }

  /** A SAML connection: the provider's metadata read; no client, no secret. */
  private async newSaml(caller: OrgCaller, input: NewSamlConnection): Promise<SsoConnectionEntity> {
    const metadata = await this.samlMetadata(input.metadata);
    return {
      ...this.newConnection(caller, this.ids.uuid(), input),
      type: 'saml',
      name: input.name ?? `SAML ${hostOf(metadata.entityId)}`,
      ...this.samlColumns(metadata, input.metadata),
      wantAssertionsSigned: input.wantAssertionsSigned ? 1 : 0,
    };
  }

  private newConnection(
    caller: OrgCaller,
    id: string,
    input: NewOidcConnection | NewSamlConnection,
  ): Omit<SsoConnectionEntity, 'type' | 'name' | 'issuer' | 'clientId' | 'clientSecret' | 'scopes' | 'discovery'> {
    const now = this.clock.now();
    return {
      id,
      // SAML's is the column's default, never read.
      tokenEndpointAuthMethod: 'client_secret_basic',
      tenantId: caller.tenantId,
      status: 'draft',
      jit: input.jit ? 1 : 0,
      defaultRole: input.defaultRole,
      allowIdpInitiated: input.allowIdpInitiated ? 1 : 0,
      metadataUrl: null,
      wantAssertionsSigned: 1,
      expiryWarnedFor: null,
      discoveredAt: now,
      activatedAt: null,
      primaryAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /** A SAML connection's columns for its provider's metadata: the entity ID is the issuer its assertions name. */
  private samlColumns(metadata: IdpMetadata, source: SamlMetadataSource) {
    return {
      issuer: metadata.entityId,
      clientId: '',
      clientSecret: '',
      scopes: '',
      discovery: JSON.stringify(metadata),
      discoveredAt: this.clock.now(),
      metadataUrl: 'url' in source ? source.url : null,
    };
  }

  /** GET /api/org/sso/connections. */
  async list(caller: OrgCaller, base: string): Promise<{ connections: ConnectionAnswer[] }> {
    const views = await this.store.views(await this.store.listOwn(caller.tenantId));
    return { connections: views.map((view) => connectionAnswer(view, base)) };
  }

  /** GET /api/org/sso/connections/{id}. */
  async get(caller: OrgCaller, id: string, base: string): Promise<{ connection: ConnectionAnswer }> {
    return { connection: await this.answer(await this.own(caller, id), base) };
  }

  /** PATCH /api/org/sso/connections/{id}: `status` active or inactive, and the settings. */
  async update(
    caller: OrgCaller,
    id: string,
    body: unknown,
    base: string,
  ): Promise<{ success: true; connection: ConnectionAnswer }> {
    const connection = await this.own(caller, id);
    const patch = validateConnectionPatch(body);
    if (Object.values(patch).every((value) => value === undefined))
      throw ssoRefusal(
        HttpStatus.BAD_REQUEST,
        SSO_ERRORS.invalid,
        `give at least one of name, jit, defaultRole, allowIdpInitiated, status, primary, ${OIDC_FIELDS.join(', ')}, ` +
          SAML_FIELDS.join(', '),
      );
    const now = this.clock.now();
    const changes: ConnectionChanges = { updatedAt: now };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.jit !== undefined) changes.jit = patch.jit ? 1 : 0;
    if (patch.defaultRole !== undefined) changes.defaultRole = patch.defaultRole;
    if (patch.allowIdpInitiated !== undefined) changes.allowIdpInitiated = patch.allowIdpInitiated ? 1 : 0;
    const [others, protocol] = connection.type === 'saml' ? [OIDC_FIELDS, 'OIDC'] : [SAML_FIELDS, 'SAML'];
    if (others.some((key) => patch[key] !== undefined))
      throw ssoRefusal(
        HttpStatus.BAD_REQUEST,
        SSO_ERRORS.invalid,
        `${others.slice(0, -1).join(', ')} and ${others[others.length - 1]} belong to ${protocol} connections`,
      );
    if (connection.type === 'oidc') {
      // Another issuer is read as at creation, refused the same way.
      const discovery =
        patch.issuer !== undefined && patch.issuer !== connection.issuer
          ? await this.discover(patch.issuer)
          : undefined;
      Object.assign(changes, oidcChangesOf(connection, patch, { discovery, key: this.secretsKey(), now }));
    }
    const metadata = metadataSourceOf(patch);
    if (metadata !== undefined) {
      const { discoveredAt, ...columns } = this.samlColumns(await this.samlMetadata(metadata), metadata);
      Object.assign(changes, {
        discovery: columns.discovery,
        issuer: columns.issuer,
        metadataUrl: columns.metadataUrl,
        discoveredAt,
      });
    }
    if (patch.wantAssertionsSigned !== undefined) changes.wantAssertionsSigned = patch.wantAssertionsSigned ? 1 : 0;
    const activates = patch.status === 'active' && connection.status !== 'active';
    if (patch.status !== undefined && patch.status !== connection.status) changes.status = patch.status;
    if (activates) changes.activatedAt = now;
    if (patch.primary) {
      if ((changes.status ?? connection.status) !== 'active')
        throw ssoRefusal(HttpStatus.BAD_REQUEST, SSO_ERRORS.invalid, 'only an active connection can be primary');
      changes.primaryAt = now;
    }
    const actor = auditActor(caller);
    // What changed, never the secret itself: SAML's metadata brings its issuer, OIDC's issuer its discovery.
    const derived = [
      'updatedAt',
      'activatedAt',
      'discoveredAt',
      'metadataUrl',
      connection.type === 'saml' ? 'issuer' : 'discovery',
    ];
    const changed = Object.keys(changes)
      .filter((key) => !derived.includes(key))
      .map((key) => (key === 'primaryAt' ? 'primary' : key === 'discovery' ? 'metadata' : key));
    const events = [
      ...(activates ? [connectionEvent('sso.connection_activated', connection, actor)] : []),
      ...(changed.some((key) => key !== 'status' || !activates)
        ? [connectionEvent('sso.connection_updated', connection, actor, { changed })]
        : []),
    ];
    if (!(await this.store.update(connection, changes, events))) return this.update(caller, id, body, base);
    // A connection taken out of use ends the sessions it made.
    if (changes.status === 'inactive' && connection.status !== 'inactive')
      await this.sessions.endSessionsOf({ connectionId: connection.id }, 'connection_removed', actor);
    return { success: true, connection: await this.answer(await this.own(caller, id), base) };
  }

  /** DELETE /api/org/sso/connections/{id}: 204. */
  async remove(caller: OrgCaller, id: string): Promise<void> {
    const connection = await this.own(caller, id);
    await this.store.remove(connection, [connectionEvent('sso.connection_deleted', connection, auditActor(caller))]);
    await this.sessions.endSessionsOf({ connectionId: connection.id }, 'connection_removed', auditActor(caller));
  }

  /**
   * POST /api/org/sso/connections/{id}/refresh: the discovery document, or the SAML metadata at its
   * address, read again (a provider's new signing certificate is taken so, ahead of its roll-over).
   */
  async refresh(caller: OrgCaller, id: string, base: string): Promise<{ success: true; connection: ConnectionAnswer }> {
    const connection = await this.own(caller, id);
    const now = this.clock.now();
    let changes: ConnectionChanges;
    if (connection.type === 'oidc')
      changes = { discovery: JSON.stringify(await this.discover(connection.issuer)), discoveredAt: now };
    else if (connection.metadataUrl === null)
      throw ssoRefusal(
        HttpStatus.UNPROCESSABLE_ENTITY,
        SSO_ERRORS.metadataInvalid,
        'the metadata was pasted, not read from an address: PATCH the new metadataXml',
      );
    else {
      const source = { url: connection.metadataUrl };
      const { discovery, issuer, discoveredAt } = this.samlColumns(await this.samlMetadata(source), source);
      changes = { discovery, issuer, discoveredAt };
    }
    const changed = [connection.type === 'oidc' ? 'discovery' : 'metadata'];
    const event = connectionEvent('sso.connection_updated', connection, auditActor(caller), { changed });
    if (!(await this.store.update(connection, { ...changes, updatedAt: now }, [event])))
      return this.refresh(caller, id, base);
    return { success: true, connection: await this.answer(await this.own(caller, id), base) };
  }

  /**
   * POST /api/org/sso/connections/{id}/test: where an owner's browser starts a test sign-in, whatever
   * the connection's status; its callback runs every check, then neither joins nor signs in.
   */
  async test(caller: OrgCaller, id: string, base: string): Promise<{ startUrl: string }> {
    return { startUrl: await this.starts.startTest(await this.own(caller, id), base) };
  }

  /**
   * GET /api/org/sso: whether single sign-on is required, the connections, who keeps access without
   * it, and the address that redirect URIs and ACS URLs are made from (`origin`: the request's).
   */
  async enforcement(caller: OrgCaller, origin: string): Promise<SsoEnforcementAnswer> {
    const [enforced, connections] = await Promise.all([
      this.store.isEnforced(caller.tenantId),
      this.store.listOwn(caller.tenantId),
    ]);
    return {
      enforced,
      connections: connections.length,
      activeConnections: connections.filter((connection) => connection.status === 'active').length,
      breakGlass: ['owner'],
      serviceAddress: this.config.publicBaseUrl
        ? { baseUrl: this.config.publicBaseUrl, from: 'PUBLIC_BASE_URL' }
        : { baseUrl: origin, from: 'request' },
    };
  }

  /**
   * PATCH /api/org/sso `{"enforced": true|false}` (owners): from then on every org route refuses a
   * member's session that single sign-on did not make (owners keep access); 409
   * SSO_NO_ACTIVE_CONNECTION without an active connection. Event sso.enforced.
   */
  async setEnforcement(
    caller: OrgCaller,
    { enforced }: SetEnforcementBody,
    origin: string,
  ): Promise<SsoEnforcementAnswer & { success: true }> {
    const actor = auditActor(caller);
    if (enforced !== (await this.store.isEnforced(caller.tenantId))) {
      const event: NewAuditEvent = {
        type: 'sso.enforced',
        tenantId: caller.tenantId,
        actor,
        target: { type: 'tenant', id: caller.tenantId },
        data: { enforced },
      };
      if (!enforced) await this.store.unenforce(caller.tenantId, [event]);
      else if (
        !(await this.store.enforce({ tenantId: caller.tenantId, enforcedAt: this.clock.now(), enforcedBy: caller.id }, [
          event,
        ]))
      )
        throw ssoRefusal(
          HttpStatus.CONFLICT,
          SSO_ERRORS.noActiveConnection,
          'the organisation has no active connection: its members could not sign in',
        );
    }
    return { success: true, ...(await this.enforcement(caller, origin)) };
  }

  /** GET /api/org/sso/connections/{id}/attempts. */
  async attempts(caller: OrgCaller, id: string): Promise<{ attempts: AttemptAnswer[] }> {
    const connection = await this.own(caller, id);
    return { attempts: (await this.store.attempts(connection.id)).map(attemptAnswer) };
  }

  private async discover(issuer: string) {
    try {
      return await this.oidc.discover(issuer);
    } catch (error) {
      if (error instanceof OidcCheckFailed)
        throw ssoRefusal(HttpStatus.UNPROCESSABLE_ENTITY, SSO_ERRORS.discoveryFailed, error.message);
      throw error;
    }
  }

  private async samlMetadata(source: SamlMetadataSource): Promise<IdpMetadata> {
    try {
      return await this.saml.metadata(source);
    } catch (error) {
      if (error instanceof SamlRefused)
        throw ssoRefusal(HttpStatus.UNPROCESSABLE_ENTITY, SSO_ERRORS.metadataInvalid, error.message);
      throw error;
    }
  }

  private async own(caller: OrgCaller, id: string): Promise<SsoConnectionEntity> {
    const connection = await this.store.findOwn(caller.tenantId, id);
    if (!connection)
      throw ssoRefusal(HttpStatus.NOT_FOUND, SSO_ERRORS.notFound, 'no such connection in this organisation');
    return connection;
  }

  private async answer(connection: SsoConnectionEntity, base: string): Promise<ConnectionAnswer> {
    const [view] = await this.store.views([connection]);
    return connectionAnswer(view, base);
  }

  /** SsoConfiguredGuard refused every route before this when there is no key. */
  private secretsKey(): Buffer {
    return this.config.sso.secretsKey!;
  }
}

/** What PATCH changes of one protocol's connections only. */
const OIDC_FIELDS = ['issuer', 'clientId', 'clientSecret', 'scopes', 'tokenEndpointAuthMethod'] as const;
const SAML_FIELDS = ['metadataXml', 'metadataUrl', 'wantAssertionsSigned'] as const;

/** An entity ID's host when it is a URL (most are), else the ID itself. */
const hostOf = (entityId: string) =>
  (URL.canParse(entityId) ? new URL(entityId).host || entityId : entityId).slice(0, 150);
