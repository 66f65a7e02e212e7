-- Trigram matching for the device search (name, SN, IMEI, SIM contain the typed text).
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
