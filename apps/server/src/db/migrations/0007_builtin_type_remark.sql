-- The built-in battery type's remark was an English sentence shown in every language. Built-in
-- types now leave it empty and the console describes them in the UI language; a remark an
-- administrator wrote is kept.
UPDATE "device_types" SET "remarks" = '' WHERE "builtin" AND "remarks" = 'Battery management unit (built in)';
