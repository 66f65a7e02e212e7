-- Issue #36: the device upgrade page (/upgrade/device) is built; its menu and the Upgrades group it
-- hangs under were seeded hidden until then. An install that already has them shows them now; a
-- new install gets them shown from the seed. An administrator who hides them later keeps that.
UPDATE "menus" SET "is_show" = 1 WHERE "identification" IN ('upgrade', 'upgrade-device');
