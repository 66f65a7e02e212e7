CREATE TABLE "firmware_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"manufacturer" varchar(64) DEFAULT '' NOT NULL,
	"module" varchar(64) DEFAULT '' NOT NULL,
	"software_version" varchar(64) NOT NULL,
	"info" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"file_key" text,
	"file_name" varchar(255),
	"size" bigint,
	"sha256" varchar(64),
	"type_ids" integer[] DEFAULT '{}' NOT NULL,
	"models" text[] DEFAULT '{}' NOT NULL,
	"owner_path" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upgrade_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"version_id" integer,
	"version_name" varchar(64) NOT NULL,
	"software_version" varchar(64) NOT NULL,
	"state" varchar(12) DEFAULT 'running' NOT NULL,
	"concurrency" integer NOT NULL,
	"stage_timeout_sec" integer NOT NULL,
	"retries" smallint NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"url" text NOT NULL,
	"owner_path" text NOT NULL,
	"created_by" integer,
	"created_by_name" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "upgrade_campaigns_state_chk" CHECK (state in ('running', 'finished', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "upgrade_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" varchar(12) NOT NULL,
	"attempt" smallint DEFAULT 0 NOT NULL,
	"progress" smallint,
	"message" text
);
--> statement-breakpoint
CREATE TABLE "upgrade_targets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"state" varchar(12) DEFAULT 'queued' NOT NULL,
	"progress" smallint DEFAULT 0 NOT NULL,
	"attempt" smallint DEFAULT 0 NOT NULL,
	"command_id" varchar(64),
	"reason" text,
	"from_version" varchar(64),
	"to_version" varchar(64),
	"stage_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "upgrade_targets_state_chk" CHECK (state in ('queued', 'sent', 'downloading', 'installing', 'verifying', 'succeeded', 'failed', 'timedOut', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "upgrade_campaigns" ADD CONSTRAINT "upgrade_campaigns_version_id_firmware_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."firmware_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_logs" ADD CONSTRAINT "upgrade_logs_campaign_id_upgrade_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."upgrade_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_logs" ADD CONSTRAINT "upgrade_logs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_targets" ADD CONSTRAINT "upgrade_targets_campaign_id_upgrade_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."upgrade_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upgrade_targets" ADD CONSTRAINT "upgrade_targets_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_versions_owner_idx" ON "firmware_versions" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "firmware_versions_created_idx" ON "firmware_versions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "upgrade_campaigns_owner_idx" ON "upgrade_campaigns" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "upgrade_campaigns_created_idx" ON "upgrade_campaigns" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "upgrade_campaigns_running_idx" ON "upgrade_campaigns" USING btree ("id") WHERE state = 'running';--> statement-breakpoint
CREATE INDEX "upgrade_campaigns_version_idx" ON "upgrade_campaigns" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "upgrade_logs_campaign_idx" ON "upgrade_logs" USING btree ("campaign_id","at");--> statement-breakpoint
CREATE INDEX "upgrade_logs_device_idx" ON "upgrade_logs" USING btree ("device_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_targets_campaign_device_idx" ON "upgrade_targets" USING btree ("campaign_id","device_id");--> statement-breakpoint
CREATE INDEX "upgrade_targets_campaign_state_idx" ON "upgrade_targets" USING btree ("campaign_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "upgrade_targets_device_open_idx" ON "upgrade_targets" USING btree ("device_id") WHERE state in ('queued', 'sent', 'downloading', 'installing', 'verifying');--> statement-breakpoint
CREATE INDEX "upgrade_targets_command_idx" ON "upgrade_targets" USING btree ("command_id") WHERE command_id is not null;--> statement-breakpoint
CREATE INDEX "upgrade_targets_open_idx" ON "upgrade_targets" USING btree ("state","stage_at") WHERE state in ('queued', 'sent', 'downloading', 'installing', 'verifying');