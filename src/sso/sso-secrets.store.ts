import { PreparedStatements } from '../database/prepared-statements';
import { SqlStore } from '../database/sql-store';

/** A connection's client secret as stored (sealed). */
export interface SealedSecret {
  connectionId: string;
  sealed: string;
}

/** The SQL of the client secrets' rotation (`sso:rotate-secrets`): read them all, write each again. */
@SqlStore()
export class SsoSecretsStore {
  constructor(private readonly statements: PreparedStatements) {}

  /** Every OIDC connection's sealed secret: a few per organisation that uses single sign-on. */
  async sealedSecrets(): Promise<SealedSecret[]> {
    const rows = await this.statements.rows(
      "SELECT id, client_secret FROM sso_connections WHERE type = 'oidc' ORDER BY id",
    );
    return rows.map((row) => ({ connectionId: String(row.id), sealed: String(row.client_secret) }));
  }

  /** The secret sealed anew, only while it is as read: false when it changed meanwhile (a PATCH wrote a new one). */
  async reseal({ connectionId, sealed }: SealedSecret, resealed: string): Promise<boolean> {
    return (
      (await this.statements.changes(
        'UPDATE sso_connections SET client_secret = ? WHERE id = ? AND client_secret = ?',
        [resealed, connectionId, sealed],
      )) === 1
    );
  }
}
