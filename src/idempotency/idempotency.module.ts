import { Module } from '@nestjs/common';
import { IdempotencyKeyPurge } from './idempotency-key-purge';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotencyStore } from './idempotency.store';

/** Idempotency-Key (docs/organisation.md) on the routes that list IdempotencyGuard and carry @Idempotent(). */
@Module({
  providers: [IdempotencyStore, IdempotencyGuard, IdempotencyKeyPurge],
  exports: [IdempotencyStore, IdempotencyGuard],
})
export class IdempotencyModule {}
