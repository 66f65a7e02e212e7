-- Issue #34, decision 0024: an alarm records whether a phone call-out is due when it starts
-- (set by the alarm engine's insert); the voice dashboard counts and lists them by this index.
ALTER TABLE "alarms" ADD COLUMN "callout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "alarms_callout_idx" ON "alarms" USING btree ("started_at","id","owner_path","project_id") WHERE callout;--> statement-breakpoint
-- The /home/* routes need home:view, which hangs on a hidden 'dashboard' menu. Every role of an
-- existing install saw the dashboard until now, so each keeps it. A new install has no roles yet
-- here: the seed creates the menu and the code and grants it to the built-in roles.
INSERT INTO "menus" ("parent_id", "name", "name_en", "name_es", "name_ja", "menu_url", "menu_type", "sort", "icon", "identification", "is_show")
SELECT 0, '首页', 'Dashboard', 'Panel', 'ダッシュボード', '/dashboard', 0, 0, 'DashboardOutlined', 'dashboard', 0
WHERE EXISTS (SELECT 1 FROM "roles")
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT 'View the home dashboard', 'home:view', m."id" FROM "menus" m
WHERE m."identification" = 'dashboard' AND EXISTS (SELECT 1 FROM "roles")
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT r."id", p."id" FROM "roles" r, "permissions" p WHERE p."identification" = 'home:view'
ON CONFLICT DO NOTHING;
