CREATE INDEX "rentals_due_idx" ON "rentals" USING btree ("due_at","id");--> statement-breakpoint
CREATE INDEX "rentals_state_id_idx" ON "rentals" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "rentals_settled_all_idx" ON "rentals" USING btree ("settled_at","currency","charged_cents") WHERE settled_at is not null;