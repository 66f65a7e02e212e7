-- One severity scale (decision 0023): levels ascend with severity, 4 the most severe. The
-- built-in battery type was seeded the other way round (faults at 1, weak signal at 4); its rules
-- are re-levelled as a battery operator expects: cell over-voltage and battery fault 4, cell
-- temperature out of range and cell under-voltage 3, (low state of charge stays 2), weak signal 1.
--
-- Only rules still exactly as seeded (semaphore id, comparison, thresholds and the old level) of
-- the built-in type change: a level an administrator chose is kept. The ids before the built-in
-- type followed the field's conventions (10000201 cell temperature 1, 10000007 signal) are
-- matched too: the seed moves them after the migrations.
--
-- Open alarms of those rules, and the device alarms on their parameters that took their level
-- from them, follow (a rule alarm gets the key the engine computes for the new level, telemetry/
-- alarm.engine.ts ruleKey, so it stays open instead of ending and starting again). Ended alarms
-- keep the level they were raised at. The devices' warning levels are recomputed.
WITH m(sem, cmp, thr, thr2, old_level, new_level, old_key, new_key) AS (VALUES
    ('10000013', 'gt', '3.65', NULL::float8, 1, 4, 'rbaaad0aaeb4aa8b426d4107bbe9da4d5', 're53b65a9d689f23e2878aafab800c071'),
    ('10000006', 'eq', '3', NULL, 1, 4, 'r7efaa41704bbf24f68ca9a73402a0375', 'r4c0f5dd6fd26c2de0ba895c089430dad'),
    ('01119001', 'outside', '-20', 55, 1, 3, 'rf91a8286ef11e641a410c5cc4842f25c', 'rd66086989a0ec8347106a2fad98910da'),
    ('10000201', 'outside', '-20', 55, 1, 3, 'r4db92b8f3e04aa02dbfda29c10735714', 'r1acbc4bf3531d8fe6b075759d7e1b3bd'),
    ('10000014', 'lt', '2.8', NULL, 1, 3, 'r806039f08ddde2d34fecedeb6062509a', 'r87876e41e4a253a348150f4a2bea5539'),
    ('02105001', 'lt', '-110', NULL, 4, 1, 'rf6c86e8cd41106c105ffe30ae5e1b6e7', 'r8e443633aa118c7fa3201be15297dffb'),
    ('10000007', 'lt', '-110', NULL, 4, 1, 'r733753cc9eaa963eaeca47245e41e2eb', 'r4a88f03bd48a19b13cea728a21c4f528')
)
UPDATE "alarms" a
SET "level" = m.new_level,
    "rule_key" = CASE WHEN a."source" = 'rule' THEN m.new_key ELSE a."rule_key" END
FROM m, "devices" d, "device_types" t, "device_type_alarms" r
WHERE a."ended_at" IS NULL
  AND d."id" = a."device_id" AND t."id" = d."type_id" AND t."code" = 'BMU' AND t."builtin"
  AND r."type_id" = t."id" AND r."semaphore_id" = m.sem AND r."comparison" = m.cmp AND r."threshold" = m.thr
  AND r."threshold2" IS NOT DISTINCT FROM m.thr2 AND r."level" = m.old_level
  AND ((a."source" = 'rule' AND a."rule_key" = m.old_key)
    OR (a."source" = 'device' AND a."rule_key" = 'd' || m.sem AND a."level" = m.old_level));
--> statement-breakpoint
WITH m(sem, cmp, thr, thr2, old_level, new_level) AS (VALUES
    ('10000013', 'gt', '3.65', NULL::float8, 1, 4),
    ('10000006', 'eq', '3', NULL, 1, 4),
    ('01119001', 'outside', '-20', 55, 1, 3),
    ('10000201', 'outside', '-20', 55, 1, 3),
    ('10000014', 'lt', '2.8', NULL, 1, 3),
    ('02105001', 'lt', '-110', NULL, 4, 1),
    ('10000007', 'lt', '-110', NULL, 4, 1)
)
UPDATE "device_type_alarms" r
SET "level" = m.new_level
FROM m, "device_types" t
WHERE t."id" = r."type_id" AND t."code" = 'BMU' AND t."builtin"
  AND r."semaphore_id" = m.sem AND r."comparison" = m.cmp AND r."threshold" = m.thr
  AND r."threshold2" IS NOT DISTINCT FROM m.thr2 AND r."level" = m.old_level;
--> statement-breakpoint
UPDATE "devices" d
SET "warning_level" = w.level
FROM (
  SELECT d2."id", coalesce((SELECT max(a."level") FROM "alarms" a WHERE a."device_id" = d2."id" AND a."ended_at" IS NULL), 0) AS level
  FROM "devices" d2 JOIN "device_types" t ON t."id" = d2."type_id" AND t."code" = 'BMU' AND t."builtin"
) w
WHERE d."id" = w."id" AND d."warning_level" <> w.level;
