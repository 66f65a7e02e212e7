/**
 * Stores (outlets) and rentals or sales of battery packs (issue #38): the values the console and
 * the server share without zod. The state machine of a rental is `RENTAL_TRANSITIONS`; the
 * server applies each transition as one guarded update (`... where state = <from>`).
 */

export const STORE_STATUSES = ['open', 'closed', 'suspended'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

/**
 * A stocked pack's state, computed from live data in this order: rented (an open rental),
 * faulty (a fault recorded by a return check or a loss, or an active alarm of level ≥ 3),
 * offline, charging, available (SOC ≥ the store's threshold) and low (online, healthy, below it).
 */
export const STOCK_STATES = ['available', 'charging', 'low', 'rented', 'faulty', 'offline'] as const;
export type StockState = (typeof STOCK_STATES)[number];

/** The alarm level from which a pack counts as faulty. */
export const FAULTY_ALARM_LEVEL = 3;

export const RENTAL_KINDS = ['rent', 'sale'] as const;
export type RentalKind = (typeof RENTAL_KINDS)[number];

export const RENTAL_STATES = ['reserved', 'active', 'overdue', 'returned', 'lost', 'sold', 'cancelled'] as const;
export type RentalState = (typeof RENTAL_STATES)[number];
/** States in which the pack is with (or promised to) a customer: one such rental per pack. */
export const RENTAL_OPEN_STATES = ['reserved', 'active', 'overdue'] as const satisfies readonly RentalState[];

export const RENTAL_ACTIONS = ['activate', 'cancel', 'return', 'lose'] as const;
export type RentalAction = (typeof RENTAL_ACTIONS)[number];

/** reserved → active → returned | overdue → returned | lost; reserved → cancelled. */
export const RENTAL_TRANSITIONS: Record<RentalAction, { from: readonly RentalState[]; to: RentalState }> = {
  activate: { from: ['reserved'], to: 'active' },
  cancel: { from: ['reserved'], to: 'cancelled' },
  return: { from: ['active', 'overdue'], to: 'returned' },
  lose: { from: ['overdue'], to: 'lost' },
};

/** The actions a rental in this state allows (the console offers only these). */
export function rentalActions(state: RentalState): RentalAction[] {
  return RENTAL_ACTIONS.filter((a) => RENTAL_TRANSITIONS[a].from.includes(state));
}

/** Currencies amounts may be kept in; every amount is an integer in the currency's minor unit. */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const STORE_LIMITS = {
  name: 64,
  code: 32,
  address: 256,
  contact: 64,
  phone: 32,
  hours: 128,
  remark: 500,
  customerName: 64,
  email: 128,
  idCard: 32,
  /** Largest amount in minor units (a PostgreSQL integer). */
  amount: 2_000_000_000,
  /** Longest rental, days. */
  days: 3660,
  /** Rows an export or import holds. */
  sheetRows: 5000,
} as const;

/** Why a pack fails a store's return check. */
export const RETURN_FAULTS = ['cellSpread', 'temperature', 'alarm'] as const;
export type ReturnFault = (typeof RETURN_FAULTS)[number];

/** A pack's recorded fault: a failed return check, or a loss (cleared by the store when fixed or found). */
export const STOCK_FAULTS = ['returnCheck', 'lost'] as const;
export type StockFault = (typeof STOCK_FAULTS)[number];

/**
 * An ID-card number as it is stored and shown: every character but the last 4 replaced by `*`
 * (the full number is never stored).
 */
export function maskIdCard(id: string): string {
  const v = id.trim();
  if (v.length <= 4) return v;
  return `${'*'.repeat(v.length - 4)}${v.slice(-4)}`;
}

/** The agent view's revenue buckets. */
export const REVENUE_PERIODS = ['day', 'week', 'month'] as const;
export type RevenuePeriod = (typeof REVENUE_PERIODS)[number];
