ALTER TABLE "devices" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "devices_enabled_idx" ON "devices" USING btree ("enabled");