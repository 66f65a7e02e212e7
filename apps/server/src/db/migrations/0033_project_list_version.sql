-- Project list totals are remembered against the devices' list counter (lib/paging.ts
-- `versionedPage`, family 'devices'; project.repo.ts listProjects), which already moves with a
-- project's insertion, deletion and owner path, with project members and with users' paths. A
-- project list also filters on a project's name and owner: those changes move it too.
DROP TRIGGER "projects_list_version" ON "projects";--> statement-breakpoint
CREATE TRIGGER "projects_list_version" BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF "owner_path", "owner_id", "name"
  ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('devices');
