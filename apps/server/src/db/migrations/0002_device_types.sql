CREATE TABLE "device_type_alarms" (
	"id" serial PRIMARY KEY NOT NULL,
	"type_id" integer NOT NULL,
	"semaphore_id" varchar(32) NOT NULL,
	"comparison" varchar(16) NOT NULL,
	"threshold" text NOT NULL,
	"threshold2" double precision,
	"level" smallint NOT NULL,
	"message" varchar(128) NOT NULL,
	"message_en" varchar(128) DEFAULT '' NOT NULL,
	"message_es" varchar(128) DEFAULT '' NOT NULL,
	"message_ja" varchar(128) DEFAULT '' NOT NULL,
	"hold_seconds" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "device_type_alarms_comparison_chk" CHECK (comparison in ('gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'outside', 'inside')),
	CONSTRAINT "device_type_alarms_level_chk" CHECK (level between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "device_type_params" (
	"id" serial PRIMARY KEY NOT NULL,
	"type_id" integer NOT NULL,
	"semaphore_id" varchar(32) NOT NULL,
	"name" varchar(64) NOT NULL,
	"name_en" varchar(64) DEFAULT '' NOT NULL,
	"name_es" varchar(64) DEFAULT '' NOT NULL,
	"name_ja" varchar(64) DEFAULT '' NOT NULL,
	"unit" varchar(16) DEFAULT '' NOT NULL,
	"group_name" varchar(32) DEFAULT '' NOT NULL,
	"data_type" varchar(16) NOT NULL,
	"precision" smallint DEFAULT 0 NOT NULL,
	"min" double precision,
	"max" double precision,
	"enum_values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"writable" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "device_type_params_data_type_chk" CHECK (data_type in ('number', 'integer', 'boolean', 'enum', 'text'))
);
--> statement-breakpoint
CREATE TABLE "device_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(32) NOT NULL,
	"name" varchar(64) NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"record_track" boolean DEFAULT false NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"owner_path" text DEFAULT '/' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_types_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "device_type_alarms" ADD CONSTRAINT "device_type_alarms_type_id_device_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."device_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_type_params" ADD CONSTRAINT "device_type_params_type_id_device_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."device_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_type_alarms_type_idx" ON "device_type_alarms" USING btree ("type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_type_params_type_sem_uq" ON "device_type_params" USING btree ("type_id","semaphore_id");