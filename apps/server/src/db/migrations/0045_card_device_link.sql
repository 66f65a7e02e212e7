ALTER TABLE "sim_cards" ADD COLUMN "device_id" integer;--> statement-breakpoint
CREATE INDEX "sim_cards_device_idx" ON "sim_cards" USING btree ("device_id");--> statement-breakpoint
-- The card's device is derived (a device whose SIM number is the card's ICCID or MSISDN) and
-- cached here so the card list filters "linked" and sorts with indexes; triggers on both tables
-- keep it whatever statement writes them (the console, an import, a script).
-- The device of a card's numbers: each number probed on devices_sim_idx, the lower id kept. Not
-- min() over devices: without fresh statistics (a big import) PostgreSQL walks the primary key
-- for min() and tests every device.
CREATE FUNCTION "sim_card_device"("p_iccid" text, "p_msisdn" text) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT min(x."id") FROM (
    (SELECT d."id" FROM "devices" d WHERE d."sim_number" = "p_iccid" AND "p_iccid" <> '' ORDER BY d."sim_number", d."id" LIMIT 1)
    UNION ALL
    (SELECT d."id" FROM "devices" d WHERE d."sim_number" = "p_msisdn" AND "p_msisdn" <> '' ORDER BY d."sim_number", d."id" LIMIT 1)
  ) x
$$;--> statement-breakpoint
CREATE FUNCTION "sim_cards_relink"("numbers" text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "sim_cards" c SET "device_id" = l."id"
  FROM (
    SELECT c2."id" AS "card_id", "sim_card_device"(c2."iccid", c2."msisdn") AS "id"
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
  "new"."device_id" := "sim_card_device"("new"."iccid", "new"."msisdn");
  RETURN "new";
END
$$;--> statement-breakpoint
CREATE TRIGGER "sim_cards_link_self" BEFORE INSERT OR UPDATE OF "iccid", "msisdn" ON "sim_cards" FOR EACH ROW EXECUTE FUNCTION "sim_cards_link_self"();--> statement-breakpoint
UPDATE "sim_cards" c SET "device_id" = "sim_card_device"(c."iccid", c."msisdn");
