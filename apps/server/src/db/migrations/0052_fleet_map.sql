-- Issue #35: the fleet map (/project/map) needs map:view, on a new sidebar entry under Projects.
-- Every role of an existing install that may list or open devices gets it, so operators find
-- their devices on the map without an administrator's grant. A new install has no roles yet
-- here: the seed creates the menu and the code and grants them to the built-in roles.
INSERT INTO "menus" ("parent_id", "name", "name_en", "name_es", "name_ja", "menu_url", "menu_type", "sort", "icon", "identification", "is_show")
SELECT p."id", '设备地图', 'Device map', 'Mapa de dispositivos', 'デバイスマップ', 'map', 0, 2, 'EnvironmentOutlined', 'project-map', 1
FROM "menus" p
WHERE p."identification" = 'project' AND EXISTS (SELECT 1 FROM "roles")
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT 'View devices on the map', 'map:view', m."id" FROM "menus" m
WHERE m."identification" = 'project-map'
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT DISTINCT rp."role_id", p."id"
FROM "role_permissions" rp
JOIN "permissions" held ON held."id" = rp."permission_id" AND held."identification" IN ('device:list', 'device:detail')
CROSS JOIN "permissions" p
WHERE p."identification" = 'map:view'
ON CONFLICT DO NOTHING;
