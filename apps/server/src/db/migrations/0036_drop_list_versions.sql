-- The list counters (0025, 0028, 0031, 0033, 0034) and their triggers go: lists count their
-- capped totals per request (docs/decisions/0010). Every console change to devices, projects,
-- users and logs took the counter's row lock, so a device edit queued behind a running import.
DROP TRIGGER IF EXISTS "devices_list_version" ON "devices";--> statement-breakpoint
DROP TRIGGER IF EXISTS "projects_list_version" ON "projects";--> statement-breakpoint
DROP TRIGGER IF EXISTS "project_users_list_version" ON "project_users";--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_list_version" ON "users";--> statement-breakpoint
DROP TRIGGER IF EXISTS "users_login_logs_list_version" ON "users";--> statement-breakpoint
DROP TRIGGER IF EXISTS "alarms_list_version" ON "alarms";--> statement-breakpoint
DROP TRIGGER IF EXISTS "alarms_list_version_truncate" ON "alarms";--> statement-breakpoint
DROP TRIGGER IF EXISTS "login_logs_list_version" ON "login_logs";--> statement-breakpoint
DROP TRIGGER IF EXISTS "operation_logs_list_version" ON "operation_logs";--> statement-breakpoint
DROP TRIGGER IF EXISTS "operation_logs_list_version_change" ON "operation_logs";--> statement-breakpoint
DROP FUNCTION IF EXISTS "list_version_bump"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "alarms_list_version_bump"();--> statement-breakpoint
DROP FUNCTION IF EXISTS "list_version_bump_once"();--> statement-breakpoint
DROP TABLE "list_versions" CASCADE;
