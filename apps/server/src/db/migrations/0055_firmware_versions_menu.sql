-- Issue #36: firmware versions (/upgrade/version) are built; the Upgrades menu and its Versions
-- entry show. The other two entries stay hidden until their pages exist. A new install gets the
-- same from the seed.
UPDATE "menus" SET "is_show" = 1 WHERE "identification" IN ('upgrade', 'upgrade-version');
