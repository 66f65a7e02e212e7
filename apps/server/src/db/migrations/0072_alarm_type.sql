-- The device's type on the alarm row, copied by PostgreSQL as 0030 copies its owner and project
-- (on insert, and when a device's type changes): the alarm list filtered by type counted its
-- matches across a join to the device of every alarm (80-220 ms a statement at a million
-- devices, bench/README.md); it reads the alarms' own type index now.
ALTER TABLE "alarms" ADD COLUMN "type_id" integer;--> statement-breakpoint
UPDATE "alarms" a SET "type_id" = d."type_id" FROM "devices" d WHERE d."id" = a."device_id";--> statement-breakpoint
CREATE INDEX "alarms_type_idx" ON "alarms" USING btree ("type_id","started_at");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "alarms_scope_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o text;
  p integer;
  t integer;
BEGIN
  SELECT d."owner_path", d."project_id", d."type_id" INTO o, p, t FROM "devices" d WHERE d."id" = NEW."device_id";
  -- No such device: the foreign key refuses the row.
  IF FOUND THEN
    NEW."owner_path" := o;
    NEW."project_id" := p;
    NEW."type_id" := t;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "devices_alarm_scope"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "alarms" SET "owner_path" = NEW."owner_path", "project_id" = NEW."project_id", "type_id" = NEW."type_id"
    WHERE "device_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "devices_alarm_scope" ON "devices";--> statement-breakpoint
CREATE TRIGGER "devices_alarm_scope" AFTER UPDATE OF "owner_path", "project_id", "type_id" ON "devices"
  FOR EACH ROW WHEN (OLD."owner_path" IS DISTINCT FROM NEW."owner_path" OR OLD."project_id" IS DISTINCT FROM NEW."project_id"
    OR OLD."type_id" IS DISTINCT FROM NEW."type_id")
  EXECUTE FUNCTION "devices_alarm_scope"();
