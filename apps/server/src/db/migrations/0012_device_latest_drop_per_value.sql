ALTER TABLE "device_latest" DROP CONSTRAINT "device_latest_device_id_semaphore_id_pk";--> statement-breakpoint
ALTER TABLE "device_latest" ADD PRIMARY KEY ("device_id");--> statement-breakpoint
ALTER TABLE "device_latest" ALTER COLUMN "vals" SET DEFAULT '{}'::jsonb;--> statement-breakpoint
ALTER TABLE "device_latest" ALTER COLUMN "vals" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "device_latest" DROP COLUMN "semaphore_id";--> statement-breakpoint
ALTER TABLE "device_latest" DROP COLUMN "value";