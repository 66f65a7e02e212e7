CREATE TABLE "alarm_holds" (
	"device_id" integer NOT NULL,
	"rule_key" varchar(64) NOT NULL,
	"semaphore_id" varchar(64) NOT NULL,
	"breach_since" bigint,
	"recover_since" bigint,
	CONSTRAINT "alarm_holds_device_id_rule_key_pk" PRIMARY KEY("device_id","rule_key")
);
--> statement-breakpoint
ALTER TABLE "alarm_holds" ADD CONSTRAINT "alarm_holds_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;