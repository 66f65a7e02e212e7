CREATE TABLE "telemetry_rollup" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"mm" jsonb NOT NULL,
	CONSTRAINT "telemetry_rollup_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "telemetry_rollup_days" (
	"day" date PRIMARY KEY NOT NULL,
	"final" boolean DEFAULT false NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telemetry_rollup_hour" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"mm" jsonb NOT NULL,
	CONSTRAINT "telemetry_rollup_hour_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "telemetry_rollup" ADD CONSTRAINT "telemetry_rollup_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telemetry_rollup_hour" ADD CONSTRAINT "telemetry_rollup_hour_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "telemetry_rollup_bucket_idx" ON "telemetry_rollup" USING btree ("bucket");--> statement-breakpoint
CREATE INDEX "telemetry_rollup_hour_bucket_idx" ON "telemetry_rollup_hour" USING btree ("bucket");