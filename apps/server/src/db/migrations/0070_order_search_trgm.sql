CREATE INDEX "card_order_items_iccid_trgm_idx" ON "card_order_items" USING gin ("iccid" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "card_order_items_msisdn_trgm_idx" ON "card_order_items" USING gin ("msisdn" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "card_orders_order_no_trgm_idx" ON "card_orders" USING gin ("order_no" gin_trgm_ops);