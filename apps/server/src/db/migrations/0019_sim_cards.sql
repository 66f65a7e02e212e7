CREATE TABLE "card_order_items" (
	"order_id" integer NOT NULL,
	"card_id" integer,
	"iccid" varchar(20) NOT NULL,
	"msisdn" varchar(15) DEFAULT '' NOT NULL,
	"expires_before" date,
	"expires_after" date,
	CONSTRAINT "card_order_items_order_id_iccid_pk" PRIMARY KEY("order_id","iccid")
);
--> statement-breakpoint
CREATE TABLE "card_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"kind" varchar(8) NOT NULL,
	"plan" varchar(64) DEFAULT '' NOT NULL,
	"months" smallint DEFAULT 0 NOT NULL,
	"topup_mb" integer DEFAULT 0 NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" varchar(12) DEFAULT 'unpaid' NOT NULL,
	"owner_path" text NOT NULL,
	"created_by" integer,
	"created_by_name" varchar(64) DEFAULT '' NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"pay_before" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"provider" varchar(16) NOT NULL,
	"transaction_id" varchar(64),
	"code_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "card_orders_transaction_id_unique" UNIQUE("transaction_id"),
	CONSTRAINT "card_orders_status_chk" CHECK (status in ('unpaid', 'paid', 'cancelled', 'refunded', 'expired')),
	CONSTRAINT "card_orders_kind_chk" CHECK (kind in ('renewal', 'topup')),
	CONSTRAINT "card_orders_amount_chk" CHECK (amount_cents > 0)
);
--> statement-breakpoint
CREATE TABLE "card_payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" varchar(64) DEFAULT '' NOT NULL,
	"provider" varchar(16) NOT NULL,
	"outcome" varchar(16) NOT NULL,
	"amount_cents" integer,
	"transaction_id" varchar(64) DEFAULT '' NOT NULL,
	"detail" varchar(256) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_payment_events_outcome_chk" CHECK (outcome in ('paid', 'replay', 'badSignature', 'badAmount', 'unknownOrder', 'notPayable', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sim_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"iccid" varchar(20) NOT NULL,
	"msisdn" varchar(15) DEFAULT '' NOT NULL,
	"imsi" varchar(15) DEFAULT '' NOT NULL,
	"carrier" varchar(16) DEFAULT 'chinaMobile' NOT NULL,
	"plan" varchar(64) DEFAULT '' NOT NULL,
	"status" varchar(16) DEFAULT 'active' NOT NULL,
	"activated_at" date,
	"expires_at" date,
	"data_used_mb" integer DEFAULT 0 NOT NULL,
	"data_allowance_mb" integer DEFAULT 0 NOT NULL,
	"voice_used_min" integer DEFAULT 0 NOT NULL,
	"voice_allowance_min" integer DEFAULT 0 NOT NULL,
	"group_id" varchar(32) DEFAULT '' NOT NULL,
	"project_id" integer,
	"owner_path" text NOT NULL,
	"remarks" text DEFAULT '' NOT NULL,
	"expiry_notified_for" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_cards_iccid_unique" UNIQUE("iccid"),
	CONSTRAINT "sim_cards_status_chk" CHECK (status in ('inventory', 'testing', 'active', 'suspended', 'deactivated')),
	CONSTRAINT "sim_cards_carrier_chk" CHECK (carrier in ('chinaMobile', 'chinaUnicom', 'chinaTelecom', 'other'))
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "camera" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "card_order_items" ADD CONSTRAINT "card_order_items_order_id_card_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."card_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_order_items" ADD CONSTRAINT "card_order_items_card_id_sim_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."sim_cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_orders" ADD CONSTRAINT "card_orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_cards" ADD CONSTRAINT "sim_cards_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_order_items_card_idx" ON "card_order_items" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "card_orders_owner_path_idx" ON "card_orders" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "card_orders_created_idx" ON "card_orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "card_orders_unpaid_idx" ON "card_orders" USING btree ("pay_before") WHERE status = 'unpaid';--> statement-breakpoint
CREATE INDEX "card_payment_events_order_idx" ON "card_payment_events" USING btree ("order_no","created_at");--> statement-breakpoint
CREATE INDEX "sim_cards_owner_path_idx" ON "sim_cards" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "sim_cards_project_idx" ON "sim_cards" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "sim_cards_expires_idx" ON "sim_cards" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sim_cards_msisdn_idx" ON "sim_cards" USING btree ("msisdn");--> statement-breakpoint
CREATE INDEX "sim_cards_created_idx" ON "sim_cards" USING btree ("created_at");