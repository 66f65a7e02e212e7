-- Issue #38: the agent view (/rent/overview: stores, stock, open rentals, revenue) under Rentals
-- and sales, with its code rent:overview, on an existing install: SUPERADMIN and ADMIN get it as
-- the seed grants it on a new install, and so does every role that may list rentals. Also
-- rent:command (a lost pack's discharge off), for SUPERADMIN and ADMIN only.
INSERT INTO "menus" ("parent_id", "name", "name_en", "name_es", "name_ja", "menu_url", "menu_type", "sort", "icon", "identification", "is_show")
SELECT p."id", '经营概览', 'Agent view', 'Vista del agente', '代理店ビュー', 'overview', 0, 0, 'BarChartOutlined', 'rent-overview', 1
FROM "menus" p
WHERE p."identification" = 'rent'
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT 'See the agent view: stock, open rentals and revenue', 'rent:overview', m."id" FROM "menus" m
WHERE m."identification" = 'rent-overview'
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT 'Turn a lost pack’s discharge off', 'rent:command', m."id" FROM "menus" m
WHERE m."identification" = 'rent-index'
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT r."id", p."id"
FROM "roles" r
CROSS JOIN "permissions" p
WHERE p."identification" = 'rent:command' AND r."identification" IN ('SUPERADMIN', 'ADMIN')
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT DISTINCT r."id", p."id"
FROM "roles" r
CROSS JOIN "permissions" p
WHERE p."identification" = 'rent:overview'
  AND (r."identification" IN ('SUPERADMIN', 'ADMIN')
       OR EXISTS (SELECT 1 FROM "role_permissions" rp JOIN "permissions" held ON held."id" = rp."permission_id"
                  WHERE rp."role_id" = r."id" AND held."identification" = 'rent:list'))
ON CONFLICT DO NOTHING;
