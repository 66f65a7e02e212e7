-- Issue #36: external devices and their upgrades (/upgrade/external) exist now; show the menu and
-- its parent on installs seeded while the page was "not available". The seed shows them on new
-- installs (db/seed/menus.ts).
UPDATE "menus" SET "is_show" = 1 WHERE "identification" IN ('upgrade', 'upgrade-external');
