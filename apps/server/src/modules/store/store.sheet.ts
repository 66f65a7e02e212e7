import {
  CURRENCY_DIGITS,
  RENTAL_EXPORT_COLUMNS,
  STORE_EXPORT_COLUMNS,
  STORE_LIMITS,
  STORE_SHEET_COLUMNS,
  STORE_STATUSES,
  storeFieldsSchema,
  type Currency,
  type ImportError,
  type ImportMode,
  type ImportReport,
  type Language,
  type RentalExportKey,
  type StoreExportKey,
  type StoreSheetKey,
} from '@iot/contract';
import { allowLongWork, type Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { conflict, invalid } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { restoreCell, writeSheet } from '../../lib/sheet.js';
import { cellError, checkSheetFile, importOutcome, issueRefusal, sheetRows, type ImportSlots } from '../../lib/sheet-refusals.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as rentalRepo from './rental.repo.js';
import type { RentalListQuery } from './rental.service.js';
import * as repo from './store.repo.js';
import type { StoreListQuery } from './store.service.js';

const text = (v: unknown) => (v === null || v === undefined ? '' : String(restoreCell(v)).trim());
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

  template(lang: Language): Buffer {
    return writeSheet('stores', [STORE_SHEET_COLUMNS.map((c) => c[lang])]);
  }

  async import(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    checkSheetFile(file);
    return this.imports.withImportSlot(() => this.importSheet(actor, file, mode, dryRun));
  }

  private async importSheet(actor: Actor, file: { filename: string; data: Buffer }, mode: ImportMode, dryRun: boolean): Promise<ImportReport> {
    const { keys, rows } = await sheetRows(this.imports, file.data, STORE_SHEET_COLUMNS);
    if (rows.length > STORE_LIMITS.sheetRows) throw invalid('file', 'importTooManyRows', { max: STORE_LIMITS.sheetRows });

    const errors: ImportError[] = [];
    const valid: { row: number; store: ReturnType<typeof storeFieldsSchema.parse> }[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < rows.length; i++) {
      const cells = rows[i]!;
      const row = i + 2;
      const get = (k: StoreSheetKey) => {
        const idx = keys.indexOf(k);
        return idx < 0 ? '' : text(cells[idx]);
      };
      const num = (k: StoreSheetKey) => (get(k) === '' ? undefined : Number(get(k)));
      const status = get('status');
      const candidate = {
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
      };
      const parsed = storeFieldsSchema.safeParse(candidate);
      const rowErrors: ImportError[] = [];
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const refusal = issueRefusal(issue);
          rowErrors.push(cellError(row, String(issue.path[0] ?? ''), refusal.reason, refusal.params));
        }
      }
      if (candidate.code) {
        const first = seen.get(candidate.code);
        if (first) rowErrors.push(cellError(row, 'code', 'duplicateStoreCodeRow', { row: first }));
        else seen.set(candidate.code, row);
      }
      if (rowErrors.length > 0 || !parsed.success) errors.push(...rowErrors);
      else valid.push({ row, store: parsed.data });
    }
    const { fresh, report, write } = importOutcome({
      total: rows.length,
      valid,
      errors,
      taken: await repo.existingCodes(this.db, valid.map((v) => v.store.code)),
      key: { column: 'code', of: (v) => v.store.code, reason: 'storeCodeTaken' },
      mode,
      dryRun,
    });
    if (!write) return report;
    try {
      report.imported = await this.db.transaction(async (tx) => {
        await allowLongWork(tx);
        const n = await repo.insertStores(
          tx,
          fresh.map(({ store: { ownerId: _o, ...s } }) => ({ ...s, ownerId: actor.userId, ownerPath: actor.path })),
        );
        await audit(tx, actor, { name: file.filename, summary: { imported: n, rejected: errors.length, mode } });
        return n;
      });
    } catch (err) {
      if (uniqueViolationOf(err) === 'stores_code_unique') throw conflict('importRace');
      throw err;
    }
    return report;
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
