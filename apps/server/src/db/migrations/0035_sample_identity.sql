-- A sample is identified by its device and its time (docs/PROTOCOL.md §2): a QoS 1 message sent
-- again (no PUBACK came, or the server restarted before sending it) must not add a second row.
-- The (device_id, ts) indexes of telemetry and device_positions become unique, and ingestion
-- writes with ON CONFLICT on them (ingest.repo.ts writeBatch). On the partitioned telemetry the
-- unique index is allowed because it includes ts, the partition key; every partition gets its
-- own, and partitions created later (PARTITION OF) get theirs when created.
--
-- Rows already stored more than once are merged first. Telemetry: one row per (device, ts), its
-- values those of every copy merged with `||` in arrival order (received_at, then the order the
-- copies were written in), so no parameter is lost and a later copy's value wins; received_at
-- is the first copy's. GPS fixes: the lowest id of each (device, ts) is kept.
--
-- Cost on a deployed database: both tables are read once to find the copies and their indexes
-- built again, in the migration's transaction, before the server listens (docs/OPERATIONS.md,
-- "Upgrading to migration 0035").
WITH "copies" AS (
  DELETE FROM "telemetry" t
  USING (SELECT "device_id", "ts" FROM "telemetry" GROUP BY "device_id", "ts" HAVING count(*) > 1) d
  WHERE t."device_id" = d."device_id" AND t."ts" = d."ts"
  RETURNING t."device_id", t."ts", t."received_at", t."vals", t.ctid AS "at"
)
INSERT INTO "telemetry" ("device_id", "ts", "received_at", "vals")
SELECT c."device_id", c."ts", min(c."received_at"),
  coalesce(jsonb_object_agg(e.key, e.value ORDER BY c."received_at", c."at") FILTER (WHERE e.key IS NOT NULL), '{}'::jsonb)
FROM "copies" c
LEFT JOIN LATERAL jsonb_each(c."vals") e ON true
GROUP BY c."device_id", c."ts";--> statement-breakpoint
DELETE FROM "device_positions" p
USING (SELECT "device_id", "ts", min("id") AS "keep" FROM "device_positions" GROUP BY "device_id", "ts" HAVING count(*) > 1) d
WHERE p."device_id" = d."device_id" AND p."ts" = d."ts" AND p."id" <> d."keep";--> statement-breakpoint
DROP INDEX "device_positions_device_ts_idx";--> statement-breakpoint
DROP INDEX "telemetry_device_ts_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "device_positions_device_ts_idx" ON "device_positions" USING btree ("device_id","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "telemetry_device_ts_idx" ON "telemetry" USING btree ("device_id","ts");
