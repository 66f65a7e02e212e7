ALTER TABLE "device_types" ADD COLUMN "name_en" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "name_es" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_types" ADD COLUMN "name_ja" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
-- The built-in battery management unit of databases seeded before these columns existed.
UPDATE "device_types" SET "name_en" = 'Battery management unit', "name_es" = 'Unidad de gestión de baterías', "name_ja" = 'バッテリー管理ユニット' WHERE "code" = 'BMU' AND "builtin" AND "name_en" = '';
