-- The SQL of audit-events.store.ts on SQLite: what better-sqlite3 runs, a statement per line.
-- Written by test/sql-snapshots.integration-spec.ts: do not edit.

-- AuditEventsStore.list, first page
SELECT "event"."id" AS "event_id", "event"."type" AS "event_type", "event"."occurred_at" AS "event_occurred_at", "event"."tenant_id" AS "event_tenant_id", "event"."actor_id" AS "event_actor_id", "event"."actor_email" AS "event_actor_email", "event"."target_type" AS "event_target_type", "event"."target_id" AS "event_target_id", "event"."target_email" AS "event_target_email", "event"."data" AS "event_data" FROM "audit_events" "event" ORDER BY "event"."occurred_at" DESC, "event"."id" DESC LIMIT 51;

-- AuditEventsStore.list, every filter, after a cursor
SELECT "event"."id" AS "event_id", "event"."type" AS "event_type", "event"."occurred_at" AS "event_occurred_at", "event"."tenant_id" AS "event_tenant_id", "event"."actor_id" AS "event_actor_id", "event"."actor_email" AS "event_actor_email", "event"."target_type" AS "event_target_type", "event"."target_id" AS "event_target_id", "event"."target_email" AS "event_target_email", "event"."data" AS "event_data" FROM "audit_events" "event" WHERE "event"."tenant_id" = ? AND "event"."type" IN (?) AND "event"."actor_id" = ? AND "event"."target_id" = ? AND "event"."occurred_at" >= ? AND "event"."occurred_at" <= ? AND "event"."occurred_at" <= ? AND ("event"."occurred_at" < ? OR "event"."id" < ?) ORDER BY "event"."occurred_at" DESC, "event"."id" DESC LIMIT 51;
SELECT "event"."id" AS "event_id", "event"."type" AS "event_type", "event"."occurred_at" AS "event_occurred_at", "event"."tenant_id" AS "event_tenant_id", "event"."actor_id" AS "event_actor_id", "event"."actor_email" AS "event_actor_email", "event"."target_type" AS "event_target_type", "event"."target_id" AS "event_target_id", "event"."target_email" AS "event_target_email", "event"."data" AS "event_data" FROM "audit_events" "event" WHERE "event"."tenant_id" = ? AND "event"."type" IN (?) AND "event"."actor_id" = ? AND "event"."target_id" = ? AND "event"."occurred_at" >= ? AND "event"."occurred_at" <= ? AND "event"."occurred_at" <= ? AND ("event"."occurred_at" < ? OR "event"."id" < ?) ORDER BY "event"."occurred_at" DESC, "event"."id" DESC LIMIT 51;

-- AuditEventsStore.deleteBefore
SELECT "AuditEventEntity"."id" AS "AuditEventEntity_id" FROM "audit_events" "AuditEventEntity" WHERE (("AuditEventEntity"."occurred_at" < ?)) ORDER BY "AuditEventEntity"."occurred_at" ASC LIMIT 1000;
DELETE FROM "audit_events" WHERE "id" IN (?);
