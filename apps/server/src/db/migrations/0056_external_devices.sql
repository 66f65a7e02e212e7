CREATE TABLE "external_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"identifier" varchar(64) NOT NULL,
	"name" varchar(64) DEFAULT '' NOT NULL,
	"model" varchar(64) DEFAULT '' NOT NULL,
	"version" varchar(64) DEFAULT '' NOT NULL,
	"last_checkin_at" timestamp with time zone,
	"last_address" varchar(64) DEFAULT '' NOT NULL,
	"search" text GENERATED ALWAYS AS (lower(identifier || ' ' || name)) STORED,
	"credential_hash" varchar(64) NOT NULL,
	"version_id" integer,
	"version_name" varchar(64) DEFAULT '' NOT NULL,
	"target_version" varchar(64) DEFAULT '' NOT NULL,
	"state" varchar(12) DEFAULT 'none' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"awaiting_version" boolean DEFAULT false NOT NULL,
	"timeout_sec" integer DEFAULT 3600 NOT NULL,
	"assigned_at" timestamp with time zone,
	"deadline" timestamp with time zone,
	"owner_path" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_devices_state_chk" CHECK (state in ('none', 'assigned', 'downloading', 'installing', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "external_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"event" varchar(12) NOT NULL,
	"version" varchar(64) DEFAULT '' NOT NULL,
	"version_id" integer,
	"progress" smallint,
	"message" text DEFAULT '' NOT NULL,
	"address" varchar(64) DEFAULT '' NOT NULL,
	"owner_path" text NOT NULL,
	CONSTRAINT "external_logs_event_chk" CHECK (event in ('checkin', 'assign', 'cancel', 'download', 'progress', 'result', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "external_devices" ADD CONSTRAINT "external_devices_version_id_firmware_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."firmware_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_logs" ADD CONSTRAINT "external_logs_device_id_external_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."external_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "external_devices_identifier_idx" ON "external_devices" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "external_devices_owner_idx" ON "external_devices" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "external_devices_created_idx" ON "external_devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "external_devices_updated_idx" ON "external_devices" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "external_devices_checkin_idx" ON "external_devices" USING btree ("last_checkin_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "external_devices_version_idx" ON "external_devices" USING btree ("version","id");--> statement-breakpoint
CREATE INDEX "external_devices_model_idx" ON "external_devices" USING btree ("model");--> statement-breakpoint
CREATE INDEX "external_devices_state_idx" ON "external_devices" USING btree ("state");--> statement-breakpoint
CREATE INDEX "external_devices_assigned_idx" ON "external_devices" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "external_devices_search_trgm_idx" ON "external_devices" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "external_devices_open_idx" ON "external_devices" USING btree ("deadline") WHERE state in ('assigned', 'downloading', 'installing');--> statement-breakpoint
CREATE INDEX "external_logs_device_idx" ON "external_logs" USING btree ("device_id","at","id");--> statement-breakpoint
CREATE INDEX "external_logs_at_idx" ON "external_logs" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "external_logs_owner_idx" ON "external_logs" USING btree ("owner_path" text_pattern_ops,"at");--> statement-breakpoint
CREATE INDEX "external_logs_event_idx" ON "external_logs" USING btree ("event","at");