CREATE INDEX "devices_name_trgm_idx" ON "devices" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_sn_trgm_idx" ON "devices" USING gin ("sn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_imei_trgm_idx" ON "devices" USING gin ("imei" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_sim_trgm_idx" ON "devices" USING gin ("sim_number" gin_trgm_ops);