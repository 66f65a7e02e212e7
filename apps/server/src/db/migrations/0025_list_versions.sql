CREATE TABLE "list_versions" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The device lists' counter (schema/projects.ts `listVersions`): raised by any statement that can
-- change which devices a list matches or a caller sees. BEFORE the statement, so a transaction
-- takes the counter's row lock before any device row it changes: console transactions that change
-- devices queue on it in one order and cannot deadlock each other through it; ingestion and the
-- alarm engine (online, position, warning level) never take it.
INSERT INTO "list_versions" ("name") VALUES ('devices');--> statement-breakpoint
CREATE FUNCTION "list_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "list_versions" SET "version" = "version" + 1 WHERE "name" = TG_ARGV[0];
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_list_version" BEFORE INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF "sn", "name", "imei", "sim_number", "type_id", "project_id", "parent_id", "owner_path", "enabled"
  ON "devices" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('devices');--> statement-breakpoint
CREATE TRIGGER "projects_list_version" BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF "owner_path"
  ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('devices');--> statement-breakpoint
CREATE TRIGGER "project_users_list_version" BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE
  ON "project_users" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('devices');--> statement-breakpoint
CREATE TRIGGER "users_list_version" BEFORE DELETE OR TRUNCATE OR UPDATE OF "path"
  ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('devices');
