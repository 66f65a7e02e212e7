import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { CURRENCIES, RENTAL_KINDS, RENTAL_OPEN_STATES, RENTAL_STATES, type ReturnCheck } from '@iot/contract';
import { devices } from './projects.js';
import { stores } from './stores.js';
import { users } from './users.js';
import { inList } from './util.js';

/**
 * Rentals and sales of packs (issue #38). Scoped through their store. Every state change is one
 * guarded update (`where state = <from>`) with a `rental_events` row; `rentals_open_device_idx`
 * allows one open (reserved, active, overdue) rental per pack, so of two concurrent rentals of
 * one pack exactly one is written. Amounts are integers in the currency's minor unit. The
 * customer's ID-card number is kept masked (all but its last 4 characters).
 */
export const rentals = pgTable(
  'rentals',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 8 }).notNull(),
    state: varchar('state', { length: 12 }).notNull(),
    storeId: integer('store_id')
      .notNull()
      .references(() => stores.id),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    /** The pack's SN and name when rented: the record outlives the device. */
    deviceSn: varchar('device_sn', { length: 64 }).notNull(),
    deviceName: varchar('device_name', { length: 64 }).notNull(),
    customerName: varchar('customer_name', { length: 64 }).notNull(),
    customerPhone: varchar('customer_phone', { length: 32 }).notNull(),
    idCardMasked: varchar('id_card_masked', { length: 32 }).notNull().default(''),
    email: varchar('email', { length: 128 }).notNull().default(''),
    currency: varchar('currency', { length: 3 }).notNull(),
    depositCents: integer('deposit_cents').notNull().default(0),
    pricePerDayCents: integer('price_per_day_cents'),
    totalPriceCents: integer('total_price_cents'),
    chargedCents: integer('charged_cents'),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    /** When the rental ended with money earned (returned, sold): revenue is counted by it. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    returnCheck: jsonb('return_check').$type<ReturnCheck>(),
    remark: text('remark').notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rentals_open_device_idx')
      .on(t.deviceId)
      .where(sql.raw(`state in (${RENTAL_OPEN_STATES.map((s) => `'${s}'`).join(', ')})`)),
    index('rentals_store_created_idx').on(t.storeId, t.createdAt, t.id),
    index('rentals_created_idx').on(t.createdAt, t.id),
    index('rentals_start_idx').on(t.startAt, t.id),
    index('rentals_state_due_idx').on(t.state, t.dueAt),
    // The list sorted by due date or by state, deep pages included (bench/rentals.ts).
    index('rentals_due_idx').on(t.dueAt, t.id),
    index('rentals_state_id_idx').on(t.state, t.id),
    index('rentals_phone_idx').on(t.customerPhone.op('text_pattern_ops')),
    index('rentals_sn_trgm_idx').using('gin', sql`lower(${t.deviceSn}) gin_trgm_ops`),
    index('rentals_device_idx').on(t.deviceId),
    index('rentals_settled_idx').on(t.storeId, t.settledAt).where(sql`settled_at is not null`),
    // The administrator's revenue (every store): read from the index alone.
    index('rentals_settled_all_idx').on(t.settledAt, t.currency, t.chargedCents).where(sql`settled_at is not null`),
    check('rentals_kind_chk', inList('kind', RENTAL_KINDS)),
    check('rentals_state_chk', inList('state', RENTAL_STATES)),
    check('rentals_currency_chk', inList('currency', CURRENCIES)),
    check('rentals_amounts_chk', sql`deposit_cents >= 0 and coalesce(price_per_day_cents, 0) >= 0 and coalesce(total_price_cents, 0) >= 0 and coalesce(charged_cents, 0) >= 0`),
  ],
);

/** Each state change of a rental: by a user, or by the overdue job (`by_user_id` null). */
export const rentalEvents = pgTable(
  'rental_events',
  {
    id: serial('id').primaryKey(),
    rentalId: integer('rental_id')
      .notNull()
      .references(() => rentals.id, { onDelete: 'cascade' }),
    fromState: varchar('from_state', { length: 12 }),
    toState: varchar('to_state', { length: 12 }).notNull(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    byName: varchar('by_name', { length: 64 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rental_events_rental_idx').on(t.rentalId, t.at)],
);
