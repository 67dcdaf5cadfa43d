import { HttpStatus, Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { Clock } from '../common/clock';
import { IdGenerator } from '../common/id-generator';
import { PreparedStatements } from '../database/prepared-statements';
import { SCIM_MESSAGES, ScimError } from './scim-errors';
import { isUniqueViolation } from '../database/unique-violation';

/** Past the longest change that holds the lease: reads and writes of the identity store, with the SDK's retries. */
export const OWNER_LEASE_MS = 60_000;
/** How long a change waits for the lease before it answers 409 (the identity provider tries again). */
export const OWNER_LEASE_WAIT_MS = 15_000;
const RETRY_MS = 20;

const TAKE =
  'UPDATE scim_owner_locks SET holder = ?, held_until = ? WHERE tenant_id = ? AND (holder IS NULL OR held_until < ?)';
const RELEASE = 'UPDATE scim_owner_locks SET holder = NULL, held_until = 0 WHERE tenant_id = ? AND holder = ?';

/**
 * The last-owner guard under concurrency (docs/scim.md): SCIM's changes that may take an owner away
 * (a deactivation, a delete, a change of groups or of the role mapping) run one at a time per
 * organisation, from their count of the owners to the identity store's last write, each holding the
 * organisation's lease in scim_owner_locks (a compare-and-set). The owners are counted where they
 * are kept (the users table, or the user pool, which no transaction of ours can reach), so the
 * count and the write are serialised around it rather than inside one transaction.
 */
@Injectable()
export class ScimOwnerLock {
  constructor(
    private readonly statements: PreparedStatements,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async holding<T>(tenantId: string, change: () => Promise<T>): Promise<T> {
    const holder = this.ids.uuid();
    await this.take(tenantId, holder);
    try {
      return await change();
    } finally {
      await this.statements.changes(RELEASE, [tenantId, holder]);
    }
  }

  private async take(tenantId: string, holder: string): Promise<void> {
    await this.ensureRow(tenantId);
    const until = performance.now() + OWNER_LEASE_WAIT_MS;
    for (;;) {
      const now = this.clock.now().getTime();
      if ((await this.statements.changes(TAKE, [holder, now + OWNER_LEASE_MS, tenantId, now])) === 1) return;
      if (performance.now() > until) throw new ScimError(HttpStatus.CONFLICT, SCIM_MESSAGES.ownersChanging);
      await delay(RETRY_MS * (1 + Math.random()));
    }
  }

  /** The organisation's row, made by the first change that needs it (one of parallel first ones). */
  private async ensureRow(tenantId: string): Promise<void> {
    if (await this.statements.first('SELECT holder FROM scim_owner_locks WHERE tenant_id = ?', [tenantId])) return;
    try {
      await this.statements.changes('INSERT INTO scim_owner_locks (tenant_id, held_until) VALUES (?, 0)', [tenantId]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
