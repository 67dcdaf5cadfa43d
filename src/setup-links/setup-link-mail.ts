import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrgCaller } from '../auth/caller';
import { IdGenerator } from '../common/id-generator';
import { Clock } from '../common/clock';
import { Insert } from '../database/atomic-writer';
import { NoticeEmailOutboxEntity, SsoConnectionEntity } from '../database/entities';
import { SetupLinkEntity } from '../database/entities/setup-link.entity';
import { IdentityStore, MAX_PAGE_SIZE } from '../identity/identity-store';
import { NoticeEmail, newNoticeRow } from '../mail/notice-email';
import { NoticeOutboxWorker } from '../mail/outbox/notice-outbox.worker';
import { SsoActivations } from '../sso/sso-activations';
import { intentsOf } from './setup-link';
import { connectionActiveEmail, linkEmail, setupCompletedEmail } from './setup-link-emails';
import { SetupLinksStore } from './setup-links.store';

/** The organisation's display name where it has none (spec section 2). */
const DEFAULT_NAME = 'Organisation';

/**
 * The notice outbox's rows of setup links (docs/setup-links.md), for the transaction of the change
 * they tell of: the link to the IT admin; and to each of the organisation's owners, a connection
 * made through a link that a test sign-in activated (SsoActivations), and a completion.
 */
@Injectable()
export class SetupLinkMail implements OnModuleInit {
  constructor(
    private readonly store: SetupLinksStore,
    private readonly activations: SsoActivations,
    private readonly identity: IdentityStore,
    private readonly outbox: NoticeOutboxWorker,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  onModuleInit(): void {
    this.activations.onActivation((connection) => this.activationRows(connection));
  }

  /** The link, to the address the owner gave. */
  async linkRows(link: SetupLinkEntity, url: string, token: string, owner: OrgCaller): Promise<Insert[]> {
    if (!link.email) return [];
    const email = linkEmail({
      to: link.email,
      tenantName: await this.tenantName(link.tenantId),
      senderEmail: owner.email,
      intents: intentsOf(link),
      expiresAt: link.expiresAt,
      url,
      token,
    });
    return [this.row(link.tenantId, email)];
  }

  /** The owners told that the setup is complete, with what the link made. */
  async completionRows(link: SetupLinkEntity): Promise<Insert[]> {
    const made = (await this.store.madeThrough(link.id)).map(({ kind, name }) =>
      kind === 'domain' ? `the domain ${name}` : `the single sign-on connection “${name}”`,
    );
    return this.toOwners(link.tenantId, (to, tenantName) => setupCompletedEmail(to, tenantName, made));
  }

  /** Sends now rather than at the next poll, once the rows are written. */
  kick(): void {
    this.outbox.kick();
  }

  /** A connection that a link made, activated: the owners are told. Any other: nothing. */
  private async activationRows(connection: SsoConnectionEntity): Promise<Insert[]> {
    if (!(await this.store.madeBy('sso_connection', connection.id))) return [];
    return this.toOwners(connection.tenantId, (to, tenantName) =>
      connectionActiveEmail(to, tenantName, connection.name),
    );
  }

  private async tenantName(tenantId: string): Promise<string> {
    return (await this.store.tenantName(tenantId)) ?? DEFAULT_NAME;
  }

  private row(tenantId: string, email: NoticeEmail): Insert {
    return [NoticeEmailOutboxEntity, newNoticeRow(this.ids.uuid(), tenantId, email, this.clock.now())];
  }

  /** A row per owner of the organisation, each e-mail built for that owner's address. */
  private async toOwners(tenantId: string, build: (to: string, tenantName: string) => NoticeEmail): Promise<Insert[]> {
    const name = await this.tenantName(tenantId);
    return (await this.ownerAddresses(tenantId)).map((to) => this.row(tenantId, build(to, name)));
  }

  private async ownerAddresses(tenantId: string): Promise<string[]> {
    const owners: string[] = [];
    let after: { email: string; id: string } | undefined;
    for (;;) {
      const page = await this.identity.listTenantMembers(tenantId, after, MAX_PAGE_SIZE);
      owners.push(...page.filter((member) => member.role === 'owner').map((member) => member.email));
      if (page.length < MAX_PAGE_SIZE) return owners;
      const last = page[page.length - 1];
      after = { email: last.email, id: last.id };
    }
  }
}
