-- The alarm lists' counter (lib/paging.ts `versionedPage`, family 'alarms'): raised once by every
-- transaction that inserts, changes or deletes alarms — the alarm engine's starts and ends, the
-- console's processing, a device's deletion cascading to its alarms, a script. An alarm list's
-- remembered total is true while this counter and the devices' one (scope, project, type, SN and
-- name of the alarms' devices) have not moved.
--
-- Raised at COMMIT (a deferred constraint trigger), once per transaction: a transaction holds the
-- counter's row lock only while committing, when it waits for nothing else, so no transaction can
-- wait for another through it in a cycle (the alarm engine takes device rows after its alarms; the
-- console's device deletion takes its device rows first).
INSERT INTO "list_versions" ("name") VALUES ('alarms') ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "alarms_list_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transaction-local flag: the first row's trigger raises the counter, the others see it set.
  IF current_setting('iot.alarms_list_version', true) IS DISTINCT FROM 'raised' THEN
    PERFORM set_config('iot.alarms_list_version', 'raised', true);
    UPDATE "list_versions" SET "version" = "version" + 1 WHERE "name" = 'alarms';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "alarms_list_version" AFTER INSERT OR UPDATE OR DELETE ON "alarms"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "alarms_list_version_bump"();--> statement-breakpoint
CREATE TRIGGER "alarms_list_version_truncate" BEFORE TRUNCATE ON "alarms"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('alarms');
