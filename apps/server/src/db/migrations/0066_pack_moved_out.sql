-- A stocked pack moved where its store's owner cannot reach it (issue #38): one rule in the
-- database for every path that changes a device's project or owner (device edit, batch move,
-- project delete and transfer). When the store's owner line manages the device neither by its
-- owner nor by its project any more, the pack leaves the store (its recorded fault with it) and
-- an operation-log row by "system" in the store owner's line names it; a pack in an open rental
-- (reserved, active, overdue) refuses the move instead (check violation
-- `devices_store_open_rental`, answered 40900 packMovedOut with the SN in the detail).
CREATE FUNCTION "devices_store_scope"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s_path text;
  p_path text;
BEGIN
  SELECT s."owner_path" INTO s_path FROM "stores" s WHERE s."id" = NEW."store_id";
  IF NOT FOUND OR left(NEW."owner_path", length(s_path)) = s_path THEN
    RETURN NEW;
  END IF;
  SELECT p."owner_path" INTO p_path FROM "projects" p WHERE p."id" = NEW."project_id";
  IF p_path IS NOT NULL AND left(p_path, length(s_path)) = s_path THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM "rentals" r WHERE r."device_id" = NEW."id" AND r."state" IN ('reserved', 'active', 'overdue')) THEN
    RAISE EXCEPTION 'pack % is in an open rental at its store', NEW."sn"
      USING ERRCODE = '23514', CONSTRAINT = 'devices_store_open_rental', DETAIL = NEW."sn";
  END IF;
  INSERT INTO "operation_logs" ("username", "user_path", "role", "action", "entity", "entity_id", "entity_name", "summary", "result")
    VALUES ('system', s_path, '', 'store.unstock', 'store', NEW."store_id"::text, NEW."sn",
      json_build_object('sn', json_build_array(NEW."sn"), 'movedOut', true, 'projectId', NEW."project_id")::text, 'success');
  NEW."store_id" := NULL;
  NEW."store_fault" := NULL;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_store_scope" BEFORE UPDATE OF "owner_path", "project_id" ON "devices"
  FOR EACH ROW
  WHEN (NEW."store_id" IS NOT NULL AND (OLD."owner_path" IS DISTINCT FROM NEW."owner_path" OR OLD."project_id" IS DISTINCT FROM NEW."project_id"))
  EXECUTE FUNCTION "devices_store_scope"();
