CREATE TABLE "alarm_project_days" (
	"project_id" integer NOT NULL,
	"day" date NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "alarm_project_days_project_id_day_pk" PRIMARY KEY("project_id","day")
);
--> statement-breakpoint
CREATE TABLE "alarm_trend_lines" (
	"path" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"level" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "alarm_trend_lines_path_at_level_pk" PRIMARY KEY("path","at","level")
);
--> statement-breakpoint
CREATE TABLE "alarm_trend_projects" (
	"project_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"owner_path" text NOT NULL,
	"level" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "alarm_trend_projects_project_id_at_owner_path_level_pk" PRIMARY KEY("project_id","at","owner_path","level")
);
--> statement-breakpoint
-- The dashboard's trend and top 5 projects (decision 0041), kept like "alarm_counts" (0049): one
-- statement per statement on "alarms", each counter table's rows taken in key order. "d" holds the
-- statement's alarms with +1 (added) or -1 (removed); an update that moves none of started_at,
-- level, owner path or project (an alarm ended or processed) adds nothing. Buckets of 15 minutes
-- in UTC: every time zone's midnight falls on one. Line rows go to every ancestor of the owner
-- path and to "/" (all alarms); project rows only for alarms in a project.
CREATE FUNCTION "alarm_trend_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    src := 'SELECT "owner_path", "project_id", "level", "started_at", 1 AS "delta" FROM "added"';
  ELSIF TG_OP = 'DELETE' THEN
    src := 'SELECT "owner_path", "project_id", "level", "started_at", -1 AS "delta" FROM "removed"';
  ELSE
    src := 'SELECT x.* FROM "added" a JOIN "removed" r ON r."id" = a."id"
      CROSS JOIN LATERAL (VALUES (a."owner_path", a."project_id", a."level", a."started_at", 1),
                                 (r."owner_path", r."project_id", r."level", r."started_at", -1))
        AS x ("owner_path", "project_id", "level", "started_at", "delta")
      WHERE (a."owner_path", a."project_id", a."level", a."started_at")
        IS DISTINCT FROM (r."owner_path", r."project_id", r."level", r."started_at")';
  END IF;
  EXECUTE 'WITH "d" AS MATERIALIZED (' || src || '),
    "lines" AS (
      INSERT INTO "alarm_trend_lines" AS c ("path", "at", "level", "n")
      SELECT p."path", date_bin(''15 minutes'', d."started_at", timestamptz ''2000-01-01 00:00:00+00''), d."level", sum(d."delta")
      FROM "d" CROSS JOIN LATERAL (
        SELECT ''/'' AS "path"
        UNION SELECT left(d."owner_path", i) FROM generate_series(2, length(d."owner_path")) i WHERE substr(d."owner_path", i, 1) = ''/''
      ) p
      GROUP BY 1, 2, 3 HAVING sum(d."delta") <> 0 ORDER BY 1, 2, 3
      ON CONFLICT ("path", "at", "level") DO UPDATE SET "n" = c."n" + excluded."n"),
    "projects" AS (
      INSERT INTO "alarm_trend_projects" AS c ("project_id", "at", "owner_path", "level", "n")
      SELECT "project_id", date_bin(''15 minutes'', "started_at", timestamptz ''2000-01-01 00:00:00+00''), "owner_path", "level", sum("delta")
      FROM "d" WHERE "project_id" IS NOT NULL
      GROUP BY 1, 2, 3, 4 HAVING sum("delta") <> 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT ("project_id", "at", "owner_path", "level") DO UPDATE SET "n" = c."n" + excluded."n")
    INSERT INTO "alarm_project_days" AS c ("project_id", "day", "n")
    SELECT "project_id", ("started_at" AT TIME ZONE ''UTC'')::date, sum("delta")
    FROM "d" WHERE "project_id" IS NOT NULL
    GROUP BY 1, 2 HAVING sum("delta") <> 0 ORDER BY 1, 2
    ON CONFLICT ("project_id", "day") DO UPDATE SET "n" = c."n" + excluded."n"';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alarm_trend_insert" AFTER INSERT ON "alarms" REFERENCING NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_trend_apply"();--> statement-breakpoint
CREATE TRIGGER "alarm_trend_delete" AFTER DELETE ON "alarms" REFERENCING OLD TABLE AS "removed"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_trend_apply"();--> statement-breakpoint
CREATE TRIGGER "alarm_trend_update" AFTER UPDATE ON "alarms" REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_trend_apply"();--> statement-breakpoint
CREATE FUNCTION "alarm_trend_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "alarm_trend_lines";
  DELETE FROM "alarm_trend_projects";
  DELETE FROM "alarm_project_days";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "alarm_trend_truncate" AFTER TRUNCATE ON "alarms"
  FOR EACH STATEMENT EXECUTE FUNCTION "alarm_trend_clear"();--> statement-breakpoint
LOCK TABLE "alarms" IN SHARE MODE;--> statement-breakpoint
INSERT INTO "alarm_trend_lines" ("path", "at", "level", "n")
SELECT p."path", date_bin('15 minutes', a."started_at", timestamptz '2000-01-01 00:00:00+00'), a."level", count(*)
FROM "alarms" a CROSS JOIN LATERAL (
  SELECT '/' AS "path"
  UNION SELECT left(a."owner_path", i) FROM generate_series(2, length(a."owner_path")) i WHERE substr(a."owner_path", i, 1) = '/'
) p
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "alarm_trend_projects" ("project_id", "at", "owner_path", "level", "n")
SELECT "project_id", date_bin('15 minutes', "started_at", timestamptz '2000-01-01 00:00:00+00'), "owner_path", "level", count(*)
FROM "alarms" WHERE "project_id" IS NOT NULL GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "alarm_project_days" ("project_id", "day", "n")
SELECT "project_id", ("started_at" AT TIME ZONE 'UTC')::date, count(*)
FROM "alarms" WHERE "project_id" IS NOT NULL GROUP BY 1, 2;
