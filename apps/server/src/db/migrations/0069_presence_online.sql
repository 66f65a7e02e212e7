ALTER TABLE "device_presence" ADD COLUMN "online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- devices.online, copied: the list's "online, stalest first" walked device_presence_seen_idx past
-- every offline device (2.6 s at a million devices); it now reads its own range of this index.
UPDATE "device_presence" p SET "online" = true FROM "devices" d WHERE d."id" = p."device_id" AND d."online";--> statement-breakpoint
CREATE INDEX "device_presence_online_seen_idx" ON "device_presence" USING btree ("online","last_seen_at" DESC NULLS LAST,"device_id" DESC NULLS LAST);--> statement-breakpoint
CREATE OR REPLACE FUNCTION "device_presence_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "device_presence" ("device_id", "online") SELECT "id", "online" FROM "added";
  RETURN NULL;
END
$$;--> statement-breakpoint
-- One statement per statement (transition tables): ingestion's batch, the start-up sweep and an
-- import each copy their changed states at once; a statement that changes no state joins nothing.
CREATE FUNCTION "device_presence_online"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "device_presence" p SET "online" = n."online"
    FROM "changed_new" n JOIN "changed_old" o ON o."id" = n."id"
    WHERE p."device_id" = n."id" AND n."online" IS DISTINCT FROM o."online";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_presence_online" AFTER UPDATE ON "devices" REFERENCING OLD TABLE AS "changed_old" NEW TABLE AS "changed_new" FOR EACH STATEMENT EXECUTE FUNCTION "device_presence_online"();
