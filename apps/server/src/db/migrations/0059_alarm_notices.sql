CREATE TABLE "alarm_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alarm_id" bigint NOT NULL,
	"device_id" integer NOT NULL,
	"channel" varchar(8) NOT NULL,
	"phone" varchar(32) NOT NULL,
	"recipient" varchar(8) NOT NULL,
	"user_id" integer,
	"language" varchar(8) DEFAULT 'zh' NOT NULL,
	"state" varchar(8) DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider" varchar(16) DEFAULT '' NOT NULL,
	"provider_ref" varchar(128) DEFAULT '' NOT NULL,
	"tries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "alarm_notices_channel_chk" CHECK (channel in ('sms', 'call')),
	CONSTRAINT "alarm_notices_state_chk" CHECK (state in ('pending', 'sent', 'failed', 'limited')),
	CONSTRAINT "alarm_notices_recipient_chk" CHECK (recipient in ('device', 'user'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alarm_sms_level" smallint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alarm_call_level" smallint;--> statement-breakpoint
ALTER TABLE "alarm_notices" ADD CONSTRAINT "alarm_notices_alarm_id_alarms_id_fk" FOREIGN KEY ("alarm_id") REFERENCES "public"."alarms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alarm_notices" ADD CONSTRAINT "alarm_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alarm_notices_alarm_idx" ON "alarm_notices" USING btree ("alarm_id","id");--> statement-breakpoint
CREATE INDEX "alarm_notices_due_idx" ON "alarm_notices" USING btree ("next_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "alarm_notices_device_idx" ON "alarm_notices" USING btree ("device_id","created_at");--> statement-breakpoint
CREATE INDEX "alarm_notices_phone_idx" ON "alarm_notices" USING btree ("phone","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_alarm_sms_level_chk" CHECK (alarm_sms_level between 1 and 4);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_alarm_call_level_chk" CHECK (alarm_call_level between 1 and 4);