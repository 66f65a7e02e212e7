import { z } from 'zod';
import { editOf } from './edit.js';
import { idNumberSchema, idSchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import { timeZoneSchema } from './home.js';
import { DEVICE_RANGES } from './devices.js';
import {
  CURRENCIES,
  REVENUE_PERIODS,
  RENTAL_ACTIONS,
  RENTAL_KINDS,
  RENTAL_STATES,
  RETURN_FAULTS,
  STOCK_FAULTS,
  STOCK_STATES,
  STORE_LIMITS,
  STORE_STATUSES,
} from './store-rules.js';

/**
 * Stores (outlets, §2 /store/index) and rentals or sales of battery packs (§2 /rent/index),
 * issue #38. A store belongs to a user (an agent or its sub-user) and is scoped by the owner's
 * path like a device; a pack (device) is stocked at one store; a rental names a customer, a
 * store and a pack, with amounts in integer minor units (cents) of one currency.
 */

const order = z.enum(['asc', 'desc']).default('desc');
const text = (max: number) => z.string().trim().max(max).default('');
const required = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const lng = z.number().min(DEVICE_RANGES.lng.min, 'longitude is -180…180').max(DEVICE_RANGES.lng.max, 'longitude is -180…180');
const lat = z.number().min(DEVICE_RANGES.lat.min, 'latitude is -90…90').max(DEVICE_RANGES.lat.max, 'latitude is -90…90');
const amount = z.number().int('an amount in cents (a whole number)').min(0).max(STORE_LIMITS.amount);
const phone = z.string().trim().max(STORE_LIMITS.phone).regex(/^[0-9+\-() ]*$/, 'digits, +, -, (, ) and spaces only');

// ---------------------------------------------------------------- stores

export const storeFieldsSchema = z.object({
  name: required(STORE_LIMITS.name, 'please enter the name'),
  /** Unique platform-wide: import files and rentals name stores by it. */
  code: required(STORE_LIMITS.code, 'please enter the code').regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  address: text(STORE_LIMITS.address),
  lng: lng.nullable().default(null),
  lat: lat.nullable().default(null),
  contact: text(STORE_LIMITS.contact),
  phone: phone.default(''),
  openingHours: text(STORE_LIMITS.hours),
  status: z.enum(STORE_STATUSES).default('open'),
  remark: text(STORE_LIMITS.remark),
  /** A pack counts as available from this SOC, %. */
  minSoc: z.number().int().min(0).max(100).default(80),
  /** A returned pack whose cell voltage spread exceeds this (mV) goes to faulty. */
  maxCellDeltaMv: z.number().int().min(1).max(5000).default(150),
  /** A returned pack whose highest cell temperature exceeds this (°C) goes to faulty. */
  maxTempC: z.number().int().min(-40).max(150).default(55),
  /** The store's owner: defaults to the caller; must be in the caller's subtree. */
  ownerId: idNumberSchema.optional(),
});
export type StoreFields = z.input<typeof storeFieldsSchema>;
export const storeEditSchema = editOf(storeFieldsSchema).extend({ id: idNumberSchema });

export const stockCountsSchema = z.object({
  available: z.number().int(),
  charging: z.number().int(),
  low: z.number().int(),
  rented: z.number().int(),
  faulty: z.number().int(),
  offline: z.number().int(),
  total: z.number().int(),
});
export type StockCounts = z.infer<typeof stockCountsSchema>;

export const storeDtoSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string(),
    address: z.string(),
    lng: z.number().nullable(),
    lat: z.number().nullable(),
    contact: z.string(),
    phone: z.string(),
    openingHours: z.string(),
    status: z.enum(STORE_STATUSES),
    remark: z.string(),
    minSoc: z.number().int(),
    maxCellDeltaMv: z.number().int(),
    maxTempC: z.number().int(),
    ownerId: z.number().int(),
    ownerName: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** The store's packs by state, computed from live data when asked. */
    stock: stockCountsSchema,
    can: z.object({ edit: z.boolean(), delete: z.boolean() }),
  })
  .meta({ id: 'Store' });
export type StoreDto = z.infer<typeof storeDtoSchema>;

export const storeListQuerySchema = pageQuerySchema.extend({
  /** Name, code, address or phone contains. */
  q: z.string().trim().max(64).optional(),
  status: z.enum(STORE_STATUSES).optional(),
  ownerId: idSchema.optional(),
  sort: z.enum(['createdAt', 'name', 'code', 'status']).default('createdAt'),
  order,
});

export const storeIdQuerySchema = z.object({ id: idSchema });

/** One pack of a store's stock. */
export const stockItemSchema = z.object({
  deviceId: z.number().int(),
  sn: z.string(),
  name: z.string(),
  state: z.enum(STOCK_STATES),
  online: z.boolean(),
  soc: z.number().nullable(),
  charging: z.boolean(),
  warningLevel: z.number().int(),
  fault: z.enum(STOCK_FAULTS).nullable(),
  /** The open rental of the pack, when rented. */
  rentalId: z.number().int().nullable(),
});
export type StockItem = z.infer<typeof stockItemSchema>;

export const stockQuerySchema = pageQuerySchema.extend({
  storeId: idSchema,
  state: z.enum(STOCK_STATES).optional(),
});

export const stockDevicesSchema = z.object({
  storeId: idNumberSchema,
  deviceIds: z.array(idNumberSchema).min(1).max(1000),
});
export const deviceIdsSchema = z.object({ deviceIds: z.array(idNumberSchema).min(1).max(1000) });

// ---------------------------------------------------------------- rentals

export const rentalCreateSchema = z
  .object({
    kind: z.enum(RENTAL_KINDS).default('rent'),
    storeId: idNumberSchema,
    deviceId: idNumberSchema,
    customerName: required(STORE_LIMITS.customerName, 'please enter the customer’s name'),
    customerPhone: phone.min(3, 'please enter the customer’s phone'),
    /** Kept masked (all but the last 4 characters); never stored in full. */
    idCard: z.string().trim().min(6, 'an ID-card number has at least 6 characters').max(STORE_LIMITS.idCard).regex(/^[A-Za-z0-9]+$/, 'letters and digits only').optional(),
    email: z.union([z.literal(''), z.email().max(STORE_LIMITS.email)]).default(''),
    currency: z.enum(CURRENCIES).default('CNY'),
    depositCents: amount.default(0),
    /** A rental charges per day (started days) or a total; a sale a total. */
    pricePerDayCents: amount.nullable().default(null),
    totalPriceCents: amount.nullable().default(null),
    /** Start: now when omitted. */
    startAt: isoDateTimeSchema.optional(),
    /** Due back (rentals only). */
    dueAt: isoDateTimeSchema.optional(),
    /** A rental booked for later: reserved until handed over (activate). */
    reserve: z.boolean().default(false),
    remark: text(STORE_LIMITS.remark),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'rent') {
      if (!v.dueAt) ctx.addIssue({ code: 'custom', path: ['dueAt'], message: 'a rental needs a due date' });
      if ((v.pricePerDayCents === null) === (v.totalPriceCents === null)) {
        ctx.addIssue({ code: 'custom', path: ['pricePerDayCents'], message: 'a price per day or a total price, one of them' });
      }
      if (v.dueAt && Date.parse(v.dueAt) <= (v.startAt ? Date.parse(v.startAt) : Date.now() - 60_000)) {
        ctx.addIssue({ code: 'custom', path: ['dueAt'], message: 'the due date comes after the start' });
      }
    } else {
      if (v.totalPriceCents === null) ctx.addIssue({ code: 'custom', path: ['totalPriceCents'], message: 'a sale needs its price' });
      if (v.reserve) ctx.addIssue({ code: 'custom', path: ['reserve'], message: 'a sale is not reserved' });
    }
  });
export type RentalCreate = z.input<typeof rentalCreateSchema>;

export const rentalIdSchema = z.object({ id: idNumberSchema });
export const rentalReturnSchema = z.object({ id: idNumberSchema, remark: text(STORE_LIMITS.remark) });

/** What a return check read, and what it found. */
export const returnCheckSchema = z.object({
  soc: z.number().nullable(),
  cellDeltaMv: z.number().nullable(),
  maxTempC: z.number().nullable(),
  /** When the figures were reported (null: the pack never reported them). */
  reportedAt: z.string().nullable(),
  alarms: z.array(z.object({ level: z.number().int(), message: z.string(), startedAt: z.string() })),
  /** The store's thresholds the figures were held against. */
  thresholds: z.object({ maxCellDeltaMv: z.number().int(), maxTempC: z.number().int(), alarmLevel: z.number().int() }),
  faults: z.array(z.enum(RETURN_FAULTS)),
  passed: z.boolean(),
});
export type ReturnCheck = z.infer<typeof returnCheckSchema>;

export const rentalEventSchema = z.object({
  from: z.enum(RENTAL_STATES).nullable(),
  to: z.enum(RENTAL_STATES),
  at: z.string(),
  by: z.string(),
});

export const rentalDtoSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(RENTAL_KINDS),
    state: z.enum(RENTAL_STATES),
    storeId: z.number().int(),
    storeName: z.string(),
    deviceId: z.number().int().nullable(),
    deviceSn: z.string(),
    deviceName: z.string(),
    customerName: z.string(),
    customerPhone: z.string(),
    /** Masked: only the last 4 characters are kept. */
    idCardMasked: z.string(),
    email: z.string(),
    currency: z.enum(CURRENCIES),
    depositCents: z.number().int(),
    pricePerDayCents: z.number().int().nullable(),
    totalPriceCents: z.number().int().nullable(),
    /** What the customer was charged: set at return (days started × day price, or the total) and at sale. */
    chargedCents: z.number().int().nullable(),
    startAt: z.string(),
    dueAt: z.string().nullable(),
    returnedAt: z.string().nullable(),
    remark: z.string(),
    returnCheck: returnCheckSchema.nullable(),
    /** The pack's last known position and alarm level (an overdue or lost pack is looked for by them). */
    deviceLng: z.number().nullable(),
    deviceLat: z.number().nullable(),
    deviceWarningLevel: z.number().int().nullable(),
    createdAt: z.string(),
    /** The transitions the caller may apply now. */
    actions: z.array(z.enum(RENTAL_ACTIONS)),
  })
  .meta({ id: 'Rental' });
export type RentalDto = z.infer<typeof rentalDtoSchema>;
export const rentalDetailSchema = rentalDtoSchema.extend({
  events: z.array(rentalEventSchema),
  /** The pack's active alarms while it is out (active, overdue) or lost: its store looks after it. */
  alarms: returnCheckSchema.shape.alarms,
});

export const rentalListQuerySchema = pageQuerySchema.extend({
  storeId: idSchema.optional(),
  state: z.enum(RENTAL_STATES).optional(),
  kind: z.enum(RENTAL_KINDS).optional(),
  /** Customer phone starts with. */
  phone: z.string().trim().max(STORE_LIMITS.phone).optional(),
  /** Device SN contains. */
  sn: z.string().trim().max(64).optional(),
  /** Started from / before (ISO instants). */
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  sort: z.enum(['createdAt', 'startAt', 'dueAt', 'state']).default('createdAt'),
  order,
});

export const rentalReturnResultSchema = z.object({ state: z.enum(RENTAL_STATES), chargedCents: z.number().int().nullable(), check: returnCheckSchema });

// ---------------------------------------------------------------- agent view

/** GET /rent/summary: the caller's stores, stock, open rentals and revenue per day, week or month. */
export const rentalSummaryQuerySchema = z.object({
  period: z.enum(REVENUE_PERIODS).default('day'),
  /** Revenue settled from / before (ISO instants); by default the last 30 days, 12 weeks or 12 months. */
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  /** Buckets start at the local midnight of this zone. */
  tz: timeZoneSchema.default('UTC'),
  storeId: idSchema.optional(),
});

export const rentalSummarySchema = z.object({
  stores: z.object({ total: z.number().int(), open: z.number().int() }),
  stock: stockCountsSchema,
  rentals: z.object({ reserved: z.number().int(), active: z.number().int(), overdue: z.number().int() }),
  /** One row per bucket and currency with money settled (returns and sales), oldest first. */
  revenue: z.array(z.object({ bucket: z.string(), currency: z.enum(CURRENCIES), chargedCents: z.number().int(), count: z.number().int() })),
  from: z.string(),
  to: z.string(),
});
export type RentalSummary = z.infer<typeof rentalSummarySchema>;

/** POST /rent/dischargeoff: the command sent (or waiting for the pack's next connection). */
export const dischargeOffResultSchema = z.object({ commandId: z.string(), status: z.string() });
