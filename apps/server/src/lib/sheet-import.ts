import type { ImportError, ImportMode, ImportReport, Language, RefusalParams, RefusalReason } from '@iot/contract';
import { allowLongWork, type Db, type Executor } from '../db/client.js';
import type { Actor } from './caller.js';
import { uniqueViolationOf } from './db-errors.js';
import { conflict, invalid } from './errors.js';
import { restoreCell, writeSheet } from './sheet.js';
import { cellError, checkSheetFile, sheetRows, type ImportSlots, type SheetColumn } from './sheet-refusals.js';

/** A cell as text: what an export neutralised is restored, and the text trimmed. */
export const cellText = (v: unknown) => (v === null || v === undefined ? '' : String(restoreCell(v)).trim());

/** What one data row gave: its refusals, or (none) the value to write. */
export interface SheetRowResult<T> {
  errors: ImportError[];
  value?: T;
}

/**
 * One spreadsheet import (devices, SIM cards, stores, rentals): its columns, how a row becomes a
 * value or its refusals, which columns are one row's each (in the file and in the database) and
 * how the valid rows are written. `runSheetImport` does the rest the same way for each.
 */
export interface SheetImport<K extends string, T, C> {
  /** The template's (and the export's) sheet name. */
  sheet: string;
  columns: readonly SheetColumn<K>[];
  /** Rows one file may hold below the process's own limit (the slots' reader). */
  maxRows?: number;
  /**
   * What every row needs, read once per import in bulk (the caller's projects, types, the stores
   * and packs the file names …); `column` gives a column's non-empty cell texts over all rows.
   */
  context(actor: Actor, column: (key: K) => string[]): Promise<C>;
  /** A data row (its cells by column key, `row` its spreadsheet row number) as a value or refusals. */
  parse(get: (key: K) => unknown, row: number, ctx: C): SheetRowResult<T>;
  /**
   * Columns no two rows of the file may share (their cell text, when not empty), checked even on
   * rows refused for another reason: the later row is refused with `duplicate(first row)`.
   */
  unique: readonly { column: K; duplicate: (firstRow: number) => { reason: RefusalReason; params?: RefusalParams } }[];
  /**
   * Values the database already holds, each one bulk query over the valid rows: a row whose value
   * is taken is refused on that column with `reason` (params `{ [column]: value }` when `named`).
   */
  taken: readonly {
    column: K;
    of: (value: T) => string | undefined;
    find: (db: Executor, values: string[]) => Promise<Set<string>>;
    reason: RefusalReason;
    named: boolean;
  }[];
  /** Writes the rows in the import's transaction (bulk statements); answers how many were written. */
  insert(tx: Executor, values: T[], actor: Actor, ctx: C): Promise<number>;
  /** A unique constraint whose violation means someone else wrote a key meanwhile (40900 importRace). */
  race(constraint: string): boolean;
}

/** Where an import runs: the database, the process's import slots and the operation log's writer. */
export interface ImportHost {
  db: Db;
  imports: ImportSlots;
  audit(tx: Executor, actor: Actor, entry: { name: string; summary: unknown }): Promise<void>;
}

/** Hand the event loop back every few hundred rows (20,000 rows take ~200 ms). */
const YIELD_EVERY = 250;

/** The template of an import: its header row in a language. */
export function sheetTemplate<K extends string>(spec: Pick<SheetImport<K, unknown, unknown>, 'sheet' | 'columns'>, lang: Language): Promise<Buffer> {
  return writeSheet(spec.sheet, [spec.columns.map((c) => c[lang])]);
}

/**
 * Validates every row and reports row, column and reason. Mode `all` writes nothing when any row
 * is wrong; `valid` writes the valid rows; a dry run only reports. Runs in one of the process's
 * import slots; the write is one transaction with the import's operation-log row.
 */
export async function runSheetImport<K extends string, T, C>(
  { db, imports, audit }: ImportHost,
  spec: SheetImport<K, T, C>,
  actor: Actor,
  file: { filename: string; data: Buffer },
  mode: ImportMode,
  dryRun: boolean,
): Promise<ImportReport> {
  checkSheetFile(file);
  return imports.withImportSlot(async () => {
    const { keys, rows } = await sheetRows(imports, file.data, spec.columns);
    if (spec.maxRows !== undefined && rows.length > spec.maxRows) throw invalid('file', 'importTooManyRows', { max: spec.maxRows });
    const column = (k: K) => {
      const idx = keys.indexOf(k);
      return idx < 0 ? [] : [...new Set(rows.map((r) => cellText(r[idx])).filter(Boolean))];
    };
    const ctx = await spec.context(actor, column);
    const { valid, errors } = await parseSheetRows(spec, keys, rows, ctx);

    const refused = new Set<number>();
    const found = await Promise.all(
      spec.taken.map((t) => {
        const values = valid.flatMap(({ value }) => t.of(value) || []);
        return values.length === 0 ? new Set<string>() : t.find(db, values);
      }),
    );
    spec.taken.forEach((t, i) => {
      for (const { row, value } of valid) {
        const v = t.of(value);
        if (!v || !found[i]!.has(v)) continue;
        errors.push(cellError(row, t.column, t.reason, t.named ? { [t.column]: v } : {}));
        refused.add(row);
      }
    });
    const fresh = valid.filter((v) => !refused.has(v.row));
    errors.sort((a, b) => a.row - b.row);
    const report: ImportReport = { total: rows.length, valid: fresh.length, imported: 0, mode, dryRun, errors };
    if (dryRun || fresh.length === 0 || (mode === 'all' && errors.length > 0)) return report;

    try {
      report.imported = await db.transaction(async (tx) => {
        await allowLongWork(tx);
        const n = await spec.insert(
          tx,
          fresh.map((v) => v.value),
          actor,
          ctx,
        );
        await audit(tx, actor, { name: file.filename, summary: { imported: n, rejected: errors.length, mode } });
        return n;
      });
    } catch (err) {
      const constraint = uniqueViolationOf(err);
      if (constraint && spec.race(constraint)) throw conflict('importRace');
      throw err;
    }
    return report;
  });
}

/** Every data row through `spec.parse`, with the file's own duplicates of `spec.unique`. */
async function parseSheetRows<K extends string, T, C>(spec: SheetImport<K, T, C>, keys: (K | undefined)[], rows: unknown[][], ctx: C) {
  const valid: { row: number; value: T }[] = [];
  const errors: ImportError[] = [];
  const seen = spec.unique.map(() => new Map<string, number>());
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
    const cells = rows[i]!;
    const row = i + 2; // the header is row 1
    const get = (k: K) => {
      const idx = keys.indexOf(k);
      return idx < 0 ? '' : cells[idx];
    };
    const result = spec.parse(get, row, ctx);
    const rowErrors = [...result.errors];
    spec.unique.forEach((u, j) => {
      const v = cellText(get(u.column));
      if (!v) return;
      const first = seen[j]!.get(v);
      if (first === undefined) seen[j]!.set(v, row);
      else {
        const { reason, params } = u.duplicate(first);
        rowErrors.push(cellError(row, u.column, reason, params));
      }
    });
    if (rowErrors.length > 0 || result.value === undefined) errors.push(...rowErrors);
    else valid.push({ row, value: result.value });
  }
  return { valid, errors };
}
