ALTER TABLE "sim_cards" ADD COLUMN "device_id" integer;--> statement-breakpoint
CREATE INDEX "sim_cards_device_idx" ON "sim_cards" USING btree ("device_id");--> statement-breakpoint
-- The card's device is derived (a device whose SIM number is the card's ICCID or MSISDN) and
-- cached here so the card list filters "linked" and sorts with indexes; triggers on both tables
-- keep it whatever statement writes them (the console, an import, a script).
CREATE FUNCTION "sim_cards_relink"("numbers" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "sim_cards" c SET "device_id" = l."id"
  FROM (
    SELECT c2."id" AS "card_id",
      (SELECT min(d."id") FROM "devices" d WHERE d."sim_number" <> ''
        AND (d."sim_number" = c2."iccid" OR (c2."msisdn" <> '' AND d."sim_number" = c2."msisdn"))) AS "id"
    FROM "sim_cards" c2
    WHERE c2."iccid" = ANY("numbers") OR (c2."msisdn" <> '' AND c2."msisdn" = ANY("numbers"))
  ) l
  WHERE c."id" = l."card_id" AND c."device_id" IS DISTINCT FROM l."id";
END
$$;--> statement-breakpoint
CREATE FUNCTION "sim_cards_relink_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "sim_cards_relink"(ARRAY(SELECT DISTINCT "sim_number" FROM "changed" WHERE "sim_number" <> ''));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "sim_cards_relink_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "sim_cards_relink"(ARRAY["old"."sim_number", "new"."sim_number"]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_card_link_insert" AFTER INSERT ON "devices" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sim_cards_relink_added"();--> statement-breakpoint
CREATE TRIGGER "devices_card_link_delete" AFTER DELETE ON "devices" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "sim_cards_relink_added"();--> statement-breakpoint
-- Row-level with WHEN: the ingestion path's updates of other columns never call a function.
CREATE TRIGGER "devices_card_link_update" AFTER UPDATE OF "sim_number" ON "devices" FOR EACH ROW
  WHEN ("old"."sim_number" IS DISTINCT FROM "new"."sim_number") EXECUTE FUNCTION "sim_cards_relink_row"();--> statement-breakpoint
CREATE FUNCTION "sim_cards_link_self"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  "new"."device_id" := (SELECT min(d."id") FROM "devices" d WHERE d."sim_number" <> ''
    AND (d."sim_number" = "new"."iccid" OR ("new"."msisdn" <> '' AND d."sim_number" = "new"."msisdn")));
  RETURN "new";
END
$$;--> statement-breakpoint
CREATE TRIGGER "sim_cards_link_self" BEFORE INSERT OR UPDATE OF "iccid", "msisdn" ON "sim_cards" FOR EACH ROW EXECUTE FUNCTION "sim_cards_link_self"();--> statement-breakpoint
UPDATE "sim_cards" c SET "device_id" = (SELECT min(d."id") FROM "devices" d WHERE d."sim_number" <> ''
  AND (d."sim_number" = c."iccid" OR (c."msisdn" <> '' AND d."sim_number" = c."msisdn")));
