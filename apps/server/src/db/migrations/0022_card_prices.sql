CREATE TABLE "card_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"plan" varchar(64) NOT NULL,
	"topup_mb" integer DEFAULT 0 NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_prices_kind_chk" CHECK (kind in ('renewal', 'topup')),
	CONSTRAINT "card_prices_price_chk" CHECK (unit_price_cents > 0)
);
--> statement-breakpoint
ALTER TABLE "card_order_items" ADD COLUMN "plan_before" varchar(64);--> statement-breakpoint
ALTER TABLE "card_orders" ADD COLUMN "price_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "card_prices_kind_plan_uq" ON "card_prices" USING btree ("kind","plan");--> statement-breakpoint
ALTER TABLE "card_orders" ADD CONSTRAINT "card_orders_price_id_card_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."card_prices"("id") ON DELETE set null ON UPDATE no action;