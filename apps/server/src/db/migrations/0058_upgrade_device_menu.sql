-- Issue #36: the device upgrade page (/upgrade/device) is built; its menu was seeded hidden until
-- then. An install that already has it shows it now (with the Upgrades group, which 0055 shows
-- already); a new install gets it shown from the seed.
UPDATE "menus" SET "is_show" = 1 WHERE "identification" IN ('upgrade', 'upgrade-device');
