CREATE TABLE "stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"code" varchar(32) NOT NULL,
	"address" varchar(256) DEFAULT '' NOT NULL,
	"lng" double precision,
	"lat" double precision,
	"contact" varchar(64) DEFAULT '' NOT NULL,
	"phone" varchar(32) DEFAULT '' NOT NULL,
	"opening_hours" varchar(128) DEFAULT '' NOT NULL,
	"status" varchar(12) DEFAULT 'open' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"min_soc" smallint DEFAULT 80 NOT NULL,
	"max_cell_delta_mv" integer DEFAULT 150 NOT NULL,
	"max_temp_c" smallint DEFAULT 55 NOT NULL,
	"owner_id" integer NOT NULL,
	"owner_path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" text GENERATED ALWAYS AS (lower(name || ' ' || code || ' ' || address || ' ' || phone)) STORED,
	CONSTRAINT "stores_code_unique" UNIQUE("code"),
	CONSTRAINT "stores_status_chk" CHECK (status in ('open', 'closed', 'suspended')),
	CONSTRAINT "stores_min_soc_chk" CHECK (min_soc between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "rental_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"rental_id" integer NOT NULL,
	"from_state" varchar(12),
	"to_state" varchar(12) NOT NULL,
	"by_user_id" integer,
	"by_name" varchar(64) NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rentals" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(8) NOT NULL,
	"state" varchar(12) NOT NULL,
	"store_id" integer NOT NULL,
	"device_id" integer,
	"device_sn" varchar(64) NOT NULL,
	"device_name" varchar(64) NOT NULL,
	"customer_name" varchar(64) NOT NULL,
	"customer_phone" varchar(32) NOT NULL,
	"id_card_masked" varchar(32) DEFAULT '' NOT NULL,
	"email" varchar(128) DEFAULT '' NOT NULL,
	"currency" varchar(3) NOT NULL,
	"deposit_cents" integer DEFAULT 0 NOT NULL,
	"price_per_day_cents" integer,
	"total_price_cents" integer,
	"charged_cents" integer,
	"start_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"return_check" jsonb,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rentals_kind_chk" CHECK (kind in ('rent', 'sale')),
	CONSTRAINT "rentals_state_chk" CHECK (state in ('reserved', 'active', 'overdue', 'returned', 'lost', 'sold', 'cancelled')),
	CONSTRAINT "rentals_currency_chk" CHECK (currency in ('CNY', 'USD', 'EUR', 'JPY')),
	CONSTRAINT "rentals_amounts_chk" CHECK (deposit_cents >= 0 and coalesce(price_per_day_cents, 0) >= 0 and coalesce(total_price_cents, 0) >= 0 and coalesce(charged_cents, 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "store_id" integer;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "store_fault" varchar(16);--> statement-breakpoint
ALTER TABLE "stores" ADD CONSTRAINT "stores_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rental_events" ADD CONSTRAINT "rental_events_rental_id_rentals_id_fk" FOREIGN KEY ("rental_id") REFERENCES "public"."rentals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rental_events" ADD CONSTRAINT "rental_events_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rentals" ADD CONSTRAINT "rentals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stores_owner_path_idx" ON "stores" USING btree ("owner_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "stores_owner_idx" ON "stores" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "stores_created_idx" ON "stores" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "stores_name_idx" ON "stores" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "stores_status_idx" ON "stores" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "stores_search_trgm_idx" ON "stores" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rental_events_rental_idx" ON "rental_events" USING btree ("rental_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "rentals_open_device_idx" ON "rentals" USING btree ("device_id") WHERE state in ('reserved', 'active', 'overdue');--> statement-breakpoint
CREATE INDEX "rentals_store_created_idx" ON "rentals" USING btree ("store_id","created_at","id");--> statement-breakpoint
CREATE INDEX "rentals_created_idx" ON "rentals" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "rentals_start_idx" ON "rentals" USING btree ("start_at","id");--> statement-breakpoint
CREATE INDEX "rentals_state_due_idx" ON "rentals" USING btree ("state","due_at");--> statement-breakpoint
CREATE INDEX "rentals_phone_idx" ON "rentals" USING btree ("customer_phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "rentals_sn_trgm_idx" ON "rentals" USING gin (lower("device_sn") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "rentals_device_idx" ON "rentals" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "rentals_settled_idx" ON "rentals" USING btree ("store_id","settled_at") WHERE settled_at is not null;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_store_idx" ON "devices" USING btree ("store_id") WHERE store_id is not null;