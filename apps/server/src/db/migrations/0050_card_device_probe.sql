-- The card's device (migration 0045) probed by each SIM number alone. `ORDER BY sim_number, id
-- LIMIT 1` let the planner walk the primary key and filter every device when the devices had no
-- statistics yet (right after a bulk import: 50,000 cards had not been inserted after 7 minutes
-- beside 100,000 devices). Under OFFSET 0 each probe stays a plain equality on devices_sim_idx,
-- and min() over the two probes is not turned into a walk of the primary key.
CREATE OR REPLACE FUNCTION "sim_card_device"("p_iccid" text, "p_msisdn" text) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT min(x."id") FROM (
    (SELECT d."id" FROM "devices" d WHERE d."sim_number" = "p_iccid" AND "p_iccid" <> '' OFFSET 0)
    UNION ALL
    (SELECT d."id" FROM "devices" d WHERE d."sim_number" = "p_msisdn" AND "p_msisdn" <> '' OFFSET 0)
  ) x
$$;
