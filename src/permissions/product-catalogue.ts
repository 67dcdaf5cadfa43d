import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { GrantsStore, ProductPermission } from './grants.store';

/**
 * How long an instance reuses the product's catalogue: owners and admins hold every product
 * permission, so the permission check and GET /api/me/permissions ask for it on each request. A
 * change (PUT /api/admin/permissions) shows at once on the instance that made it, within this
 * time on the others.
 */
export const PRODUCT_CATALOGUE_TTL_MS = 1_000;

/** The product's permission catalogue, read at most once a second per instance. */
@Injectable()
export class ProductCatalogue {
  private cached?: { until: number; read: Promise<ProductPermission[]> };

  constructor(private readonly grants: GrantsStore) {}

  /** Timed by the monotonic clock: the test-mode clock (Clock) may move back, a cache's age may not. */
  all(): Promise<ProductPermission[]> {
    const now = performance.now();
    if (!this.cached || this.cached.until <= now) {
      const read = this.grants.productPermissions();
      this.cached = { until: now + PRODUCT_CATALOGUE_TTL_MS, read };
      // A failed read is not kept: the next ask reads again.
      read.catch(() => this.cached?.read === read && (this.cached = undefined));
    }
    return this.cached.read;
  }

  async keys(): Promise<string[]> {
    return (await this.all()).map((permission) => permission.key);
  }

  /** After a change of the catalogue: this instance reads it again at the next ask. */
  forget(): void {
    this.cached = undefined;
  }
}
