import {
  CURRENCIES,
  CURRENCY_DIGITS,
  RENTAL_IMPORT_STATES,
  RENTAL_KINDS,
  RENTAL_SHEET_COLUMNS,
  STORE_LIMITS,
  rentalCreateSchema,
  type ImportError,
  type RefusalParams,
  type RefusalReason,
  type RentalSheetKey,
} from '@iot/contract';
import type { rentals } from '../../db/schema/index.js';
import { scopeOf } from '../../lib/scope.js';
import { cellText as text, type SheetImport } from '../../lib/sheet-import.js';
import { cellError, issueRefusal } from '../../lib/sheet-refusals.js';
import type { Executor } from '../../db/client.js';
import * as repo from './rental.repo.js';
import * as storeRepo from './store.repo.js';
import { newRentalRow } from './rental.service.js';

type Targets = {
  stores: Map<string, { id: number; status: string }>;
  packs: Map<string, { id: number; name: string; storeId: number | null; rented: boolean; sold: boolean }>;
};
type Row = typeof rentals.$inferInsert;

/** An amount in the major unit (12.50) as an integer of the minor unit; null empty, NaN when not one. */
export function amountCell(v: unknown, digits: number): number | null {
  const s = text(v);
  if (s === '') return null;
  const n = Number(s) * 10 ** digits;
  const minor = Math.round(n);
  return Number.isFinite(n) && n >= 0 && Math.abs(n - minor) < 1e-6 && minor <= STORE_LIMITS.amount ? minor : Number.NaN;
}

const LOCAL = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A time cell as ISO 8601: a spreadsheet date (serial days), `YYYY-MM-DD[ HH:mm[:ss]]` read as
 * UTC (the export writes UTC), or ISO 8601 with its offset; undefined empty, '' when none of these.
 */
export function timeCell(v: unknown): string | undefined {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 1 || v > 2_958_465) return '';
    return new Date(Math.round((v - 25569) * 86_400_000)).toISOString();
  }
  const s = text(v).replace(/\//g, '-');
  if (!s) return undefined;
  const m = LOCAL.exec(s);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', sec = '0'] = m;
    const at = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +sec));
    // 2025-02-30 rolls over: not a date.
    return at.getUTCDate() === +d! && at.getUTCMonth() === +mo! - 1 ? at.toISOString() : '';
  }
  return Number.isNaN(Date.parse(s)) ? '' : s;
}

/** A zod issue's path in rentalCreateSchema as the sheet's column. */
const COLUMN_OF: Record<string, RentalSheetKey> = { depositCents: 'deposit', pricePerDayCents: 'pricePerDay', totalPriceCents: 'totalPrice', storeId: 'store', deviceId: 'deviceSn' };

/**
 * The rental import (issue #38): rentals (active) and sales (sold) of packs stocked at the
 * caller's open stores, checked like `POST /rent/add`: the pack may be changed by the caller, is
 * stocked at the row's store, and is in no open rental and not sold. The rows are written in one
 * transaction; `rentals_open_device_idx` refuses the whole import (importRace) when a pack was
 * rented meanwhile, so an import and a concurrent rental never both win.
 */
export function rentalSheet(db: Executor): SheetImport<RentalSheetKey, Row, Targets> {
  return {
    sheet: 'rentals',
    columns: RENTAL_SHEET_COLUMNS,
    maxRows: STORE_LIMITS.sheetRows,
    context: async (actor, column) => {
      const [stores, packs] = await Promise.all([
        storeRepo.storesByCode(db, column('store'), scopeOf(actor)),
        repo.importPacks(db, scopeOf(actor), column('deviceSn')),
      ]);
      return {
        stores: new Map(stores.map((s) => [s.code, { id: s.id, status: s.status }])),
        packs: new Map(packs.map((p) => [p.sn, { id: p.id, name: p.name, storeId: p.store_id, rented: p.rented, sold: p.sold }])),
      };
    },
    parse: (get, row, ctx) => {
      const errors: ImportError[] = [];
      const refuse = (column: RentalSheetKey, reason: RefusalReason, params?: RefusalParams) => errors.push(cellError(row, column, reason, params));

      const code = text(get('store'));
      const store = ctx.stores.get(code);
      if (code && !store) refuse('store', 'unknownStoreCode', { code });
      else if (store && store.status !== 'open') refuse('store', 'storeNotOpen');
      const sn = text(get('deviceSn'));
      const pack = ctx.packs.get(sn);
      if (sn && !pack) refuse('deviceSn', 'unknownPackSn', { sn });
      else if (pack?.rented) refuse('deviceSn', 'packRented', { sn });
      else if (pack?.sold) refuse('deviceSn', 'packSold', { sn });
      else if (pack && store && pack.storeId !== store.id) refuse('deviceSn', 'packNotInStore', { sn });

      const kindText = text(get('kind')).toLowerCase();
      const kind = kindText ? RENTAL_KINDS.find((k) => k === kindText) : 'rent';
      if (!kind) refuse('kind', 'invalidValue');
      const state = text(get('state')).toLowerCase();
      if (kind && state && state !== RENTAL_IMPORT_STATES[kind]) refuse('state', 'rentalImportState');
      const currencyText = text(get('currency')).toUpperCase();
      const currency = currencyText ? CURRENCIES.find((c) => c === currencyText) : 'CNY';
      if (!currency) refuse('currency', 'invalidValue');
      const digits = CURRENCY_DIGITS[currency ?? 'CNY'];
      const amount = (column: 'deposit' | 'pricePerDay' | 'totalPrice') => {
        const minor = amountCell(get(column), digits);
        if (Number.isNaN(minor)) refuse(column, 'amountInvalid', { digits });
        return Number.isNaN(minor) ? null : minor;
      };
      const time = (column: 'startAt' | 'dueAt') => {
        const at = timeCell(get(column));
        if (at === '') refuse(column, 'dateTimeRequired');
        return at || undefined;
      };
      const idCard = text(get('idCard'));
      const candidate = {
        kind: kind ?? 'rent',
        storeId: store?.id ?? 1,
        deviceId: pack?.id ?? 1,
        customerName: text(get('customerName')),
        customerPhone: text(get('customerPhone')),
        idCard: idCard || undefined,
        email: text(get('email')),
        currency: currency ?? 'CNY',
        depositCents: amount('deposit') ?? 0,
        pricePerDayCents: amount('pricePerDay'),
        totalPriceCents: amount('totalPrice'),
        startAt: time('startAt'),
        dueAt: time('dueAt'),
        remark: text(get('remark')),
      };
      const parsed = rentalCreateSchema.safeParse(candidate);
      if (!parsed.success) {
        const marked = new Set(errors.map((e) => e.column));
        for (const issue of parsed.error.issues) {
          const path = String(issue.path[0] ?? '');
          const column = COLUMN_OF[path] ?? (path as RentalSheetKey);
          // A cell already refused (an amount, a time) or its consequence is not reported twice.
          if (marked.has(column) || (path === 'pricePerDayCents' && marked.has('totalPrice'))) continue;
          if (issue.code !== 'custom') {
            const { reason, params } = issueRefusal(issue);
            refuse(column, reason, params);
          } else if (path === 'dueAt') refuse(column, candidate.dueAt ? 'dueBeforeStart' : 'cellRequired');
          else if (path === 'pricePerDayCents') refuse(column, 'pricePerDayOrTotal');
          else refuse(column, 'cellRequired');
        }
      }
      if (errors.length > 0 || !parsed.success || !store || !pack) return { errors };
      const b = parsed.data;
      const now = new Date();
      const startAt = b.startAt ? new Date(b.startAt) : now;
      // A sale is settled when it was made, so its revenue falls in that day.
      return { errors, value: newRentalRow(b, { state: RENTAL_IMPORT_STATES[b.kind], storeId: store.id, pack: { id: pack.id, sn, name: pack.name }, now, settledAt: startAt }) };
    },
    unique: [{ column: 'deviceSn', duplicate: (row) => ({ reason: 'duplicatePackRow', params: { row } }) }],
    taken: [],
    insert: (tx, values, actor) => repo.insertImported(tx, values.map((v) => ({ ...v, createdBy: actor.userId })), actor),
    race: (constraint) => constraint === 'rentals_open_device_idx',
  };
}
