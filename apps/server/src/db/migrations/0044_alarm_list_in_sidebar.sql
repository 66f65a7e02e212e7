-- The alarm list (/project/alarminfo) was a hidden page reachable only from the bell; operators
-- could not find it (issue #33). It becomes a sidebar entry under Projects, named for what it
-- lists (current and past alarms) with the bell's icon. Its permission (alarm:list) already hangs
-- on this menu, so every role that may list alarms sees the entry; nothing is granted anew.
-- Only a row still as seeded changes: a menu an administrator renamed or re-iconed is left alone.
UPDATE "menus"
SET "is_show" = 1, "icon" = 'BellOutlined', "name" = '告警列表', "name_en" = 'Alarms', "name_es" = 'Alarmas', "name_ja" = 'アラーム一覧'
WHERE "identification" = 'project-alarminfo' AND "is_show" = 0 AND "icon" = ''
  AND "name" = '历史告警' AND "name_en" = 'Historical alarms' AND "name_es" = 'Alarmas históricas' AND "name_ja" = 'アラーム履歴';
