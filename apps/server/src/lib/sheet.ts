import { Worker } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';

/** The largest upload (a 100,000-row device sheet of the template's columns is about 19 MB). */
export const UPLOAD_MAX_MB = 50;

/** What an upload really is, by its first bytes; undefined for anything but a workbook. */
export function spreadsheetKind(buf: Buffer): 'xlsx' | 'xls' | undefined {
  // .xlsx: a ZIP (local file header PK\x03\x04) holding the workbook part.
  if (buf.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) && buf.includes('xl/workbook.xml')) {
    return 'xlsx';
  }
  // .xls: an OLE2 compound document (D0 CF 11 E0 A1 B1 1A E1).
  if (buf.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'xls';
  return undefined;
}

export interface ParsedSheet {
  /** Non-blank rows of the first sheet (header first), at most `maxRows` of the sheet's top rows. */
  rows: unknown[][];
  /** Rows of the sheet's whole dimension (used range), counted without parsing them. */
  dimensionRows: number;
}

export class SheetReadError extends Error {
  constructor(
    message: string,
    /** The worker ran out of memory or time: the file is too big, not malformed. */
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/**
 * Parses the first sheet in a worker thread, so a large or hostile workbook never blocks the
 * event loop: parsing stops after `maxRows` rows, the worker's heap is bounded and it is ended
 * after `timeoutMs`.
 */
export function readSheetInWorker(
  buf: Buffer,
  opts: { maxRows: number; timeoutMs?: number; maxHeapMb?: number },
): Promise<ParsedSheet> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sheet.worker.mjs', import.meta.url), {
      workerData: { data: buf, maxRows: opts.maxRows },
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 1024 },
      // The parent's loader flags (tsx) are not needed: the worker is plain JavaScript.
      execArgv: [],
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => finish(() => reject(new SheetReadError('reading the sheet took too long', true))),
      opts.timeoutMs ?? 60_000,
    );
    const rows: unknown[][] = [];
    type Message = { type: 'rows'; rows: unknown[][] } | { type: 'done'; dimensionRows: number } | { type: 'failed'; message: string };
    worker.on('message', (msg: Message) => {
      if (msg.type === 'rows') {
        for (const r of msg.rows) rows.push(r);
        // Ask for the next slice on a later turn of the event loop.
        setImmediate(() => worker.postMessage('next'));
      } else if (msg.type === 'done') {
        finish(() => resolve({ rows, dimensionRows: msg.dimensionRows }));
      } else {
        finish(() => reject(new SheetReadError(msg.message)));
      }
    });
    worker.once('error', (err: NodeJS.ErrnoException) =>
      finish(() => reject(new SheetReadError(err.message, err.code === 'ERR_WORKER_OUT_OF_MEMORY'))),
    );
    worker.once('exit', (code) => finish(() => reject(new SheetReadError(`sheet worker exited with ${code}`))));
  });
}

/**
 * Reads the first sheet of an .xlsx/.xls buffer as rows of cell values (header row first), on
 * the calling thread: for files the server wrote itself (tests, templates), never for uploads.
 */
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

/** Excel's longest sheet name, in UTF-16 units. */
const SHEET_NAME_MAX = 31;

/**
 * A sheet name Excel opens and SheetJS writes: Excel (and so SheetJS, which throws) refuses the
 * name "History" (it keeps it for change tracking), more than 31 characters, any of : \ / ? * [ ]
 * and an apostrophe first or last; a name like that becomes a close one that is allowed.
 */
export function safeSheetName(name: string): string {
  let n = name.replace(/[:\\/?*[\]]/g, '_');
  if (n.length > SHEET_NAME_MAX) {
    n = n.slice(0, SHEET_NAME_MAX);
    // Never half of a surrogate pair at the cut.
    if (/[\ud800-\udbff]$/.test(n)) n = n.slice(0, -1);
  }
  n = n.replace(/^'+|'+$/g, '');
  if (n.toLowerCase() === 'history') n = `${n}_`;
  return n || 'Sheet1';
}

/**
 * Writes rows (header row first) as an .xlsx buffer. Every text cell that starts with = + - @,
 * a tab or a carriage return is written with a leading single quote (formula injection).
 */
export function writeSheet(sheetName: string, rows: unknown[][]): Buffer {
  const wb = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet(rows.map((r) => r.map(neutralizeCell)));
  ws['!cols'] = (rows[0] ?? []).map(() => ({ wch: 20 }));
  XLSX.utils.book_append_sheet(wb, ws, safeSheetName(sheetName));
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
