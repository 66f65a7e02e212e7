-- Issue #34 (decision 0024): the home dashboard counts from these indexes alone (index-only once
-- vacuum has set the visibility map): devices with alarm phone numbers per scope; alarms per
-- level over all of a scope's alarms; per local day, level, device and project over 7 or 30 days.
CREATE INDEX "devices_phones_idx" ON "devices" USING btree ("owner_path","project_id") WHERE alarm_phone ~ '[0-9]';--> statement-breakpoint
CREATE INDEX "alarms_home_level_idx" ON "alarms" USING btree ("level","state","started_at","owner_path","project_id");--> statement-breakpoint
CREATE INDEX "alarms_home_started_idx" ON "alarms" USING btree ("started_at","level","device_id","owner_path","project_id");