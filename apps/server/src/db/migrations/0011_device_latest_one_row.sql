ALTER TABLE "device_latest" ADD COLUMN "vals" jsonb;--> statement-breakpoint
-- Hand-written: fold the rows of each device (one per parameter) into one row per device, its
-- values as {semaphore id: [value, epoch ms]}; 0012 then drops the per-value columns and makes
-- device_id the key.
UPDATE "device_latest" l SET "vals" = a."vals", "ts" = a."ts"
FROM (
  SELECT "device_id",
    jsonb_object_agg("semaphore_id", jsonb_build_array("value", floor(extract(epoch FROM "ts") * 1000)::bigint)) AS "vals",
    max("ts") AS "ts", min("semaphore_id") AS "first"
  FROM "device_latest" GROUP BY "device_id"
) a
WHERE l."device_id" = a."device_id" AND l."semaphore_id" = a."first";--> statement-breakpoint
DELETE FROM "device_latest" WHERE "vals" IS NULL;
