DROP INDEX "login_logs_username_lower_idx";--> statement-breakpoint
DROP INDEX "operation_logs_username_idx";--> statement-breakpoint
CREATE INDEX "login_logs_username_lower_idx" ON "login_logs" USING btree (lower("username") text_pattern_ops,"created_at","result","username");--> statement-breakpoint
CREATE INDEX "operation_logs_username_idx" ON "operation_logs" USING btree (lower("username") text_pattern_ops,"created_at","result","username");