DROP INDEX "devices_imei_trgm_idx";--> statement-breakpoint
DROP INDEX "devices_sim_trgm_idx";--> statement-breakpoint
DROP INDEX "login_logs_created_idx";--> statement-breakpoint
DROP INDEX "operation_logs_created_idx";--> statement-breakpoint
DROP INDEX "operation_logs_username_idx";--> statement-breakpoint
DROP INDEX "devices_created_idx";--> statement-breakpoint
DROP INDEX "device_logs_created_idx";--> statement-breakpoint
DROP INDEX "alarms_started_idx";--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "search" text GENERATED ALWAYS AS (lower(name || ' ' || sn || ' ' || imei || ' ' || sim_number)) STORED;--> statement-breakpoint
CREATE INDEX "login_logs_username_lower_idx" ON "login_logs" USING btree (lower("username") text_pattern_ops,"created_at");--> statement-breakpoint
CREATE INDEX "devices_top_created_idx" ON "devices" USING btree ("created_at","id") WHERE parent_id is null;--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "device_logs_sn_idx" ON "device_logs" USING btree ("sn","created_at");--> statement-breakpoint
CREATE INDEX "login_logs_created_idx" ON "login_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "operation_logs_created_idx" ON "operation_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "operation_logs_username_idx" ON "operation_logs" USING btree (lower("username") text_pattern_ops,"created_at");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "device_logs_created_idx" ON "device_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "alarms_started_idx" ON "alarms" USING btree ("started_at","id");