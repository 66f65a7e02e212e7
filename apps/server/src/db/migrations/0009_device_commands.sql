CREATE TABLE "device_commands" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"kind" varchar(32) NOT NULL,
	"payload" jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"progress" smallint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "device_commands_status_chk" CHECK (status in ('pending', 'sent', 'succeeded', 'failed', 'timeout'))
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_commands_open_idx" ON "device_commands" USING btree ("status","expires_at");