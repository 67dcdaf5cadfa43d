import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { openSecretWith, SecretUnreadable, sealSecret } from './sso-secrets';
import { SsoSecretsStore } from './sso-secrets.store';

/** What a rotation did: secrets written under the first key, already under it, and opened by no key. */
export interface RotationCount {
  rewritten: number;
  alreadyCurrent: number;
  unreadable: number;
  /** The connections whose owners must re-enter the client secret. */
  unreadableConnections: string[];
}

/**
 * `npm run -s cli -- sso:rotate-secrets` (docs/sso.md, "Rotating SSO_SECRETS_KEY"): every stored
 * client secret that an older key of SSO_SECRETS_KEY opens is sealed again under the first, so that
 * the older keys can then be dropped. Safe to repeat, and beside running instances: each row is
 * written only while it is as read.
 */
@Injectable()
export class SsoSecretsRotation {
  constructor(
    private readonly store: SsoSecretsStore,
    private readonly config: AppConfig,
  ) {}

  async rotate(): Promise<RotationCount> {
    const keys = this.config.sso.secretsKeys;
    const count: RotationCount = { rewritten: 0, alreadyCurrent: 0, unreadable: 0, unreadableConnections: [] };
    for (const stored of await this.store.sealedSecrets()) {
      let opened: { secret: string; key: number };
      try {
        opened = openSecretWith(keys, stored.connectionId, stored.sealed);
      } catch (error) {
        if (!(error instanceof SecretUnreadable)) throw error;
        count.unreadable++;
        count.unreadableConnections.push(stored.connectionId);
        continue;
      }
      if (opened.key === 0) count.alreadyCurrent++;
      // Changed meanwhile: a PATCH wrote it, under the first key.
      else if (await this.store.reseal(stored, sealSecret(keys[0], stored.connectionId, opened.secret)))
        count.rewritten++;
      else count.alreadyCurrent++;
    }
    return count;
  }
}
