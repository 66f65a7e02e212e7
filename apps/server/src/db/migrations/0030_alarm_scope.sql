-- The alarm's scope on the alarm row: its device's owner path and project, copied by PostgreSQL
-- (on insert, and when a device's owner or project changes), so that a scoped alarm list finds
-- its alarms from the alarm rows and one index instead of looking up the device of every alarm it
-- walks (an agent seeing 1 % of the devices walked 2,000 alarms and their devices for one page).
--
-- Lock order is unchanged: a device's move takes its row, then its alarms' rows, as ingestion
-- does (device rows first, ARCHITECTURE.md "Ingestion"); processing alarms takes no device row.
DROP INDEX "alarms_started_idx";--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "owner_path" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "alarms" ADD COLUMN "project_id" integer;--> statement-breakpoint
-- The alarm lists' counter fires at once here (it is deferred to COMMIT otherwise): the indexes
-- below cannot be made while a trigger event on the table is pending.
SET CONSTRAINTS "alarms_list_version" IMMEDIATE;--> statement-breakpoint
UPDATE "alarms" a SET "owner_path" = d."owner_path", "project_id" = d."project_id"
  FROM "devices" d WHERE d."id" = a."device_id";--> statement-breakpoint
SET CONSTRAINTS "alarms_list_version" DEFERRED;--> statement-breakpoint
CREATE INDEX "alarms_owner_path_idx" ON "alarms" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "alarms_project_idx" ON "alarms" USING btree ("project_id","started_at");--> statement-breakpoint
CREATE INDEX "alarms_started_idx" ON "alarms" USING btree ("started_at","id","owner_path","project_id");--> statement-breakpoint
CREATE FUNCTION "alarms_scope_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o text;
  p integer;
BEGIN
  SELECT d."owner_path", d."project_id" INTO o, p FROM "devices" d WHERE d."id" = NEW."device_id";
  -- No such device: the foreign key refuses the row.
  IF FOUND THEN
    NEW."owner_path" := o;
    NEW."project_id" := p;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alarms_scope_fill" BEFORE INSERT ON "alarms"
  FOR EACH ROW EXECUTE FUNCTION "alarms_scope_fill"();--> statement-breakpoint
CREATE FUNCTION "devices_alarm_scope"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "alarms" SET "owner_path" = NEW."owner_path", "project_id" = NEW."project_id"
    WHERE "device_id" = NEW."id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_alarm_scope" AFTER UPDATE OF "owner_path", "project_id" ON "devices"
  FOR EACH ROW WHEN (OLD."owner_path" IS DISTINCT FROM NEW."owner_path" OR OLD."project_id" IS DISTINCT FROM NEW."project_id")
  EXECUTE FUNCTION "devices_alarm_scope"();
