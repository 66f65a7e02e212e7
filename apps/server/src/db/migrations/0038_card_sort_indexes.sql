DROP INDEX "card_orders_created_idx";--> statement-breakpoint
DROP INDEX "sim_cards_expires_idx";--> statement-breakpoint
DROP INDEX "sim_cards_created_idx";--> statement-breakpoint
CREATE INDEX "card_orders_paid_idx" ON "card_orders" USING btree ("paid_at","id");--> statement-breakpoint
CREATE INDEX "card_orders_amount_idx" ON "card_orders" USING btree ("amount_cents","id");--> statement-breakpoint
CREATE INDEX "sim_cards_activated_idx" ON "sim_cards" USING btree ("activated_at","id");--> statement-breakpoint
CREATE INDEX "sim_cards_status_idx" ON "sim_cards" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "card_orders_created_idx" ON "card_orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "sim_cards_expires_idx" ON "sim_cards" USING btree ("expires_at","id");--> statement-breakpoint
CREATE INDEX "sim_cards_created_idx" ON "sim_cards" USING btree ("created_at","id");