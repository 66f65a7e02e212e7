-- The session cache (modules/auth/session-cache.ts) hears here what can change a signed-in
-- request's answer: a session revoked, expired by hand, slid or deleted (its ids, or '*' past
-- 200), and any change to users, roles, permissions or a role's permissions ('*': every cached
-- session is read again). Every server process LISTENs on "auth_changed"; a process whose
-- listener is down serves no session from its cache.
CREATE FUNCTION "auth_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    SELECT string_agg(id::text, ',') INTO ids FROM (SELECT id FROM changed LIMIT 201) s;
    IF ids IS NULL THEN
      RETURN NULL;
    ELSIF array_length(string_to_array(ids, ','), 1) > 200 THEN
      PERFORM pg_notify('auth_changed', '*');
    ELSE
      PERFORM pg_notify('auth_changed', 's:' || ids);
    END IF;
  ELSIF EXISTS (SELECT 1 FROM changed) THEN
    PERFORM pg_notify('auth_changed', '*');
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sessions_auth_changed_update" AFTER UPDATE ON "sessions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "sessions_auth_changed_delete" AFTER DELETE ON "sessions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "users_auth_changed_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "users_auth_changed_delete" AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "roles_auth_changed_update" AFTER UPDATE ON "roles"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "roles_auth_changed_delete" AFTER DELETE ON "roles"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "permissions_auth_changed_update" AFTER UPDATE ON "permissions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "permissions_auth_changed_delete" AFTER DELETE ON "permissions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "role_permissions_auth_changed_insert" AFTER INSERT ON "role_permissions"
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "role_permissions_auth_changed_update" AFTER UPDATE ON "role_permissions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();--> statement-breakpoint
CREATE TRIGGER "role_permissions_auth_changed_delete" AFTER DELETE ON "role_permissions"
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_notify"();
