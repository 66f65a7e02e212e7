CREATE TABLE "alarm_counts" (
	"owner_path" text NOT NULL,
	"project_id" integer NOT NULL,
	"level" smallint NOT NULL,
	"state" varchar(12) NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "alarm_counts_owner_path_project_id_level_state_pk" PRIMARY KEY("owner_path","project_id","level","state")
);
--> statement-breakpoint
-- The dashboard's totals per level (all, untreated) over every alarm of a scope, kept per owner
-- path, project (0: none), level and state by statement triggers: each statement on "alarms"
-- applies its rows' net deltas in one upsert, in key order, so two batches never wait on each
-- other in opposite orders. Statement-level: an UPDATE trigger with transition tables cannot name
-- columns, so every update of alarms runs it; an update that changes none of the four (an alarm
-- ended) nets to nothing and writes no row.
CREATE FUNCTION "alarm_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "alarm_counts" AS c ("owner_path", "project_id", "level", "state", "n")
    SELECT "owner_path", coalesce("project_id", 0), "level", "state", count(*)
    FROM "added" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("owner_path", "project_id", "level", "state") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "alarm_counts" AS c ("owner_path", "project_id", "level", "state", "n")
    SELECT "owner_path", coalesce("project_id", 0), "level", "state", -count(*)
    FROM "removed" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("owner_path", "project_id", "level", "state") DO UPDATE SET "n" = c."n" + excluded."n";
  ELSE
    INSERT INTO "alarm_counts" AS c ("owner_path", "project_id", "level", "state", "n")
    SELECT "owner_path", "project_id", "level", "state", sum("d")
    FROM (
      SELECT "owner_path", coalesce("project_id", 0) AS "project_id", "level", "state", 1 AS "d" FROM "added"
      UNION ALL
      SELECT "owner_path", coalesce("project_id", 0), "level", "state", -1 FROM "removed"
    ) x
    GROUP BY 1, 2, 3, 4 HAVING sum("d") <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("owner_path", "project_id", "level", "state") DO UPDATE SET "n" = c."n" + excluded."n";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alarm_counts_insert" AFTER INSERT ON "alarms" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "alarm_counts_delete" AFTER DELETE ON "alarms" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "alarm_counts_update" AFTER UPDATE ON "alarms" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_counts_apply"();--> statement-breakpoint
CREATE FUNCTION "alarm_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alarm_counts";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alarm_counts_truncate" AFTER TRUNCATE ON "alarms"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_counts_clear"();--> statement-breakpoint
LOCK TABLE "alarms" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "alarm_counts" ("owner_path", "project_id", "level", "state", "n")
SELECT "owner_path", coalesce("project_id", 0), "level", "state", count(*) FROM "alarms" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
DROP INDEX "alarms_home_level_idx";
