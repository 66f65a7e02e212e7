import { PATTERNS, refusalMessage, type ImportError, type RefusalParams, type RefusalReason } from '@iot/contract';
import type { z } from 'zod';
import { invalid } from './errors.js';
import { spreadsheetKind } from './sheet.js';

/** A row error of a spreadsheet import (devices, SIM cards) with its refusal reason: the console translates `reason`, API users read `message`. */
export function cellError(row: number, column: string, reason: RefusalReason, params: RefusalParams = {}): ImportError {
  return { row, column, reason, params, message: refusalMessage(reason, params) };
}

/** The typed fields' patterns, by zod's rendering of them in an `invalid_format` issue. */
const PATTERN_REASONS = new Map<string, RefusalReason>([
  [String(PATTERNS.sn), 'snPattern'],
  [String(PATTERNS.digits), 'digitsOnly'],
  [String(PATTERNS.alarmPhones), 'phoneListPattern'],
  [String(PATTERNS.phone), 'phonePattern'],
]);

/**
 * A zod issue of an import row's schema as a refusal reason, chosen by the issue's code (never by its
 * wording): empty → cellRequired, too long → tooLong, outside one of `ranges` → numberRange, not a
 * number or not whole → numberRequired/integerRequired, a pattern → its reason.
 */
export function issueRefusal(
  issue: z.core.$ZodIssue,
  ranges: Readonly<Record<string, { min: number; max: number }>> = {},
): { reason: RefusalReason; params?: RefusalParams } {
  const column = String(issue.path[0] ?? '');
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'string') {
        return issue.code === 'too_small' ? { reason: 'cellRequired' } : { reason: 'tooLong', params: { max: Number(issue.maximum) } };
      }
      const range = ranges[column];
      return range ? { reason: 'numberRange', params: { ...range } } : { reason: 'invalidValue' };
    }
    case 'invalid_type':
      if (issue.expected === 'int') return { reason: 'integerRequired' };
      if (issue.expected === 'number') return { reason: 'numberRequired' };
      return { reason: 'invalidValue' };
    case 'invalid_format': {
      const reason = issue.format === 'regex' ? PATTERN_REASONS.get(issue.pattern ?? '') : undefined;
      return { reason: reason ?? 'invalidValue' };
    }
    default:
      return { reason: 'invalidValue' };
  }
}


/** A sheet's column: its key and its header in each language (any of them, or the key, is read). */
export interface SheetColumn<K extends string> {
  key: K;
  required: boolean;
  zh: string;
  en: string;
  es: string;
  ja: string;
}

/** The header row as column keys (a header in any language, or the key), and the required keys it lacks. */
export function sheetHeader<K extends string>(columns: readonly SheetColumn<K>[], header: unknown[]) {
  const norm = (v: unknown) => String(v ?? '').trim().toLowerCase();
  const lookup = new Map<string, K>();
  for (const c of columns) for (const label of [c.key, c.zh, c.en, c.es, c.ja]) lookup.set(norm(label), c.key);
  const keys = header.map((h) => lookup.get(norm(h)));
  const missing = columns.filter((c) => c.required && !keys.includes(c.key)).map((c) => c.key);
  return { keys, missing };
}

/** The file of an import: an .xlsx/.xls name and a spreadsheet's bytes, else 40000 naming `file`. */
export function checkSheetFile(file: { filename: string; data: Buffer }) {
  if (!/\.(xlsx|xls)$/i.test(file.filename)) throw invalid('file', 'importFormat');
  if (!spreadsheetKind(file.data)) throw invalid('file', 'notSpreadsheet');
}

/** The device import's slots and row limit, which every sheet import of the process shares. */
export interface ImportSlots {
  withImportSlot<T>(work: () => Promise<T>): Promise<T>;
  readImportRows(data: Buffer): Promise<{ header: unknown[]; rows: unknown[][] }>;
}

/**
 * An import's data rows with their columns' keys (the header in any language), once the file is
 * a spreadsheet with every required column and at least one row (40000 naming `file` otherwise).
 */
export async function sheetRows<K extends string>(imports: ImportSlots, data: Buffer, columns: readonly SheetColumn<K>[]) {
  const { header, rows } = await imports.readImportRows(data);
  const { keys, missing } = sheetHeader(columns, header);
  if (missing.length > 0) throw invalid('file', 'importMissingColumns', { columns: missing.join(', ') });
  if (rows.length === 0) throw invalid('file', 'importNoRows');
  return { keys, rows };
}
