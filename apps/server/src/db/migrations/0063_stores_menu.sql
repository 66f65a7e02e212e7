-- Issue #38: stores (/store/index) and rentals and sales (/rent/index), with their permission
-- codes, on an existing install. The built-in SUPERADMIN and ADMIN roles get the four codes, as the
-- seed grants them on a new install (which has no roles yet here, so nothing is inserted: the
-- seed creates the menus and codes from db/seed/menus.ts and the contract's PERMISSIONS).
INSERT INTO "menus" ("parent_id", "name", "name_en", "name_es", "name_ja", "menu_url", "menu_type", "sort", "icon", "identification", "is_show")
SELECT 0, v.name, v.name_en, v.name_es, v.name_ja, v.url, 1, v.sort, v.icon, v.ident, 1
FROM (VALUES
  ('门店管理', 'Stores', 'Tiendas', '店舗管理', '/store', 55, 'ShopOutlined', 'store'),
  ('租售管理', 'Rentals and sales', 'Alquileres y ventas', 'レンタル・販売', '/rent', 56, 'SwapOutlined', 'rent')
) AS v(name, name_en, name_es, name_ja, url, sort, icon, ident)
WHERE EXISTS (SELECT 1 FROM "roles")
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "menus" ("parent_id", "name", "name_en", "name_es", "name_ja", "menu_url", "menu_type", "sort", "icon", "identification", "is_show")
SELECT p."id", v.name, v.name_en, v.name_es, v.name_ja, 'index', 0, 1, v.icon, v.ident, 1
FROM (VALUES
  ('store', '门店列表', 'Store list', 'Lista de tiendas', '店舗一覧', 'ShopOutlined', 'store-index'),
  ('rent', '租售记录', 'Rentals', 'Alquileres', 'レンタル一覧', 'SwapOutlined', 'rent-index')
) AS v(parent, name, name_en, name_es, name_ja, icon, ident)
JOIN "menus" p ON p."identification" = v.parent
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT v.name, v.code, m."id"
FROM (VALUES
  ('List stores and their stock', 'store:list', 'store-index'),
  ('Manage stores and their stock', 'store:edit', 'store-index'),
  ('List rentals and sales', 'rent:list', 'rent-index'),
  ('Rent, sell and return packs', 'rent:edit', 'rent-index')
) AS v(name, code, menu)
JOIN "menus" m ON m."identification" = v.menu
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT r."id", p."id"
FROM "roles" r
CROSS JOIN "permissions" p
WHERE r."identification" IN ('SUPERADMIN', 'ADMIN') AND p."identification" IN ('store:list', 'store:edit', 'rent:list', 'rent:edit')
ON CONFLICT DO NOTHING;
