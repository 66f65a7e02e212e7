-- Issue 33. Existing installs get what the seed now gives new ones, where the row still holds the
-- seeded value (an administrator's own name or choice stays):
-- 1. /sys/user was "Users" beside the "Users" group: it lists company accounts (user type 1).
UPDATE "menus" SET "name" = '企业账号' WHERE "identification" = 'sys-user' AND "name" = '用户';--> statement-breakpoint
UPDATE "menus" SET "name_en" = 'Company accounts' WHERE "identification" = 'sys-user' AND "name_en" = 'Users';--> statement-breakpoint
UPDATE "menus" SET "name_es" = 'Cuentas de empresa' WHERE "identification" = 'sys-user' AND "name_es" = 'Usuarios';--> statement-breakpoint
UPDATE "menus" SET "name_ja" = '企業アカウント' WHERE "identification" = 'sys-user' AND "name_ja" = 'ユーザー';--> statement-breakpoint
-- 2. The upgrade pages are not built: /sys/menu listed them shown while the sidebar left them out.
-- The sidebar now shows exactly what /sys/menu says, so they are hidden here.
UPDATE "menus" SET "is_show" = 0 WHERE "identification" IN ('upgrade', 'upgrade-version', 'upgrade-device', 'upgrade-external');
