CREATE TABLE "device_presence" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_presence" ADD CONSTRAINT "device_presence_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every device has its row, with the time it was last heard from so far.
INSERT INTO "device_presence" ("device_id", "last_seen_at") SELECT "id", "last_seen_at" FROM "devices";--> statement-breakpoint
CREATE INDEX "device_presence_seen_idx" ON "device_presence" USING btree ("last_seen_at" DESC NULLS LAST,"device_id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "last_seen_at";--> statement-breakpoint
-- A device created by any statement (the console, an import, a script) gets its row in the same
-- statement: the device list's "last seen" order reads device_presence alone.
CREATE FUNCTION "device_presence_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_presence" ("device_id") SELECT "id" FROM "added";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_presence_add" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "device_presence_add"();
