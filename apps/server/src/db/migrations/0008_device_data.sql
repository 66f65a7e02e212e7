-- Device data (ingestion). telemetry is partitioned by day on ts (drizzle-kit cannot declare it:
-- hand-edited); partitions are created and dropped by the server (src/ingest/partitions.ts).
CREATE TABLE "device_latest" (
	"device_id" integer NOT NULL,
	"semaphore_id" varchar(32) NOT NULL,
	"value" jsonb NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "device_latest_device_id_semaphore_id_pk" PRIMARY KEY("device_id","semaphore_id")
);
--> statement-breakpoint
CREATE TABLE "device_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer,
	"sn" varchar(64) NOT NULL,
	"kind" varchar(16) NOT NULL,
	"reason" varchar(32),
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"owner_path" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_logs_kind_chk" CHECK (kind in ('connected', 'disconnected', 'online', 'offline', 'rejected', 'alarm', 'command', 'ack'))
);
--> statement-breakpoint
CREATE TABLE "device_positions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"lng" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"speed" double precision,
	"direction" double precision,
	"pdop" double precision,
	"satellites" smallint
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"device_id" integer NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"vals" jsonb NOT NULL
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
ALTER TABLE "device_latest" ADD CONSTRAINT "device_latest_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_logs" ADD CONSTRAINT "device_logs_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_positions" ADD CONSTRAINT "device_positions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_logs_created_idx" ON "device_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "device_logs_device_idx" ON "device_logs" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "device_logs_kind_idx" ON "device_logs" USING btree ("kind","created_at");--> statement-breakpoint
CREATE INDEX "device_logs_owner_idx" ON "device_logs" USING btree ("owner_path" text_pattern_ops,"created_at");--> statement-breakpoint
CREATE INDEX "device_positions_device_ts_idx" ON "device_positions" USING btree ("device_id","ts");--> statement-breakpoint
CREATE INDEX "telemetry_device_ts_idx" ON "telemetry" USING btree ("device_id","ts");