-- The SQL of idempotency.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- IdempotencyStore.claim
INSERT INTO "idempotency_keys"("caller_id", "idempotency_key", "request_hash", "claim_id", "claimed_until", "response_status", "response_body", "created_at") VALUES (?, ?, ?, ?, ?, ?, ?, ?);

-- IdempotencyStore.find
SELECT "IdempotencyKeyEntity"."caller_id" AS "IdempotencyKeyEntity_caller_id", "IdempotencyKeyEntity"."idempotency_key" AS "IdempotencyKeyEntity_idempotency_key", "IdempotencyKeyEntity"."request_hash" AS "IdempotencyKeyEntity_request_hash", "IdempotencyKeyEntity"."claim_id" AS "IdempotencyKeyEntity_claim_id", "IdempotencyKeyEntity"."claimed_until" AS "IdempotencyKeyEntity_claimed_until", "IdempotencyKeyEntity"."response_status" AS "IdempotencyKeyEntity_response_status", "IdempotencyKeyEntity"."response_body" AS "IdempotencyKeyEntity_response_body", "IdempotencyKeyEntity"."created_at" AS "IdempotencyKeyEntity_created_at" FROM "idempotency_keys" "IdempotencyKeyEntity" WHERE (("IdempotencyKeyEntity"."caller_id" = ?) AND ("IdempotencyKeyEntity"."idempotency_key" = ?)) LIMIT 1;

-- IdempotencyStore.takeOver
UPDATE "idempotency_keys" SET "claim_id" = ?, "claimed_until" = ? WHERE ("caller_id" = ? AND "idempotency_key" = ? AND "claim_id" = ? AND "response_status" IS NULL);

-- IdempotencyStore.complete
UPDATE "idempotency_keys" SET "response_status" = 201, "response_body" = ?, "claim_id" = ?, "claimed_until" = ? WHERE ("caller_id" = ? AND "idempotency_key" = ? AND "claim_id" = ?);

-- IdempotencyStore.release
DELETE FROM "idempotency_keys" WHERE ("caller_id" = ? AND "idempotency_key" = ? AND "claim_id" = ? AND "response_status" IS NULL);

-- IdempotencyStore.deleteIfCreatedBefore
DELETE FROM "idempotency_keys" WHERE ("caller_id" = ? AND "idempotency_key" = ? AND "created_at" < ?);

-- IdempotencyStore.deleteCreatedBefore
DELETE FROM "idempotency_keys" WHERE "created_at" < ?;
