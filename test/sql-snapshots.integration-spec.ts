import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { memoryDataSource } from './support/memory-data-source';
import { RecordingMysql, recordingMysql, sqliteSent } from './support/recorded-sql';
import { TestClock } from './support/test-clock';
import { TenantsStore } from '../src/admin-tenants/tenants.store';
import { auditEvents, roleEvents } from '../src/audit/audit-event';
import { AuditEventsStore } from '../src/audit/audit-events.store';
import { AuditRecorder } from '../src/audit/audit-recorder';
import { AuditRows } from '../src/audit/audit-rows';
import { IdGenerator } from '../src/common/id-generator';
import { parseConfig } from '../src/config/app-config';
import { IdempotencyStore } from '../src/idempotency/idempotency.store';
import { LocalIdentityStore } from '../src/identity/local/local-identity-store';
import { InvitationsStore } from '../src/invitations/invitations.store';
import { AtomicWriter } from '../src/database/atomic-writer';
import { Leases } from '../src/database/leases';
import { sqlStores } from '../src/database/sql-store';
import {
  AuditEventEntity,
  IdempotencyKeyEntity,
  InvitationEmailOutboxEntity,
  InvitationEntity,
  LeaseEntity,
  InvitationRoleEntity,
  MemberRoleEntity,
  MembershipGrantEntity,
  OrgRoleEntity,
  OrgRolePermissionEntity,
  ProductPermissionEntity,
  JoinRequestEntity,
  OrgDomainEntity,
  ScimGroupEntity,
  ScimGroupMemberEntity,
  ScimRoleMappingEntity,
  ScimTokenEntity,
  ScimUserEntity,
  ScimRoleMappingRoleEntity,
  SsoAttemptEntity,
  SsoConnectionEntity,
  SsoIdentityEntity,
  SsoRequestEntity,
  TenantEntity,
  UserEntity,
  WebhookDeliveryEntity,
} from '../src/database/entities';
import { MultiStatementPool } from '../src/database/multi-statement-pool';
import { OutboxRows } from '../src/database/outbox-rows';
import { PreparedStatements } from '../src/database/prepared-statements';
import { MembershipGrantsRepository } from '../src/joining/membership-grants.repository';
import { TestModeStore } from '../src/test-mode/test-mode.store';
import { GrantsStore, RoleDefinition } from '../src/permissions/grants.store';
import { RolesStore } from '../src/roles/roles.store';
import { DomainsStore } from '../src/domains/domains.store';
import { MembershipsRepository } from '../src/joining/memberships.repository';
import { MembershipRemovalsStore } from '../src/memberships/membership-removals.store';
import { TenantStatusReader } from '../src/database/tenant-status-reader';
import { ScimGroupsStore } from '../src/scim/scim-groups.store';
import { hashSecret, ScimTokensStore } from '../src/scim/scim-tokens.store';
import { ScimUsersStore } from '../src/scim/scim-users.store';
import { ScimRoleMappingsStore } from '../src/scim/scim-role-mappings.store';
import { SsoConnectionsStore } from '../src/sso/sso-connections.store';
import { SsoSignInsStore } from '../src/sso/sso-sign-ins.store';
import { SsoSecretsStore } from '../src/sso/sso-secrets.store';
import { SessionsStore } from '../src/auth/sessions.store';
import { SetupLinkEntity, SetupLinkItemEntity } from '../src/database/entities/setup-link.entity';
import { SetupLinksStore } from '../src/setup-links/setup-links.store';

/**
 * The SQL that each verb of each store sends, per dialect, checked against the files in
 * src/database/queries/, so that a change shows the SQL it changes. SQLite: an in-memory database,
 * seeded so that every verb does all its work. MySQL/MariaDB: no server, see recordingMysql.
 * `UPDATE_SQL_SNAPSHOTS=1 npx jest test/sql-snapshots.integration-spec.ts` writes the files anew.
 */
const QUERIES = join(__dirname, '..', 'src', 'database', 'queries');
const UPDATE = process.env.UPDATE_SQL_SNAPSHOTS === '1';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const LATER = new Date('2026-03-01T12:01:00.000Z');
const EARLIER = new Date('2026-02-01T12:00:00.000Z');
const ACTOR = { id: 'owner-1', email: 'owner@acme.example' };

const leasesOn = (statements: PreparedStatements) => new Leases(statements, new TestClock(NOW), new IdGenerator());

/** Every store, on one data source, as the app builds them (with one webhook receiver). */
function storesOn(dataSource: DataSource) {
  const statements = new PreparedStatements(dataSource);
  const pool = new MultiStatementPool(dataSource);
  const writer = new AtomicWriter(dataSource, pool);
  const config = parseConfig({
    WEBHOOK_URLS: 'https://hooks.example.com/audit',
    WEBHOOK_SECRET: `whsec_${'A'.repeat(32)}`,
  });
  const auditRows = new AuditRows(new TestClock(NOW), new IdGenerator(), config);
  const audit = new AuditRecorder(writer, auditRows);
  return {
    invitations: new InvitationsStore(dataSource, statements, writer, auditRows, new IdGenerator()),
    tenants: new TenantsStore(statements, writer, auditRows),
    identity: new LocalIdentityStore(dataSource.getRepository(UserEntity), statements),
    auditEvents: new AuditEventsStore(dataSource),
    audit,
    outbox: new OutboxRows(dataSource, statements, pool, InvitationEmailOutboxEntity, {
      status: 'sent',
      atColumn: 'sent_at',
    }),
    grantRows: new OutboxRows(dataSource, statements, pool, MembershipGrantEntity, 'deleted'),
    grants: new MembershipGrantsRepository(statements),
    idempotency: new IdempotencyStore(dataSource),
    testMode: new TestModeStore(statements),
    writer,
    leases: leasesOn(statements),
    customGrants: new GrantsStore(statements),
    roles: new RolesStore(statements, writer, auditRows),
    scimRoleMappings: new ScimRoleMappingsStore(statements, writer, auditRows),
    scimGroups: new ScimGroupsStore(statements, writer, auditRows),
    scimUsers: new ScimUsersStore(statements, writer, auditRows),
    scimTokens: new ScimTokensStore(statements, writer, auditRows, new TestClock(NOW), new IdGenerator()),
    domains: new DomainsStore(dataSource, statements, writer, auditRows, leasesOn(statements)),
    memberships: new MembershipsRepository(writer, auditRows, statements, audit),
    tenantStatus: new TenantStatusReader(statements),
    removals: new MembershipRemovalsStore(statements, writer),
    ssoConnections: new SsoConnectionsStore(dataSource, statements, writer, auditRows, leasesOn(statements)),
    ssoSignIns: new SsoSignInsStore(dataSource, statements, writer, auditRows),
    ssoSecrets: new SsoSecretsStore(statements),
    sessions: new SessionsStore(statements, writer),
    setupLinks: new SetupLinksStore(statements, writer, auditRows, leasesOn(statements)),
  };
}
type Stores = ReturnType<typeof storesOn>;

const invitation = (id: string): InvitationEntity => ({
  id,
  tenantId: 'tenant-1',
  email: `${id}@example.com`,
  role: 'member',
  status: 'pending',
  expiresAt: new Date(NOW.getTime() + 7 * 24 * 3600 * 1000),
  invitedBy: ACTOR.id,
  createdAt: NOW,
});
const email = {
  to: 'new@example.com',
  tenantName: 'Acme',
  inviterEmail: ACTOR.email,
  role: 'member',
  expiresAt: NOW,
  link: 'https://portal.example.com/invitations/new',
};
const outboxRow = (id: string): InvitationEmailOutboxEntity => ({
  id,
  invitationId: 'to-accept',
  payload: '{}',
  status: 'pending',
  attempts: 0,
  nextAttemptAt: EARLIER,
  claimedBy: null,
  claimedUntil: null,
  lastError: null,
  createdAt: EARLIER,
  sentAt: null,
});
const grantRow = (id: string, userId: string, claimedBy: string): MembershipGrantEntity => ({
  id,
  userId,
  tenantId: 'tenant-1',
  role: 'member',
  status: 'sending',
  attempts: 1,
  nextAttemptAt: NOW,
  claimedBy,
  claimedUntil: LATER,
  lastError: null,
  createdAt: NOW,
});
const idempotencyKey: IdempotencyKeyEntity = {
  callerId: 'owner-1',
  key: 'key-1',
  requestHash: 'a'.repeat(64),
  claimId: 'claim-1',
  claimedUntil: LATER,
  responseStatus: null,
  responseBody: null,
  createdAt: NOW,
};
const claim = { callerId: 'owner-1', key: 'key-1', claimId: 'claim-1' };
/** A custom role as read at `version`. */
const roleAt = (key: string, version: number, permissions: string[]): RoleDefinition => ({
  key,
  name: key,
  description: null,
  permissions,
  version,
  createdAt: NOW,
  updatedAt: NOW,
});

const scimGroup: ScimGroupEntity = {
  id: 'group-1',
  tenantId: 'tenant-1',
  displayName: 'Engineering',
  displayNameKey: 'engineering',
  externalId: null,
  createdAt: NOW,
  lastModified: NOW,
};
const domain: OrgDomainEntity = {
  id: 'domain-1',
  tenantId: 'tenant-1',
  name: 'acme.example',
  status: 'verified',
  joinMode: 'request',
  token: 'token-1',
  tokenIssuedAt: EARLIER,
  lastCheckAt: EARLIER,
  lastCheckResult: 'found',
  verifiedAt: EARLIER,
  graceEndsAt: null,
  nextCheckAt: EARLIER,
  heldName: 'acme.example',
  createdAt: EARLIER,
};
const joinRequest: JoinRequestEntity = {
  id: 'request-1',
  tenantId: 'tenant-1',
  userId: 'user-2',
  email: 'bob@acme.example',
  domain: 'acme.example',
  status: 'pending',
  pendingKey: 'tenant-1:user-2',
  createdAt: EARLIER,
  decidedAt: null,
};
const scimUser: ScimUserEntity = {
  id: 'scim-1',
  tenantId: 'tenant-1',
  userId: 'user-1',
  userName: 'ann@example.com',
  userNameKey: 'ann@example.com',
  externalId: 'okta-1',
  emailKey: 'ann@example.com',
  active: 1,
  role: null,
  attributes: '{}',
  createdAt: NOW,
  lastModified: NOW,
};
const setupLink = (id: string, expiresAt: Date): SetupLinkEntity => ({
  id,
  tenantId: 'tenant-1',
  tokenHash: `hash-of-${id}`,
  intents: 'domain,sso',
  email: null,
  createdBy: ACTOR.id,
  createdAt: EARLIER,
  expiresAt,
  lastOpenedAt: null,
  completedAt: null,
  revokedAt: null,
  expiryRecordedAt: null,
});
const setupItem: SetupLinkItemEntity = {
  kind: 'domain',
  itemId: 'domain-1',
  linkId: 'link-1',
  tenantId: 'tenant-1',
  createdAt: NOW,
};

const ssoConnection: SsoConnectionEntity = {
  id: 'connection-1',
  tenantId: 'tenant-1',
  type: 'oidc',
  name: 'Okta',
  status: 'active',
  jit: 1,
  defaultRole: 'member',
  allowIdpInitiated: 0,
  issuer: 'https://idp.acme.example',
  clientId: 'client-1',
  clientSecret: 'sealed',
  scopes: 'openid email profile',
  tokenEndpointAuthMethod: 'client_secret_basic',
  discovery: '{}',
  metadataUrl: null,
  wantAssertionsSigned: 1,
  expiryWarnedFor: null,
  discoveredAt: EARLIER,
  activatedAt: EARLIER,
  primaryAt: null,
  createdAt: EARLIER,
  updatedAt: EARLIER,
};
const ssoRequest: SsoRequestEntity = {
  state: 'state-1',
  connectionId: 'connection-1',
  nonce: 'nonce-1',
  codeVerifier: 'verifier-1',
  returnTo: '/',
  purpose: 'sign_in',
  expiresAt: LATER,
  createdAt: NOW,
  usedAt: null,
};
const ssoIdentity: SsoIdentityEntity = {
  connectionId: 'connection-1',
  subject: 'subject-1',
  userId: 'user-1',
  email: 'ann@example.com',
  createdAt: EARLIER,
  lastLoginAt: NOW,
};
const ssoAttempt: SsoAttemptEntity = {
  id: 'attempt-1',
  connectionId: 'connection-1',
  tenantId: 'tenant-1',
  at: NOW,
  result: 'ok',
  email: 'ann@example.com',
  subject: 'subject-1',
  detail: 'signed in',
};
const groupEvent = roleEvents.roleDeleted('tenant-1', roleAt('auditor', 1, []), 0, null, ACTOR);

/** The rows that the verbs below read and change (on SQLite; MySQL's reads get what SQLite's got). */
async function seed(dataSource: DataSource): Promise<void> {
  await dataSource
    .getRepository(TenantEntity)
    .insert({ id: 'tenant-1', name: 'Acme', type: 'business', status: 'pending_owner', createdAt: NOW });
  await dataSource
    .getRepository(InvitationEntity)
    .insert(['to-replace', 'to-accept', 'to-revoke', 'to-expire'].map(invitation));
  await dataSource.getRepository(UserEntity).insert([
    {
      id: 'user-1',
      email: 'ann@example.com',
      emailKey: 'ann@example.com',
      tenantId: 'tenant-1',
      role: 'member',
      createdAt: NOW,
    },
    {
      id: 'admin-1',
      email: 'root@example.com',
      emailKey: 'root@example.com',
      platformRole: 'super_admin',
      createdAt: NOW,
    },
  ]);
  await dataSource.getRepository(InvitationEmailOutboxEntity).insert([outboxRow('outbox-1'), outboxRow('outbox-2')]);
  await dataSource
    .getRepository(MembershipGrantEntity)
    .insert([grantRow('grant-1', 'user-1', 'worker-1'), grantRow('grant-2', 'user-2', 'worker-2')]);
  const old = {
    tenantId: 'tenant-1',
    actorId: null,
    actorEmail: null,
    targetType: 'tenant',
    targetId: 'tenant-1',
    targetEmail: null,
    data: '{}',
  };
  await dataSource
    .getRepository(AuditEventEntity)
    .insert({ ...old, id: 'event-1', type: 'tenant.created', occurredAt: EARLIER });
  const role = { tenantId: 'tenant-1', description: null, version: 0, createdAt: NOW, updatedAt: NOW };
  await dataSource.getRepository(OrgRoleEntity).insert([
    { ...role, key: 'recruiter', name: 'Recruiter' },
    { ...role, key: 'analyst', name: 'Analyst' },
  ]);
  await dataSource.getRepository(OrgRolePermissionEntity).insert([
    { tenantId: 'tenant-1', roleKey: 'recruiter', permission: 'invitations:create' },
    { tenantId: 'tenant-1', roleKey: 'analyst', permission: 'reports:export' },
  ]);
  await dataSource
    .getRepository(MemberRoleEntity)
    .insert(
      ['user-1', 'user-3'].map((userId) => ({ tenantId: 'tenant-1', userId, roleKey: 'recruiter', grantedAt: NOW })),
    );
  await dataSource
    .getRepository(InvitationRoleEntity)
    .insert({ invitationId: 'to-accept', roleKey: 'recruiter', tenantId: 'tenant-1' });
  await dataSource
    .getRepository(ProductPermissionEntity)
    .insert({ key: 'reports:export', description: 'Export reports', createdAt: NOW });
  await dataSource.getRepository(ScimGroupEntity).insert(scimGroup);
  await dataSource.getRepository(ScimUserEntity).insert(scimUser);
  await dataSource.getRepository(ScimTokenEntity).insert({
    id: 'token-1',
    tenantId: 'tenant-1',
    secretHash: hashSecret('scim_secret'),
    createdBy: ACTOR.id,
    createdAt: EARLIER,
    lastUsedAt: null,
  });
  await dataSource.getRepository(OrgDomainEntity).insert(domain);
  await dataSource.getRepository(JoinRequestEntity).insert(joinRequest);
  await dataSource
    .getRepository(ScimGroupMemberEntity)
    .insert({ groupId: 'group-1', scimUserId: 'scim-1', tenantId: 'tenant-1' });
  await dataSource
    .getRepository(ScimRoleMappingEntity)
    .insert({ tenantId: 'tenant-1', groupKey: 'engineering', groupName: 'Engineering', role: 'admin' });
  await dataSource
    .getRepository(ScimRoleMappingRoleEntity)
    .insert({ tenantId: 'tenant-1', groupKey: 'engineering', roleKey: 'analyst' });
  await dataSource.getRepository(SsoConnectionEntity).insert(ssoConnection);
  await dataSource.getRepository(SsoRequestEntity).insert(ssoRequest);
  await dataSource.getRepository(SsoIdentityEntity).insert(ssoIdentity);
  await dataSource.getRepository(LeaseEntity).insert({ name: 'lease-1', holder: null, heldUntil: '0', version: '0' });
  await dataSource
    .getRepository(SetupLinkEntity)
    .insert([setupLink('link-1', LATER), setupLink('link-2', LATER), setupLink('link-expired', EARLIER)]);
  await dataSource.getRepository(SetupLinkItemEntity).insert(setupItem);
}

const lease = { name: 'lease-1', holder: 'holder-1', ttlMs: 60_000 };
const auditor = { key: 'auditor', name: 'Auditor', description: null, permissions: ['audit:read'] };

/** Each file of queries/, and the verbs it shows, in the order they run. */
const SNAPSHOTS: Record<string, [verb: string, run: (stores: Stores) => Promise<unknown>][]> = {
  'invitations.store': [
    ['InvitationsStore.create', (s) => s.invitations.create(invitation('new'), email, ACTOR)],
    [
      'InvitationsStore.create, replacing an invitation',
      (s) => s.invitations.create(invitation('resent'), email, ACTOR, { replacing: 'to-replace' }),
    ],
    [
      'InvitationsStore.create, unless a query finds a row',
      (s) =>
        s.invitations.create(invitation('checked'), email, ACTOR, {
          unlessFound: s.identity.tenantMemberCandidates('tenant-1', 'ann@example.com'),
        }),
    ],
    [
      'InvitationsStore.createMany, two invitations',
      (s) =>
        s.invitations.createMany(
          [
            { invitation: invitation('bulk-1'), email },
            { invitation: invitation('bulk-2'), email },
          ],
          ACTOR,
        ),
    ],
    [
      'InvitationsStore.findAcceptableKeys',
      (s) => s.invitations.findAcceptableKeys('tenant-1', ['key-1', 'key-2'], NOW),
    ],
    ['InvitationsStore.findById', (s) => s.invitations.findById('to-accept')],
    ['InvitationsStore.setExpiry', (s) => s.invitations.setExpiry('to-expire', EARLIER)],
    ['InvitationsStore.pendingTo', (s) => s.invitations.pendingTo('To-Accept@Example.com', NOW)],
    ['InvitationsStore.findTenantName', (s) => s.invitations.findTenantName('tenant-1')],
    [
      'InvitationsStore.listForTenant, first page',
      (s) => s.invitations.listForTenant('tenant-1', undefined, NOW, undefined, 51),
    ],
    [
      'InvitationsStore.listForTenant, one status, after a cursor',
      (s) => s.invitations.listForTenant('tenant-1', ['accepted'], NOW, { email: 'a@example.com', id: 'a' }, 51),
    ],
    [
      'InvitationsStore.listForTenant, expired (two ranges)',
      (s) => s.invitations.listForTenant('tenant-1', ['expired'], NOW, { email: 'a@example.com' }, 51),
    ],
    [
      'InvitationsStore.listForTenant, open (pending and expired)',
      (s) => s.invitations.listForTenant('tenant-1', ['pending', 'expired'], NOW, undefined, 51),
    ],
    ['InvitationsStore.markExpired', (s) => s.invitations.markExpired(invitation('to-expire'))],
    ['InvitationsStore.accept', (s) => s.invitations.accept(invitation('to-accept'), NOW)],
    ['InvitationsStore.revoke', (s) => s.invitations.revoke(invitation('to-revoke'), ACTOR)],
  ],
  'tenants.store': [
    ['TenantsStore.list, first batch', (s) => s.tenants.list(undefined, undefined, 1000)],
    [
      'TenantsStore.list, one status, after a key',
      (s) => s.tenants.list(['suspended'], { createdAt: '2026-01-01T00:00:00.000Z', id: 't' }, 51),
    ],
    ['TenantsStore.list, two statuses', (s) => s.tenants.list(['active', 'suspended'], undefined, 51)],
    [
      'TenantsStore.create',
      (s) =>
        s.tenants.create(
          { id: 'tenant-2', name: 'Beta', type: 'charity', status: 'pending_owner', createdAt: NOW },
          ACTOR,
        ),
    ],
    [
      'TenantsStore.activate, a pending_owner tenant at its first owner’s join',
      (s) => s.tenants.activate('tenant-2', auditEvents.tenantActivated('tenant-2', ACTOR)),
    ],
  ],
  'local-identity-store': [
    ['LocalIdentityStore.findById', (s) => s.identity.findById('user-1')],
    ['LocalIdentityStore.usersOfTenant', (s) => s.identity.usersOfTenant('tenant-1')],
    [
      'LocalIdentityStore.insertUser',
      (s) =>
        s.identity.insertUser(
          { id: 'user-9', email: 'Nine@Example.com', platformRole: null, userType: null, tenantId: null, role: null },
          NOW,
        ),
    ],
    [
      'LocalIdentityStore.findOrgCaller, the person, the tenant gate and the session in one read',
      (s) => s.identity.findOrgCaller({ userId: 'user-1', sid: 'session-1' }, 'tenant-1'),
    ],
    ['LocalIdentityStore.findByEmail', (s) => s.identity.findByEmail('Ann@Example.com')],
    [
      'LocalIdentityStore.findTenantMemberByEmail',
      (s) => s.identity.findTenantMemberByEmail('tenant-1', 'ann@example.com'),
    ],
    ['LocalIdentityStore.listSuperAdmins, first page', (s) => s.identity.listSuperAdmins({ limit: 50 })],
    [
      'LocalIdentityStore.listSuperAdmins, after a token',
      (s) => s.identity.listSuperAdmins({ limit: 50, token: 'YWRtaW4tMA' }),
    ],
    [
      'LocalIdentityStore.listTenantMembers, first page',
      (s) => s.identity.listTenantMembers('tenant-1', undefined, 51),
    ],
    [
      'LocalIdentityStore.listTenantMembers, after a cursor',
      (s) => s.identity.listTenantMembers('tenant-1', { email: 'a@example.com', id: 'a' }, 51),
    ],
    ['LocalIdentityStore.grantSuperAdmin', (s) => s.identity.grantSuperAdmin('user-1')],
    ['LocalIdentityStore.setTenantRole', (s) => s.identity.setTenantRole('user-1', 'admin')],
    ['LocalIdentityStore.removeFromTenant', (s) => s.identity.removeFromTenant('user-1')],
    ['LocalIdentityStore.deleteUser', (s) => s.identity.deleteUser('user-1')],
    ['LocalIdentityStore.ping', (s) => s.identity.ping()],
  ],
  'audit-recorder': [
    [
      'AuditRecorder.record',
      (s) =>
        s.audit.record(
          auditEvents.superAdminGranted(
            { ...ACTOR, platformRole: null, userType: null, tenantId: null, role: null },
            ACTOR,
          ),
        ),
    ],
    [
      'AuditRecorder.deletions, of an event and its delivery, in a transaction',
      (s) =>
        s.writer.insertIfAll(
          [],
          [],
          s.audit.deletions([
            [AuditEventEntity, { id: 'event-8' }],
            [WebhookDeliveryEntity, { id: 'delivery-8' }],
          ]),
        ),
    ],
  ],
  'audit-events.store': [
    ['AuditEventsStore.list, first page', (s) => s.auditEvents.list({}, 51)],
    [
      'AuditEventsStore.list, every filter, after a cursor',
      (s) =>
        s.auditEvents.list(
          {
            tenantId: 'tenant-1',
            types: ['invitation.created', 'invitation.resent'],
            actorId: 'owner-1',
            targetId: 'user-1',
            since: EARLIER,
            until: NOW,
            after: { occurredAt: NOW, id: 'event-9' },
          },
          51,
        ),
    ],
    ['AuditEventsStore.deleteBefore', (s) => s.auditEvents.deleteBefore(NOW)],
  ],
  'outbox-rows': [
    ['OutboxRows.due', (s) => s.outbox.due('worker-1', NOW, 10)],
    ['OutboxRows.claim, a row that due read', (s) => s.outbox.claim('outbox-1', 'worker-1', NOW, LATER)],
    ['OutboxRows.claim, a row not read', (s) => s.outbox.claim('outbox-2', 'worker-2', NOW, LATER)],
    ['OutboxRows.markDone', (s) => s.outbox.markDone('outbox-1', 'worker-1', NOW)],
    ['OutboxRows.retryLater', (s) => s.outbox.retryLater('outbox-2', 'worker-2', LATER, 'timeout')],
    ['OutboxRows.markFailed', (s) => s.outbox.markFailed('outbox-2', 'worker-2', 'refused')],
    ['OutboxRows.purgeDone', (s) => s.outbox.purgeDone(LATER)],
    ['OutboxRows.oldestWaiting', (s) => s.outbox.oldestWaiting()],
    [
      'OutboxRows.markDone, of a table whose done rows are deleted',
      (s) => s.grantRows.markDone('grant-1', 'worker-1', NOW),
    ],
    [
      'OutboxRows.retryLater, of a table whose done rows are deleted',
      (s) => s.grantRows.retryLater('grant-2', 'worker-2', LATER, 'timeout'),
    ],
  ],
  'membership-grants.repository': [['MembershipGrantsRepository.pendingFor', (s) => s.grants.pendingFor('user-2')]],
  'idempotency.store': [
    ['IdempotencyStore.claim', (s) => s.idempotency.claim(idempotencyKey)],
    ['IdempotencyStore.find', (s) => s.idempotency.find('owner-1', 'key-1')],
    ['IdempotencyStore.takeOver', (s) => s.idempotency.takeOver(idempotencyKey, 'claim-2', LATER)],
    ['IdempotencyStore.complete', (s) => s.idempotency.complete(claim, 201, { success: true })],
    ['IdempotencyStore.release', (s) => s.idempotency.release(claim)],
    ['IdempotencyStore.deleteIfCreatedBefore', (s) => s.idempotency.deleteIfCreatedBefore('owner-1', 'key-1', NOW)],
    ['IdempotencyStore.deleteCreatedBefore', (s) => s.idempotency.deleteCreatedBefore(NOW)],
  ],
  'roles.store': [
    [
      'RolesStore.create',
      (s) => s.roles.create('tenant-1', auditor, NOW, roleEvents.roleCreated('tenant-1', auditor, ACTOR), 25),
    ],
    [
      'RolesStore.update',
      (s) =>
        s.roles.update(
          'tenant-1',
          roleAt('recruiter', 0, ['invitations:create']),
          { key: 'recruiter', name: 'Hiring', description: null, permissions: ['invitations:create'] },
          NOW,
          roleEvents.roleCreated('tenant-1', auditor, ACTOR),
        ),
    ],
    ['RolesStore.countHolders', (s) => s.roles.countHolders('tenant-1', 'recruiter')],
    ['RolesStore.holders', (s) => s.roles.holders('tenant-1', 'recruiter')],
    ['RolesStore.invitationsCarrying', (s) => s.roles.invitationsCarrying('tenant-1', 'recruiter')],
    [
      'RolesStore.replaceMemberRoles',
      (s) =>
        s.roles.replaceMemberRoles(
          'tenant-1',
          'user-2',
          [roleAt('auditor', 0, ['audit:read'])],
          ['auditor'],
          NOW,
          roleEvents.memberRolesChanged({ id: 'user-2', email: null }, 'tenant-1', [], ['auditor'], ACTOR),
        ),
    ],
    ['RolesStore.rolesCarrying', (s) => s.roles.rolesCarrying(['reports:export', 'audit:read'])],
    [
      'RolesStore.replaceCatalogue, a permission removed from the roles that carried it',
      (s) =>
        s.roles.replaceCatalogue(
          {
            added: [{ key: 'billing:manage', description: null }],
            removed: ['reports:export'],
            described: [{ key: 'reports:export', description: 'Reports' }],
          },
          [{ tenantId: 'tenant-1', key: 'analyst' }],
          [],
          NOW,
        ),
    ],
    ['RolesStore.groupsMappedTo', (s) => s.roles.groupsMappedTo('tenant-1', 'analyst')],
    ['RolesStore.domainsGiving', (s) => s.roles.domainsGiving('tenant-1', 'analyst')],
    ['RolesStore.delete', (s) => s.roles.delete('tenant-1', roleAt('analyst', 1, []), null, [], NOW)],
    [
      'RolesStore.delete, its holders reassigned',
      (s) =>
        s.roles.delete(
          'tenant-1',
          roleAt('auditor', 1, ['audit:read']),
          {
            target: roleAt('recruiter', 1, ['invitations:create']),
            holders: ['user-2'],
            invitations: ['to-revoke'],
            groups: ['engineering'],
            domains: ['domain-1'],
          },
          [],
          NOW,
        ),
    ],
  ],
  'grants.store': [
    ['GrantsStore.grantOf', (s) => s.customGrants.grantOf('tenant-1', 'user-1', 'invitations:create')],
    ['GrantsStore.heldBy', (s) => s.customGrants.heldBy('tenant-1', 'user-1')],
    ['GrantsStore.rolesOfMembers', (s) => s.customGrants.rolesOfMembers('tenant-1', ['user-1', 'user-2'])],
    ['GrantsStore.rolesOfInvitations', (s) => s.customGrants.rolesOfInvitations(['to-accept'])],
    ['GrantsStore.roles', (s) => s.customGrants.roles('tenant-1')],
    ['GrantsStore.productPermissions', (s) => s.customGrants.productPermissions()],
    ['GrantsStore.removeMember', (s) => s.customGrants.removeMember('tenant-1', 'user-1')],
    ['GrantsStore.removeTenantStep, the holders', (s) => s.customGrants.removeTenantStep('tenant-1', 500)],
    ['GrantsStore.removeTenantStep, the invitations', (s) => s.customGrants.removeTenantStep('tenant-1', 500)],
    ['GrantsStore.removeTenantStep, the roles', (s) => s.customGrants.removeTenantStep('tenant-1', 500)],
  ],
  'memberships.repository': [
    [
      'MembershipsRepository.join, an invitation that carries a custom role, a new users row',
      (s) =>
        s.memberships.join({
          tenantId: 'tenant-1',
          invitation: invitation('to-accept'),
          invitee: { id: 'user-9', email: 'to-accept@example.com' },
          role: 'member',
          customRoles: [roleAt('recruiter', 0, ['invitations:create'])],
          activatesTenant: false,
          now: NOW,
          membership: { store: 'local', stored: null },
        }),
    ],
    [
      'MembershipsRepository.join, without an invitation (SCIM’s): the caller’s rows, a new users row, a removal outweighed',
      (s) =>
        s.memberships.join({
          tenantId: 'tenant-1',
          invitation: null,
          invitee: { id: 'user-7', email: 'dora@example.com' },
          role: 'member',
          customRoles: [],
          activatesTenant: false,
          now: NOW,
          membership: { store: 'local', stored: null },
          alongside: {
            required: [],
            events: [],
            inserts: s.scimUsers.created({ ...scimUser, id: 'scim-7', userId: 'user-7', userNameKey: 'dora' }, []),
            deletes: [s.removals.cleared('tenant-1', 'user-7')],
          },
        }),
    ],
    [
      'MembershipsRepository.takeBack, the pool refused the account that the join made',
      (s) =>
        s.memberships.takeBack(
          {
            tenantId: 'tenant-1',
            invitation: null,
            invitee: { id: 'user-9', email: 'bob@example.com' },
            role: 'member',
            customRoles: [],
            activatesTenant: false,
            now: NOW,
            membership: { store: 'pool', grant: null, versionUnchanged: s.grants.versionUnchanged('user-9', 0) },
            alongside: {
              required: [],
              events: [],
              undo: [s.scimUsers.deletion({ id: 'scim-9', tenantId: 'tenant-1' })],
            },
          },
          [
            [MembershipGrantEntity, grantRow('grant-9', 'user-9', 'worker-1')],
            [AuditEventEntity, { id: 'event-9' }],
          ],
        ),
    ],
  ],
  'membership-removals.store': [
    [
      'MembershipRemovalsStore.remember, replacing an earlier removal of the membership',
      (s) =>
        s.removals.remember([
          { tenantId: 'tenant-1', userId: 'user-1', email: 'ann@example.com', reason: 'removed', at: NOW },
        ]),
    ],
    [
      'MembershipRemovalsStore.removedFrom, unless invited since',
      (s) => s.removals.removedFrom('user-1', 'ann@example.com', ['tenant-1', 'tenant-2']),
    ],
    [
      'MembershipRemovalsStore.accountDeletedSince',
      (s) => s.removals.accountDeletedSince('tenant-1', 'user-1', EARLIER),
    ],
    ['MembershipRemovalsStore.requestedTenants', (s) => s.removals.requestedTenants('user-2')],
  ],
  'tenant-status-reader': [
    ['TenantStatusReader.statusOf', (s) => s.tenantStatus.statusOf('tenant-1')],
    [
      'TenantStatusReader.gateAndSessionOf, with single sign-on’s enforcement and the session',
      (s) => s.tenantStatus.gateAndSessionOf('tenant-1', { userId: 'user-1', sid: 'session-1' }),
    ],
  ],
  'scim-users.store': [
    ['ScimUsersStore.find', (s) => s.scimUsers.find('tenant-1', 'scim-1')],
    ['ScimUsersStore.findByUserName', (s) => s.scimUsers.findByUserName('tenant-1', 'ann@example.com')],
    ['ScimUsersStore.findByPerson', (s) => s.scimUsers.findByPerson('user-1')],
    [
      'ScimUsersStore.list, a filter, a page',
      (s) => s.scimUsers.list('tenant-1', [{ attribute: 'userName', value: 'Ann@Example.com' }], 1, 10),
    ],
    ['ScimUsersStore.findMany', (s) => s.scimUsers.findMany('tenant-1', ['scim-1', 'scim-2'])],
    ['ScimUsersStore.allActive', (s) => s.scimUsers.allActive('tenant-1')],
    [
      'ScimUsersStore.updateAsRead, the user pool’s address change',
      (s) => s.scimUsers.updateAsRead({ ...scimUser, userName: 'ann@example.org', lastModified: LATER }, NOW),
    ],
    [
      'ScimUsersStore.saveChanges, a change that moves no membership',
      (s) =>
        s.scimUsers.saveChanges([], [s.scimUsers.updated({ ...scimUser, externalId: 'okta-2', lastModified: LATER })]),
    ],
    [
      'ScimUsersStore.commit, an inactive person’s rows beside a removal',
      (s) =>
        s.scimUsers.commit(
          s.scimUsers.created({ ...scimUser, id: 'scim-8', userId: 'user-8', userNameKey: 'carl' }, []),
          [],
          [s.removals.cleared('tenant-1', 'user-8')],
        ),
    ],
  ],
  'scim-tokens.store': [
    ['ScimTokensStore.list', (s) => s.scimTokens.list('tenant-1')],
    ['ScimTokensStore.authenticate, and its last use noted', (s) => s.scimTokens.authenticate('scim_secret')],
    ['ScimTokensStore.create', (s) => s.scimTokens.create('tenant-1', ACTOR)],
    ['ScimTokensStore.revoke', (s) => s.scimTokens.revoke('tenant-1', 'token-1', ACTOR)],
  ],
  'domains.store': [
    ['DomainsStore.findOwn', (s) => s.domains.findOwn('tenant-1', 'acme.example')],
    ['DomainsStore.listOwn', (s) => s.domains.listOwn('tenant-1')],
    ['DomainsStore.countOwn', (s) => s.domains.countOwn('tenant-1')],
    ['DomainsStore.heldByAnother', (s) => s.domains.heldByAnother('acme.example', 'tenant-2')],
    ['DomainsStore.joinable', (s) => s.domains.joinable('acme.example')],
    ['DomainsStore.findPendingRequest', (s) => s.domains.findPendingRequest('tenant-1', 'user-2')],
    ['DomainsStore.listRequests', (s) => s.domains.listRequests('tenant-1', 'pending')],
    [
      'DomainsStore.insert, under the organisation’s claims lease',
      (s) =>
        s.domains.insert({ ...domain, id: 'domain-2', name: 'beta.example', status: 'pending', heldName: null }, [], 5),
    ],
    [
      'DomainsStore.update, its status and token as read',
      (s) => s.domains.update(domain, { joinMode: 'auto', lastCheckAt: NOW }, []),
    ],
    ['DomainsStore.defaultRolesOf', (s) => s.domains.defaultRolesOf(['domain-1', 'domain-2'])],
    [
      'DomainsStore.replaceDefaultRoles, each role as read',
      (s) => s.domains.replaceDefaultRoles(domain, [roleAt('recruiter', 0, ['invitations:create'])], []),
    ],
    ['DomainsStore.claimDue', (s) => s.domains.claimDue(NOW, LATER, 10)],
    ['DomainsStore.decide', (s) => s.domains.decide('request-1', 'rejected', NOW, [])],
  ],
  'scim-groups.store': [
    ['ScimGroupsStore.find', (s) => s.scimGroups.find('tenant-1', 'group-1')],
    ['ScimGroupsStore.findByName', (s) => s.scimGroups.findByName('tenant-1', 'engineering')],
    ['ScimGroupsStore.memberIds', (s) => s.scimGroups.memberIds(scimGroup)],
    [
      'ScimGroupsStore.list, a filter, a page',
      (s) => s.scimGroups.list('tenant-1', [{ attribute: 'displayName', value: 'Engineering' }], 1, 10),
    ],
    ['ScimGroupsStore.list, the count alone', (s) => s.scimGroups.list('tenant-1', [], 1, 0)],
    [
      'ScimGroupsStore.create, with a member',
      (s) => s.scimGroups.create({ ...scimGroup, id: 'group-2', displayNameKey: 'sales' }, ['scim-1'], groupEvent),
    ],
    [
      'ScimGroupsStore.update, a member gained and one lost',
      (s) =>
        s.scimGroups.update(
          { ...scimGroup, displayName: 'Eng', lastModified: LATER },
          ['scim-2'],
          ['scim-1'],
          groupEvent,
        ),
    ],
    ['ScimGroupsStore.delete', (s) => s.scimGroups.delete(scimGroup, groupEvent)],
  ],
  'scim-role-mappings.store': [
    ['ScimRoleMappingsStore.mapping', (s) => s.scimRoleMappings.mapping('tenant-1')],
    ['ScimRoleMappingsStore.groupKeysOf', (s) => s.scimRoleMappings.groupKeysOf('tenant-1', ['scim-1', 'scim-2'])],
    [
      'ScimRoleMappingsStore.replace',
      (s) =>
        s.scimRoleMappings.replace(
          'tenant-1',
          new Map([['engineering', { groupName: 'Engineering', role: 'admin', roles: ['analyst', 'recruiter'] }]]),
          roleEvents.roleDeleted('tenant-1', roleAt('auditor', 1, []), 0, null, ACTOR),
        ),
    ],
  ],
  'sso-connections.store': [
    ['SsoConnectionsStore.findById', (s) => s.ssoConnections.findById('connection-1')],
    ['SsoConnectionsStore.findOwn', (s) => s.ssoConnections.findOwn('tenant-1', 'connection-1')],
    ['SsoConnectionsStore.listOwn', (s) => s.ssoConnections.listOwn('tenant-1')],
    ['SsoConnectionsStore.countOwn', (s) => s.ssoConnections.countOwn('tenant-1')],
    ['SsoConnectionsStore.primaryOf', (s) => s.ssoConnections.primaryOf('tenant-1')],
    ['SsoConnectionsStore.views, the last sign-in and the primary', (s) => s.ssoConnections.views([ssoConnection])],
    [
      'SsoConnectionsStore.insert, under the organisation’s connections lease',
      (s) =>
        s.ssoConnections.insert({ ...ssoConnection, id: 'connection-2', status: 'draft', activatedAt: null }, [], 3),
    ],
    [
      'SsoConnectionsStore.update, only as read',
      (s) => s.ssoConnections.update(ssoConnection, { name: 'Okta EU', updatedAt: NOW }, []),
    ],
    ['SsoConnectionsStore.attempts', (s) => s.ssoConnections.attempts('connection-1')],
    ['SsoConnectionsStore.samlConnections', (s) => s.ssoConnections.samlConnections()],
    [
      'SsoConnectionsStore.warnCertificateExpiry, once per certificate',
      (s) => s.ssoConnections.warnCertificateExpiry(ssoConnection, NOW, []),
    ],
    [
      'SsoConnectionsStore.enforce, unless no connection is active',
      (s) => s.ssoConnections.enforce({ tenantId: 'tenant-1', enforcedAt: NOW, enforcedBy: 'owner-1' }, []),
    ],
    ['SsoConnectionsStore.isEnforced', (s) => s.ssoConnections.isEnforced('tenant-1')],
    ['SsoConnectionsStore.unenforce', (s) => s.ssoConnections.unenforce('tenant-1', [])],
    [
      'SsoConnectionsStore.remove, with its links, requests and attempts',
      (s) => s.ssoConnections.remove(ssoConnection, []),
    ],
  ],
  'sso-secrets.store': [
    ['SsoSecretsStore.sealedSecrets', (s) => s.ssoSecrets.sealedSecrets()],
    [
      'SsoSecretsStore.reseal, only as read',
      (s) => s.ssoSecrets.reseal({ connectionId: 'connection-1', sealed: ssoConnection.clientSecret }, 'v1.resealed'),
    ],
  ],
  'sso-sign-ins.store': [
    ['SsoSignInsStore.holderOf', (s) => s.ssoSignIns.holderOf('acme.example', NOW)],
    ['SsoSignInsStore.tenantActive', (s) => s.ssoSignIns.tenantActive('tenant-1')],
    [
      'SsoSignInsStore.insertRequest, expired ones gone meanwhile',
      (s) => s.ssoSignIns.insertRequest({ ...ssoRequest, state: 'state-2' }),
    ],
    ['SsoSignInsStore.isPendingTest', (s) => s.ssoSignIns.isPendingTest('state-1', 'connection-1')],
    ['SsoSignInsStore.useRequest, once', (s) => s.ssoSignIns.useRequest('state-1', 'connection-1', NOW)],
    ['SsoSignInsStore.findRequest', (s) => s.ssoSignIns.findRequest('state-1')],
    [
      'SsoSignInsStore.rememberAssertion, expired ones gone meanwhile',
      (s) => s.ssoSignIns.rememberAssertion({ connectionId: 'connection-1', assertionId: '_a1', expiresAt: NOW }, NOW),
    ],
    ['SsoSignInsStore.findIdentity', (s) => s.ssoSignIns.findIdentity('connection-1', 'subject-1')],
    [
      'SsoSignInsStore.signedIn, a first sign-in',
      (s) => s.ssoSignIns.signedIn({ ...ssoIdentity, subject: 'subject-2' }, false),
    ],
    ['SsoSignInsStore.signedIn, a returning person', (s) => s.ssoSignIns.signedIn(ssoIdentity, true)],
    ['SsoSignInsStore.recordAttempt', (s) => s.ssoSignIns.recordAttempt(ssoAttempt, [])],
  ],
  'sessions.store': [
    [
      'SessionsStore.insert',
      (s) =>
        s.sessions.insert({
          id: 'session-2',
          userId: 'user-1',
          tenantId: 'tenant-1',
          kind: 'sso',
          connectionId: 'connection-1',
          createdAt: NOW,
          lastUsedAt: NOW,
          expiresAt: NOW,
          idleSeconds: 0,
          userAgent: 'Firefox',
          ip: '192.0.2.1',
          revokedAt: null,
          revokedReason: null,
        }),
    ],
    [
      'SessionsStore.probe, the person and the session in one read',
      (s) => s.sessions.probe({ userId: 'user-1', sid: 'session-1' }),
    ],
    ['SessionsStore.touch, unless written since', (s) => s.sessions.touch('session-1', NOW, NOW)],
    ['SessionsStore.liveOf', (s) => s.sessions.liveOf('user-1', NOW)],
    ['SessionsStore.liveWhere, an organisation’s', (s) => s.sessions.liveWhere('tenant_id', 'tenant-1', NOW, 500)],
    ['SessionsStore.oidcConnectionOf', (s) => s.sessions.oidcConnectionOf('session-1')],
    ['SessionsStore.revoke, with its event', (s) => s.sessions.revoke('session-1', 'sign_out', NOW, [])],
    ['SessionsStore.setNotBefore, with its event', (s) => s.sessions.setNotBefore('user-1', 1_800_000_000, [])],
    ['SessionsStore.purgeEndedBefore', (s) => s.sessions.purgeEndedBefore(NOW)],
  ],
  'setup-links.store': [
    [
      'SetupLinksStore.insert, while the organisation has fewer open links than the limit',
      (s) => s.setupLinks.insert(setupLink('link-new', LATER), [], [], 5),
    ],
    ['SetupLinksStore.findByTokenHash, with its organisation', (s) => s.setupLinks.findByTokenHash('hash-of-link-1')],
    ['SetupLinksStore.findById, with its organisation', (s) => s.setupLinks.findById('link-1')],
    ['SetupLinksStore.findOwn', (s) => s.setupLinks.findOwn('tenant-1', 'link-1')],
    ['SetupLinksStore.listOwn, newest first', (s) => s.setupLinks.listOwn('tenant-1')],
    ['SetupLinksStore.opened, while open', (s) => s.setupLinks.opened(setupLink('link-1', LATER), NOW, [])],
    ['SetupLinksStore.revoke, while open', (s) => s.setupLinks.revoke(setupLink('link-2', LATER), NOW, [])],
    ['SetupLinksStore.complete, while open', (s) => s.setupLinks.complete(setupLink('link-1', LATER), NOW, [], [])],
    ['SetupLinksStore.expiredUnrecorded', (s) => s.setupLinks.expiredUnrecorded(NOW, 100)],
    [
      'SetupLinksStore.recordExpiry, once',
      (s) => s.setupLinks.recordExpiry(setupLink('link-expired', EARLIER), NOW, []),
    ],
    ['SetupLinksStore.tenantName', (s) => s.setupLinks.tenantName('tenant-1')],
    [
      'SetupLinksStore.addItem',
      (s) => s.setupLinks.addItem({ ...setupItem, kind: 'sso_connection', itemId: 'connection-1' }),
    ],
    ['SetupLinksStore.madeBy', (s) => s.setupLinks.madeBy('domain', 'domain-1')],
    ['SetupLinksStore.madeThrough, by name', (s) => s.setupLinks.madeThrough('link-1')],
  ],
  'test-mode.store': [
    ['TestModeStore.mailbox', (s) => s.testMode.mailbox('to-accept@example.com')],
    ['TestModeStore.tenantsNamed', (s) => s.testMode.tenantsNamed('Ac_%!', 100)],
    ['TestModeStore.removeTenants', (s) => s.testMode.removeTenants(['tenant-9', 'tenant-10'])],
  ],
  leases: [
    ['Leases.tryAcquire, a lease no one holds', (s) => s.leases.tryAcquire('lease-1', 60_000)],
    ['Leases.renew', (s) => s.leases.renew(lease)],
    ['Leases.release', (s) => s.leases.release(lease)],
    ['Leases.ensure', (s) => s.leases.ensure('lease-2')],
    [
      'Leases.written, twice in a transaction, the second only if',
      (s) =>
        s.writer.insertIfAll(
          [],
          [s.leases.written('lease-2'), s.leases.written('lease-2', ['(SELECT COUNT(*) FROM tenants) < ?', [5]])],
        ),
    ],
  ],
};

const HEADERS = {
  sqlite: 'what better-sqlite3 runs, a statement per line',
  mysql: 'what reaches mysql2, a statement per line: an empty line separates round trips',
};

/** A file of queries/: a comment line naming each verb, then its SQL. */
function snapshot(file: string, dialect: keyof typeof HEADERS, verbs: [verb: string, calls: string[]][]): string {
  const header =
    `-- The SQL of ${file}.ts on ${dialect === 'mysql' ? 'MySQL/MariaDB' : 'SQLite'}: ` +
    `${HEADERS[dialect]}.\n-- Written by test/sql-snapshots.integration-spec.ts: do not edit.\n`;
  const separator = dialect === 'mysql' ? ';\n\n' : ';\n';
  return header + verbs.map(([verb, calls]) => `\n-- ${verb}\n${calls.join(separator)};\n`).join('');
}

describe('The SQL of each store, per dialect', () => {
  let sqlite: DataSource;
  let mysql: RecordingMysql;
  let onSqlite: Stores;
  let onMysql: Stores;

  beforeAll(async () => {
    sqlite = await memoryDataSource();
    await seed(sqlite);
    mysql = await recordingMysql();
    onSqlite = storesOn(sqlite);
    onMysql = storesOn(mysql.dataSource);
  });
  afterAll(async () => {
    await sqlite.destroy();
    await mysql.dataSource.destroy();
  });

  it.each(Object.keys(SNAPSHOTS))('queries/%s.*.sql', async (file) => {
    const written: Record<keyof typeof HEADERS, [string, string[]][]> = { sqlite: [], mysql: [] };
    for (const [verb, run] of SNAPSHOTS[file]) {
      const sent = await sqliteSent(sqlite, () => run(onSqlite));
      written.sqlite.push([verb, sent.calls]);
      written.mysql.push([verb, await mysql.sent(() => run(onMysql), sent.reads)]);
    }
    for (const dialect of ['sqlite', 'mysql'] as const) {
      const path = join(QUERIES, `${file}.${dialect}.sql`);
      const text = snapshot(file, dialect, written[dialect]);
      if (UPDATE) writeFileSync(path, text);
      else
        expect({ path, text }).toEqual({
          path,
          text: existsSync(path) ? readFileSync(path, 'utf8') : '(no file: run with UPDATE_SQL_SNAPSHOTS=1)',
        });
    }
  });
});

/**
 * Every store is here without a list kept by hand: SQL lives in src/database/ and in classes marked
 * @SqlStore(), which register themselves; each of them must show its SQL above.
 */
describe('Every store, found in src/', () => {
  const SRC = join(__dirname, '..', 'src');
  const sources = (readdirSync(SRC, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));
  /** A statement in a string, or a query through TypeORM's API. */
  const SQL =
    /['`](SELECT|UPDATE|INSERT INTO|DELETE FROM) |\.query\(|createQueryBuilder\(|getRepository\([^)]*\)\.\w+\(/;
  const verbsOf = (store: string) =>
    Object.values(SNAPSHOTS)
      .flat()
      .map(([verb]) => verb)
      .filter((verb) => verb.startsWith(`${store}.`));

  it('SQL outside src/database/ is in a file with a @SqlStore() class', () => {
    const outside = sources
      .filter(({ file, text }) => !file.startsWith('database/') && SQL.test(text) && !text.includes('@SqlStore()'))
      .map(({ file }) => file);
    expect(outside).toEqual([]);
  });

  it('each @SqlStore() class shows its SQL in queries/, through methods it has', async () => {
    for (const { file } of sources.filter(({ text }) => text.includes('@SqlStore()'))) await import(join(SRC, file));
    const stores = sqlStores();
    expect(stores.length).toBeGreaterThanOrEqual(sources.filter(({ text }) => text.includes('\n@SqlStore()')).length);
    const unshown = stores.filter((store) => !verbsOf(store.name).length).map((store) => store.name);
    expect(unshown).toEqual([]);
    const unknown = stores.flatMap((store) =>
      verbsOf(store.name)
        .map((verb) => verb.slice(store.name.length + 1).split(/[ ,]/)[0])
        .filter((method) => typeof store.prototype[method] !== 'function')
        .map((method) => `${store.name}.${method}`),
    );
    expect(unknown).toEqual([]);
  });
});
