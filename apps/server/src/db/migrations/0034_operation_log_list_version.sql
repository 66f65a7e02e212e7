-- The operation logs' counter (lib/keyset.ts page anchors, family 'operation_logs'): a deep page
-- of the operation logs (page 5,000 walked 50,000 index entries per request) starts at a
-- remembered row while this counter has not moved.
--
-- Raised once by every transaction that inserts operation logs, at COMMIT (a deferred constraint
-- trigger, as the alarms' counter in 0028): every change through the API writes its row inside
-- its own transaction, which then holds the counter's row lock only while committing, so changes
-- never queue on each other through it. Updates, deletions and truncation (scripts, clean-ups)
-- raise it per statement, before they run: one event per statement, not one per deleted row.
INSERT INTO "list_versions" ("name") VALUES ('operation_logs') ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "list_version_bump_once"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transaction-local flag per counter: the first row's trigger raises it, the others see it set.
  IF current_setting('iot.list_version_' || TG_ARGV[0], true) IS DISTINCT FROM 'raised' THEN
    PERFORM set_config('iot.list_version_' || TG_ARGV[0], 'raised', true);
    UPDATE "list_versions" SET "version" = "version" + 1 WHERE "name" = TG_ARGV[0];
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "operation_logs_list_version" AFTER INSERT ON "operation_logs"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "list_version_bump_once"('operation_logs');--> statement-breakpoint
CREATE TRIGGER "operation_logs_list_version_change" BEFORE UPDATE OR DELETE OR TRUNCATE ON "operation_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('operation_logs');
