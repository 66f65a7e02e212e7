import * as XLSX from '@e965/xlsx';

/** Reads the first sheet of an .xlsx/.xls buffer as rows of cell values (header row first). */
export function readSheet(buf: Buffer): unknown[][] {
  const wb = XLSX.read(buf, { type: 'buffer', cellDates: false, dense: true });
  const name = wb.SheetNames[0];
  if (!name) return [];
  const sheet = wb.Sheets[name]!;
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: '', raw: true });
}

/** Text a spreadsheet program may run as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes text that starts like a formula with a single quote, so it stays text. */
export function neutralizeCell(v: unknown): unknown {
  return typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : v;
}

/** Undoes neutralizeCell on import: a re-imported export gets its original text back. */
export function restoreCell(v: unknown): unknown {
  return typeof v === 'string' && v.startsWith("'") && FORMULA_START.test(v.slice(1)) ? v.slice(1) : v;
}

/**
 * Writes rows (header row first) as an .xlsx buffer. Every text cell that starts with = + - @,
 * a tab or a carriage return is written with a leading single quote (formula injection).
 */
export function writeSheet(sheetName: string, rows: unknown[][]): Buffer {
  const wb = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet(rows.map((r) => r.map(neutralizeCell)));
  ws['!cols'] = (rows[0] ?? []).map(() => ({ wch: 20 }));
  XLSX.utils.book_append_sheet(wb, ws, sheetName);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
