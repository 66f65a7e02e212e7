-- The login log's counter (lib/paging.ts `versionedPage`, family 'login_logs'): a login log list's
-- remembered total (an administrator's filter on a username that logged in 10,000 times counted
-- 10,000 index entries per request) is true while this counter has not moved.
--
-- Raised by every statement that writes login logs: a login, a failure, a lockout and a logout
-- each insert one row as the last statement of their transaction, so the counter's row lock is
-- held only until that commit; a user's deletion sets its logs' user to null (an UPDATE). And by
-- any statement that moves users (their paths decide which logs a scoped caller sees, through the
-- join to users). BEFORE on users, after the devices' counter (triggers run in name order), so a
-- transaction that takes both takes them in one order.
INSERT INTO "list_versions" ("name") VALUES ('login_logs') ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TRIGGER "login_logs_list_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "login_logs" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('login_logs');--> statement-breakpoint
CREATE TRIGGER "users_login_logs_list_version" BEFORE UPDATE OF "path"
  ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "list_version_bump"('login_logs');
