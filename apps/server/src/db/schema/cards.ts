import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { CARD_CARRIERS, CARD_STATUSES, ORDER_KINDS, ORDER_STATUSES, PAYMENT_OUTCOMES } from '@iot/contract';
import { projects } from './projects.js';
import { users } from './users.js';
import { inList } from './util.js';

/**
 * SIM cards (§2 /card/index). Scoped like devices: `owner_path` is the creator's (or the
 * project owner's) path. A device whose SIM number is the card's ICCID or MSISDN is its device;
 * `device_id` caches that link and is written only by triggers on both tables (migration 0045),
 * so the list can filter and sort on it with indexes.
 */
export const simCards = pgTable(
  'sim_cards',
  {
    id: serial('id').primaryKey(),
    iccid: varchar('iccid', { length: 20 }).notNull().unique(),
    msisdn: varchar('msisdn', { length: 15 }).notNull().default(''),
    imsi: varchar('imsi', { length: 15 }).notNull().default(''),
    carrier: varchar('carrier', { length: 16 }).notNull().default('chinaMobile'),
    plan: varchar('plan', { length: 64 }).notNull().default(''),
    status: varchar('status', { length: 16 }).notNull().default('active'),
    activatedAt: date('activated_at', { mode: 'string' }),
    expiresAt: date('expires_at', { mode: 'string' }),
    dataUsedMb: integer('data_used_mb').notNull().default(0),
    dataAllowanceMb: integer('data_allowance_mb').notNull().default(0),
    voiceUsedMin: integer('voice_used_min').notNull().default(0),
    voiceAllowanceMin: integer('voice_allowance_min').notNull().default(0),
    /** The carrier's group of the card (OneLink groupId, for the member voice whitelist). */
    groupId: varchar('group_id', { length: 32 }).notNull().default(''),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    ownerPath: text('owner_path').notNull(),
    remarks: text('remarks').notNull().default(''),
    /**
     * The linked device (lowest id among devices whose SIM number is the ICCID or MSISDN), kept by
     * the database's triggers whatever writes either table; never written by the console.
     */
    deviceId: integer('device_id'),
    /** The expiry date the daily check last mailed the owner about (one mail per date). */
    expiryNotifiedFor: date('expiry_notified_for', { mode: 'string' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The card list's text search: ICCID, MSISDN, IMSI and plan in lower case, one trigram index. */
    search: text('search').generatedAlwaysAs(sql`lower(iccid || ' ' || msisdn || ' ' || imsi || ' ' || plan)`),
  },
  (t) => [
    index('sim_cards_search_trgm_idx').using('gin', t.search.op('gin_trgm_ops')),
    index('sim_cards_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('sim_cards_project_idx').on(t.projectId),
    // The list's sorts, each (column, id) read either way; expiry also answers the expiring filter.
    index('sim_cards_expires_idx').on(t.expiresAt, t.id),
    index('sim_cards_activated_idx').on(t.activatedAt, t.id),
    index('sim_cards_status_idx').on(t.status, t.id),
    // One card per phone number and per IMSI, platform-wide like the ICCID: the carrier calls
    // address a card by them, so a second card with another line's number would reach that
    // line's SIM through the shared carrier account.
    index('sim_cards_msisdn_idx').on(t.msisdn),
    uniqueIndex('sim_cards_msisdn_uq').on(t.msisdn).where(sql`msisdn <> ''`),
    uniqueIndex('sim_cards_imsi_uq').on(t.imsi).where(sql`imsi <> ''`),
    index('sim_cards_created_idx').on(t.createdAt, t.id),
    index('sim_cards_device_idx').on(t.deviceId),
    check('sim_cards_status_chk', inList('status', CARD_STATUSES)),
    check('sim_cards_carrier_chk', inList('carrier', CARD_CARRIERS)),
  ],
);

/**
 * The price list orders take their unit price from: a renewal month of a plan, or a top-up
 * package, per card. Platform-wide (one merchant account); set by holders of card:price.
 */
export const cardPrices = pgTable(
  'card_prices',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 8 }).notNull(),
    plan: varchar('plan', { length: 64 }).notNull(),
    topupMb: integer('topup_mb').notNull().default(0),
    unitPriceCents: integer('unit_price_cents').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remarks: text('remarks').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('card_prices_kind_plan_uq').on(t.kind, t.plan),
    check('card_prices_kind_chk', inList('kind', ORDER_KINDS)),
    check('card_prices_price_chk', sql`unit_price_cents > 0`),
  ],
);

/** Card orders (§2 /card/orderManagement): renewals and top-ups of one or many cards. */
export const cardOrders = pgTable(
  'card_orders',
  {
    id: serial('id').primaryKey(),
    /** The merchant's order number sent to the payment provider (out_trade_no). */
    orderNo: varchar('order_no', { length: 32 }).notNull().unique(),
    kind: varchar('kind', { length: 8 }).notNull(),
    plan: varchar('plan', { length: 64 }).notNull().default(''),
    months: smallint('months').notNull().default(0),
    topupMb: integer('topup_mb').notNull().default(0),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** The price list entry the terms were taken from (the terms are copied: a later price change does not touch them). */
    priceId: integer('price_id').references(() => cardPrices.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    status: varchar('status', { length: 12 }).notNull().default('unpaid'),
    ownerPath: text('owner_path').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: varchar('created_by_name', { length: 64 }).notNull().default(''),
    remarks: text('remarks').notNull().default(''),
    /** An unpaid order becomes `expired` after this. */
    payBefore: timestamp('pay_before', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    provider: varchar('provider', { length: 16 }).notNull(),
    /** The provider's transaction id of the payment (unique: one payment pays one order). */
    transactionId: varchar('transaction_id', { length: 64 }).unique(),
    /** The last `code_url` the provider gave (reused while the order is payable). */
    codeUrl: text('code_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('card_orders_owner_path_idx').on(t.ownerPath.op('text_pattern_ops')),
    index('card_orders_created_idx').on(t.createdAt, t.id),
    index('card_orders_paid_idx').on(t.paidAt, t.id),
    index('card_orders_amount_idx').on(t.amountCents, t.id),
    index('card_orders_unpaid_idx').on(t.payBefore).where(sql`status = 'unpaid'`),
    // The order list's search (`q`: order number, or a card's ICCID or MSISDN, anywhere in them).
    index('card_orders_order_no_trgm_idx').using('gin', t.orderNo.op('gin_trgm_ops')),
    check('card_orders_status_chk', inList('status', ORDER_STATUSES)),
    check('card_orders_kind_chk', inList('kind', ORDER_KINDS)),
    check('card_orders_amount_chk', sql`amount_cents > 0`),
  ],
);

/** The cards of an order; ICCID and MSISDN are copied so the order still names a deleted card. */
export const cardOrderItems = pgTable(
  'card_order_items',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => cardOrders.id, { onDelete: 'cascade' }),
    cardId: integer('card_id').references(() => simCards.id, { onDelete: 'set null' }),
    iccid: varchar('iccid', { length: 20 }).notNull(),
    msisdn: varchar('msisdn', { length: 15 }).notNull().default(''),
    expiresBefore: date('expires_before', { mode: 'string' }),
    expiresAfter: date('expires_after', { mode: 'string' }),
    /** The card's plan when the order was paid (a renewal moves the card to the order's plan; a refund moves it back). */
    planBefore: varchar('plan_before', { length: 64 }),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.iccid] }),
    index('card_order_items_card_idx').on(t.cardId),
    index('card_order_items_iccid_trgm_idx').using('gin', t.iccid.op('gin_trgm_ops')),
    index('card_order_items_msisdn_trgm_idx').using('gin', t.msisdn.op('gin_trgm_ops')),
  ],
);

/** Every payment notification and how it was answered (refusals included). */
export const cardPaymentEvents = pgTable(
  'card_payment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: varchar('order_no', { length: 64 }).notNull().default(''),
    provider: varchar('provider', { length: 16 }).notNull(),
    outcome: varchar('outcome', { length: 16 }).notNull(),
    amountCents: integer('amount_cents'),
    transactionId: varchar('transaction_id', { length: 64 }).notNull().default(''),
    detail: varchar('detail', { length: 256 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_payment_events_order_idx').on(t.orderNo, t.createdAt), check('card_payment_events_outcome_chk', inList('outcome', PAYMENT_OUTCOMES))],
);
