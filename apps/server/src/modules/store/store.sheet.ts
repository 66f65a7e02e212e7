import {
  CURRENCY_DIGITS,
  RENTAL_EXPORT_COLUMNS,
  STORE_EXPORT_COLUMNS,
  STORE_LIMITS,
  STORE_SHEET_COLUMNS,
  STORE_STATUSES,
  storeFieldsSchema,
  type Currency,
  type ImportMode,
  type ImportReport,
  type Language,
  type RentalExportKey,
  type StoreExportKey,
  type StoreSheetKey,
} from '@iot/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { writeSheet } from '../../lib/sheet.js';
import { cellText as text, runSheetImport, sheetTemplate, type SheetImport } from '../../lib/sheet-import.js';
import { cellError, issueRefusal, type ImportSlots } from '../../lib/sheet-refusals.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as rentalRepo from './rental.repo.js';
import { rentalSheet } from './rental.sheet.js';
import type { RentalListQuery } from './rental.service.js';
import * as repo from './store.repo.js';
import type { StoreListQuery } from './store.service.js';

type StoreFields = z.output<typeof storeFieldsSchema>;
const iso = (d: Date | null) => (d ? d.toISOString() : '');
const major = (minor: number | null, currency: string) => (minor === null ? '' : minor / 10 ** CURRENCY_DIGITS[currency as Currency]);

/**
 * Stores from and to spreadsheets, and the rental export (issue #38), as the SIM card sheets do:
 * the device import's slots and row limit, a report with each refused row's reason, all-or-
 * nothing or the valid rows. Imported stores are the caller's own.
 */
export class StoreSheetService {
  constructor(
    private readonly db: Db,
    private readonly imports: ImportSlots,
  ) {}

  /** The store sheet: codes are one store's each, platform-wide; imported stores are the caller's own. */
  private readonly sheet: SheetImport<StoreSheetKey, StoreFields, null> = {
    sheet: 'stores',
    columns: STORE_SHEET_COLUMNS,
    maxRows: STORE_LIMITS.sheetRows,
    context: async () => null,
    parse: (cell, row) => {
      const get = (k: StoreSheetKey) => text(cell(k));
      const num = (k: StoreSheetKey) => (get(k) === '' ? undefined : Number(get(k)));
      const status = get('status');
      const parsed = storeFieldsSchema.safeParse({
        name: get('name'),
        code: get('code'),
        status: status ? (STORE_STATUSES.find((s) => s === status.toLowerCase()) ?? status) : undefined,
        address: get('address'),
        lng: num('lng') ?? null,
        lat: num('lat') ?? null,
        contact: get('contact'),
        phone: get('phone'),
        openingHours: get('openingHours'),
        minSoc: num('minSoc'),
        maxCellDeltaMv: num('maxCellDeltaMv'),
        maxTempC: num('maxTempC'),
        remark: get('remark'),
      });
      if (parsed.success) return { errors: [], value: parsed.data };
      return {
        errors: parsed.error.issues.map((issue) => {
          const refusal = issueRefusal(issue);
          return cellError(row, String(issue.path[0] ?? ''), refusal.reason, refusal.params);
        }),
      };
    },
    unique: [{ column: 'code', duplicate: (row) => ({ reason: 'duplicateStoreCodeRow', params: { row } }) }],
    taken: [{ column: 'code', of: (s) => s.code, find: repo.existingCodes, reason: 'storeCodeTaken', named: true }],
    insert: (tx, rows, actor) => repo.insertStores(tx, rows.map(({ ownerId: _o, ...s }) => ({ ...s, ownerId: actor.userId, ownerPath: actor.path }))),
    race: (constraint) => constraint === 'stores_code_unique',
  };

  template(lang: Language): Promise<Buffer> {
    return sheetTemplate(this.sheet, lang);
  }

  rentalTemplate(lang: Language): Promise<Buffer> {
    return sheetTemplate(rentalSheet(this.db), lang);
  }

  importRentals(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    return runSheetImport({ db: this.db, imports: this.imports, audit }, rentalSheet(this.db), actor, file, mode, dryRun);
  }

  import(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    return runSheetImport({ db: this.db, imports: this.imports, audit }, this.sheet, actor, file, mode, dryRun);
  }

  async export(ctx: AuthContext, q: Omit<StoreListQuery, 'page' | 'limit'>, lang: Language): Promise<Buffer> {
    const rows = await repo.exportStores(this.db, { ...q, scopePath: scopeOf(ctx) }, STORE_LIMITS.sheetRows + 1);
    if (rows.length > STORE_LIMITS.sheetRows) throw invalid('q', 'sheetExportTooMany', { max: STORE_LIMITS.sheetRows });
    const stock = await repo.stockCounts(this.db, rows.map((r) => r.id));
    const body = rows.map((r) => {
      const byKey: Record<StoreExportKey, unknown> = { ...r, ...repo.EMPTY_STOCK, ...stock.get(r.id), owner: r.ownerName, lng: r.lng ?? '', lat: r.lat ?? '' };
      return STORE_EXPORT_COLUMNS.map((c) => byKey[c.key]);
    });
    return writeSheet('stores', [STORE_EXPORT_COLUMNS.map((c) => c[lang]), ...body]);
  }

  async exportRentals(ctx: AuthContext, q: Omit<RentalListQuery, 'page' | 'limit'>, lang: Language): Promise<Buffer> {
    const rows = await rentalRepo.exportRentals(this.db, { ...q, scopePath: scopeOf(ctx) }, STORE_LIMITS.sheetRows + 1);
    if (rows.length > STORE_LIMITS.sheetRows) throw invalid('q', 'sheetExportTooMany', { max: STORE_LIMITS.sheetRows });
    const body = rows.map((r) => {
      const byKey: Record<RentalExportKey, unknown> = {
        ...r,
        store: r.storeName,
        deposit: major(r.depositCents, r.currency),
        pricePerDay: major(r.pricePerDayCents, r.currency),
        totalPrice: major(r.totalPriceCents, r.currency),
        charged: major(r.chargedCents, r.currency),
        startAt: iso(r.startAt),
        dueAt: iso(r.dueAt),
        returnedAt: iso(r.returnedAt),
      };
      return RENTAL_EXPORT_COLUMNS.map((c) => byKey[c.key]);
    });
    return writeSheet('rentals', [RENTAL_EXPORT_COLUMNS.map((c) => c[lang]), ...body]);
  }
}
