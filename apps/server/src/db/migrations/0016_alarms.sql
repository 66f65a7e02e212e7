CREATE TABLE "alarms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"rule_key" varchar(40) NOT NULL,
	"rule_id" integer,
	"source" varchar(8) NOT NULL,
	"semaphore_id" varchar(32) NOT NULL,
	"level" smallint NOT NULL,
	"message" varchar(128) DEFAULT '' NOT NULL,
	"message_en" varchar(128) DEFAULT '' NOT NULL,
	"message_es" varchar(128) DEFAULT '' NOT NULL,
	"message_ja" varchar(128) DEFAULT '' NOT NULL,
	"value" varchar(128) DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"state" varchar(12) DEFAULT 'untreated' NOT NULL,
	"processed_at" timestamp with time zone,
	"processed_by" integer,
	"processed_by_name" varchar(64),
	"note" varchar(256) DEFAULT '' NOT NULL,
	CONSTRAINT "alarms_level_chk" CHECK (level between 1 and 4),
	CONSTRAINT "alarms_state_chk" CHECK (state in ('untreated', 'processed', 'ignored')),
	CONSTRAINT "alarms_source_chk" CHECK (source in ('rule', 'device'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alarm_mail" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_one_active_idx" ON "alarms" USING btree ("device_id","rule_key") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "alarms_device_started_idx" ON "alarms" USING btree ("device_id","started_at");--> statement-breakpoint
CREATE INDEX "alarms_started_idx" ON "alarms" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "alarms_untreated_idx" ON "alarms" USING btree ("started_at") WHERE state = 'untreated';--> statement-breakpoint
CREATE INDEX "alarms_level_idx" ON "alarms" USING btree ("level","started_at");