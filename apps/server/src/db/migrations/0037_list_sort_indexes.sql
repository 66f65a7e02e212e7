DROP INDEX "devices_warning_idx";--> statement-breakpoint
CREATE INDEX "devices_updated_idx" ON "devices" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "alarms_level_id_idx" ON "alarms" USING btree ("level","id");--> statement-breakpoint
CREATE INDEX "alarms_ended_idx" ON "alarms" USING btree ("ended_at","id");--> statement-breakpoint
CREATE INDEX "alarms_processed_idx" ON "alarms" USING btree ("processed_at","id");--> statement-breakpoint
CREATE INDEX "devices_warning_idx" ON "devices" USING btree ("warning_level","id");