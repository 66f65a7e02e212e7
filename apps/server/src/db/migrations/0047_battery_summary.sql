CREATE TABLE "device_battery" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"soc" double precision,
	"current" double precision,
	"state" varchar(12),
	"max_cell_temp" double precision,
	"cell_delta_mv" double precision,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_battery_state_chk" CHECK (state in ('charging', 'discharging', 'idle'))
);
--> statement-breakpoint
CREATE TABLE "battery_energy_hour" (
	"bucket" timestamp with time zone NOT NULL,
	"owner_path" text NOT NULL,
	"project_id" integer,
	"charged_kwh" double precision NOT NULL,
	"discharged_kwh" double precision NOT NULL,
	"devices" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_battery" ADD CONSTRAINT "device_battery_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_battery_soc_idx" ON "device_battery" USING btree ("soc","device_id");--> statement-breakpoint
CREATE INDEX "device_battery_temp_idx" ON "device_battery" USING btree ("max_cell_temp" DESC NULLS LAST,"device_id");--> statement-breakpoint
CREATE INDEX "device_battery_delta_idx" ON "device_battery" USING btree ("cell_delta_mv" DESC NULLS LAST,"device_id");--> statement-breakpoint
CREATE INDEX "battery_energy_hour_bucket_idx" ON "battery_energy_hour" USING btree ("bucket");--> statement-breakpoint
CREATE INDEX "battery_energy_hour_owner_idx" ON "battery_energy_hour" USING btree ("owner_path" text_pattern_ops,"bucket");--> statement-breakpoint
CREATE INDEX "battery_energy_hour_project_idx" ON "battery_energy_hour" USING btree ("project_id","bucket");--> statement-breakpoint
-- Backfill (hand-written, the same rules as telemetry/ingest.repo.ts upsertBattery and
-- telemetry/rollup.repo.ts energyHours): the battery summary of every device from its latest
-- values, the energy of every hour already rolled up.
INSERT INTO "device_battery" ("device_id", "soc", "current", "state", "max_cell_temp", "cell_delta_mv", "updated_at")
SELECT l.device_id, s.soc, s.cur,
  CASE WHEN s.cur IS NULL THEN NULL WHEN abs(s.cur) < 0.3 THEN 'idle' WHEN s.cur > 0 THEN 'charging' ELSE 'discharging' END,
  s.temp, CASE WHEN s.cells >= 2 THEN round(((s.vmax - s.vmin) * 1000)::numeric, 3)::float8 END, l.ts
FROM device_latest l
CROSS JOIN LATERAL (
  SELECT max(x.n) FILTER (WHERE e.k = '02109001') AS soc, max(x.n) FILTER (WHERE e.k = '01112001') AS cur,
    max(x.n) FILTER (WHERE e.k LIKE '01119___') AS temp,
    max(x.n) FILTER (WHERE e.k LIKE '01117___') AS vmax, min(x.n) FILTER (WHERE e.k LIKE '01117___') AS vmin,
    count(x.n) FILTER (WHERE e.k LIKE '01117___') AS cells
  FROM jsonb_each(l.vals) e(k, v)
  CROSS JOIN LATERAL (SELECT CASE WHEN jsonb_typeof(e.v -> 0) = 'number' THEN
    CASE WHEN abs((e.v -> 0)::numeric) < 1e15 THEN (e.v -> 0)::float8 END END AS n) x
  WHERE e.k IN ('02109001', '01112001') OR e.k LIKE '01117___' OR e.k LIKE '01119___'
) s
WHERE l.vals ?| array['02109001', '01112001']
  OR EXISTS (SELECT 1 FROM jsonb_object_keys(l.vals) k WHERE k LIKE '01117___' OR k LIKE '01119___');
--> statement-breakpoint
INSERT INTO "battery_energy_hour" ("bucket", "owner_path", "project_id", "charged_kwh", "discharged_kwh", "devices")
SELECT e.bucket, d.owner_path, d.project_id, sum(e.charged), sum(e.discharged), count(*)::int
FROM (
  SELECT device_id, bucket,
    greatest(coalesce(lead(c_lo) OVER w, c_hi) - c_lo, 0) * (v_lo + v_hi) / 2 / 1000 AS charged,
    greatest(coalesce(lead(d_lo) OVER w, d_hi) - d_lo, 0) * (v_lo + v_hi) / 2 / 1000 AS discharged
  FROM (
    SELECT r.device_id, r.bucket,
      (r.mm -> '02117001' ->> 0)::float8 AS c_lo, (r.mm -> '02117001' ->> 2)::float8 AS c_hi,
      (r.mm -> '02116001' ->> 0)::float8 AS d_lo, (r.mm -> '02116001' ->> 2)::float8 AS d_hi,
      (r.mm -> '01111001' ->> 0)::float8 AS v_lo, (r.mm -> '01111001' ->> 2)::float8 AS v_hi
    FROM telemetry_rollup_hour r
    WHERE r.mm ?& array['02117001', '02116001', '01111001']
  ) h
  WINDOW w AS (PARTITION BY device_id, (bucket AT TIME ZONE 'UTC')::date ORDER BY bucket)
) e
JOIN devices d ON d.id = e.device_id
GROUP BY e.bucket, d.owner_path, d.project_id;
