-- Issue #35 (maps-fence): geo-fences issued to devices, their history, and where each device is
-- with respect to each fence it keeps (the server's crossing check); alarms gain the source 'fence'.
CREATE TABLE "device_fence_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fence_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" varchar(12) NOT NULL,
	"op" varchar(8) NOT NULL,
	"user_id" integer,
	"user_name" varchar(64),
	"reason" text DEFAULT '' NOT NULL,
	"timed_out" boolean DEFAULT false NOT NULL,
	"command_id" varchar(64),
	CONSTRAINT "device_fence_events_state_chk" CHECK (state in ('set', 'issued', 'failed', 'offline', 'removed', 'relocked')),
	CONSTRAINT "device_fence_events_op_chk" CHECK (op in ('set', 'close', 'relock'))
);
--> statement-breakpoint
CREATE TABLE "device_fence_states" (
	"fence_id" integer PRIMARY KEY NOT NULL,
	"inside" boolean NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"distance" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_fences" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"lng" double precision NOT NULL,
	"lat" double precision NOT NULL,
	"radius" integer NOT NULL,
	"action" varchar(8) NOT NULL,
	"alarm_on_enter" boolean DEFAULT false NOT NULL,
	"state" varchar(12) NOT NULL,
	"pending_op" varchar(8),
	"pending_command" varchar(64),
	"created_by" integer,
	"created_by_name" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_fences_state_chk" CHECK (state in ('set', 'issued', 'failed', 'offline', 'removed', 'relocked')),
	CONSTRAINT "device_fences_action_chk" CHECK (action in ('alarm', 'lock')),
	CONSTRAINT "device_fences_op_chk" CHECK (pending_op in ('set', 'close', 'relock'))
);
--> statement-breakpoint
ALTER TABLE "alarms" DROP CONSTRAINT "alarms_source_chk";--> statement-breakpoint
ALTER TABLE "device_fence_events" ADD CONSTRAINT "device_fence_events_fence_id_device_fences_id_fk" FOREIGN KEY ("fence_id") REFERENCES "public"."device_fences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_fence_states" ADD CONSTRAINT "device_fence_states_fence_id_device_fences_id_fk" FOREIGN KEY ("fence_id") REFERENCES "public"."device_fences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_fences" ADD CONSTRAINT "device_fences_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_fence_events_fence_idx" ON "device_fence_events" USING btree ("fence_id","id");--> statement-breakpoint
CREATE INDEX "device_fences_device_idx" ON "device_fences" USING btree ("device_id","id");--> statement-breakpoint
CREATE INDEX "device_fences_kept_idx" ON "device_fences" USING btree ("device_id") WHERE state in ('issued', 'relocked');--> statement-breakpoint
CREATE INDEX "device_fences_pending_idx" ON "device_fences" USING btree ("pending_command") WHERE pending_command is not null;--> statement-breakpoint
ALTER TABLE "alarms" ADD CONSTRAINT "alarms_source_chk" CHECK (source in ('rule', 'device', 'fence'));--> statement-breakpoint
-- The fence routes need device:fence (on the Projects menu, like device:command). Every role of
-- an existing install that may send device commands may set fences too; a new install has no
-- roles yet here: the seed creates the code and grants it to the built-in roles.
INSERT INTO "permissions" ("name", "identification", "menu_id")
SELECT 'Set device geo-fences', 'device:fence', m."id" FROM "menus" m
WHERE m."identification" = 'project-index' AND EXISTS (SELECT 1 FROM "roles")
ON CONFLICT ("identification") DO NOTHING;--> statement-breakpoint
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT rp."role_id", p."id" FROM "role_permissions" rp
JOIN "permissions" c ON c."id" = rp."permission_id" AND c."identification" = 'device:command'
CROSS JOIN "permissions" p WHERE p."identification" = 'device:fence'
ON CONFLICT DO NOTHING;