import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, pgTable, serial, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { STORE_STATUSES } from '@iot/contract';
import { users } from './users.js';
import { inList } from './util.js';

/**
 * Stores (outlets) of an agent's line (issue #38). Scoped by the owner's path like devices; a
 * device (battery pack) is stocked at one store (`devices.store_id`). The thresholds decide a
 * pack's stock state (`min_soc`) and its return check (`max_cell_delta_mv`, `max_temp_c`).
 */
export const stores = pgTable(
  'stores',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 64 }).notNull(),
    /** Unique platform-wide: import files name stores by it. */
    code: varchar('code', { length: 32 }).notNull().unique('stores_code_unique'),
    address: varchar('address', { length: 256 }).notNull().default(''),
    lng: doublePrecision('lng'),
    lat: doublePrecision('lat'),
    contact: varchar('contact', { length: 64 }).notNull().default(''),
    phone: varchar('phone', { length: 32 }).notNull().default(''),
    openingHours: varchar('opening_hours', { length: 128 }).notNull().default(''),
    status: varchar('status', { length: 12 }).notNull().default('open'),
    remark: text('remark').notNull().default(''),
    minSoc: smallint('min_soc').notNull().default(80),
    maxCellDeltaMv: integer('max_cell_delta_mv').notNull().default(150),
    maxTempC: smallint('max_temp_c').notNull().default(55),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    ownerPath: text('owner_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The list's text filter: name, code, address and phone in lower case. */
    search: text('search').generatedAlwaysAs(sql`lower(name || ' ' || code || ' ' || address || ' ' || phone)`),
  },
  (t) => [
    index('stores_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('stores_owner_idx').on(t.ownerId),
    index('stores_created_idx').on(t.createdAt, t.id),
    index('stores_name_idx').on(t.name, t.id),
    index('stores_status_idx').on(t.status, t.id),
    index('stores_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
    check('stores_status_chk', inList('status', STORE_STATUSES)),
    check('stores_min_soc_chk', sql`min_soc between 0 and 100`),
  ],
);
