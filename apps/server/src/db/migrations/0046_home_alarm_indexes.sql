-- Issue #34 (decision 0024): the home dashboard counts alarms from these two indexes alone (an
-- index-only scan once vacuum has set the visibility map): per level over all of a scope's alarms,
-- and per local day, level, device and project over the last 7 or 30 days.
CREATE INDEX "alarms_home_level_idx" ON "alarms" USING btree ("level","state","started_at","owner_path","project_id");--> statement-breakpoint
CREATE INDEX "alarms_home_started_idx" ON "alarms" USING btree ("started_at","level","device_id","owner_path","project_id");