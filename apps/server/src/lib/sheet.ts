import { Worker } from 'node:worker_threads';
import { checkDirectory, SheetLimit, zipDirectory, type UnpackLimits } from './xlsx-zip.mjs';

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
    /** Over one of the upload's limits (sheetLimits): the refusal reason and the limit. */
    readonly limit?: { reason: SheetLimit['reason']; max: number },
  ) {
    super(message);
  }
}

const MB = 1024 * 1024;

/** SheetJS, loaded at the first sheet written or read here, not at start (bench/README.md "Production start"). */
const xlsx = () => import('@e965/xlsx');

/** What an import sheet may hold: what it unpacks to and how many cells it has. */
export interface SheetLimits {
  unpack: UnpackLimits;
  /** Cells of the kept rows, each as wide as the sheet's dimension. */
  maxCells: number;
}

/**
 * The limits of a sheet of at most `maxRows` rows, from what real imports need: 100,000 template
 * rows with short texts are a 66 MB sheet part (written by writeSheet, inline strings), with about
 * 60 characters in each text cell 139 MB; Excel's shared strings make the sheet smaller and add a
 * part of the texts. So 1.5 KB per row for any one part and twice that for all parts (SheetJS,
 * for the files the fast reader leaves to it, inflates every part), and 50 columns per row.
 */
export function sheetLimits(maxRows: number): SheetLimits {
  const maxPartBytes = Math.max(16 * MB, maxRows * 1536);
  return { unpack: { maxPartBytes, maxTotalBytes: 2 * maxPartBytes, maxEntries: 10_000 }, maxCells: maxRows * 50 };
}

/**
 * An .xlsx upload's ZIP directory checked on the calling thread, before any worker starts or any
 * part is inflated: a bomb whose directory tells its size is refused for the cost of reading it.
 */
function checkZip(buf: Buffer, limits: UnpackLimits): SheetReadError | undefined {
  try {
    checkDirectory(zipDirectory(buf), limits);
    return undefined;
  } catch (err) {
    if (err instanceof SheetLimit) return new SheetReadError(err.message, false, { reason: err.reason, max: err.max });
    // A ZIP without a directory this reader understands is read by nobody (SheetJS would try).
    return new SheetReadError(`not a workbook: ${(err as Error).message}`);
  }
}

/**
 * Parses the first sheet in a worker thread, so a large or hostile workbook never blocks the
 * event loop: parsing stops after `maxRows` rows, what it unpacks to and its cells are bounded
 * (`limits`, by default sheetLimits(maxRows)), the worker's heap is bounded and it is ended
 * after `timeoutMs`.
 */
export function readSheetInWorker(
  buf: Buffer,
  opts: { maxRows: number; timeoutMs?: number; maxHeapMb?: number; limits?: SheetLimits },
): Promise<ParsedSheet> {
  const limits = opts.limits ?? sheetLimits(opts.maxRows);
  if (buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b) {
    const refused = checkZip(buf, limits.unpack);
    if (refused) return Promise.reject(refused);
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sheet.worker.mjs', import.meta.url), {
      workerData: { data: buf, maxRows: opts.maxRows, maxCells: limits.maxCells, unpack: limits.unpack },
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
    type Message =
      | { type: 'rows'; rows: unknown[][] }
      | { type: 'done'; dimensionRows: number }
      | { type: 'failed'; message: string; limit?: SheetReadError['limit'] };
    worker.on('message', (msg: Message) => {
      if (msg.type === 'rows') {
        for (const r of msg.rows) rows.push(r);
        // Ask for the next slice on a later turn of the event loop.
        setImmediate(() => worker.postMessage('next'));
      } else if (msg.type === 'done') {
        finish(() => resolve({ rows, dimensionRows: msg.dimensionRows }));
      } else {
        finish(() => reject(new SheetReadError(msg.message, false, msg.limit)));
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
export async function readSheet(buf: Buffer): Promise<unknown[][]> {
  const XLSX = await xlsx();
  const wb = XLSX.read(buf, { type: 'buffer', cellDates: false, dense: true });
  const name = wb.SheetNames[0];
  if (!name) return [];
  const sheet = wb.Sheets[name]!;
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, blankrows: false, defval: '', raw: true });
}

/**
 * Text a spreadsheet program may run as a formula (OWASP "CSV injection"): = + - @ first, also
 * after leading spaces (programs trim them before reading a formula), their full-width forms
 * (an East Asian input method types those), or a leading tab or carriage return.
 */
const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/**
 * Whether a text is written with one more leading single quote: text that starts like a formula,
 * and, so that restoreCell gives back exactly what was written, text that already starts with
 * quotes before a formula start.
 */
const needsQuote = (s: string) => FORMULA_START.test(s.replace(/^'+/, ''));

/** Prefixes text that starts like a formula with a single quote, so it stays text. */
export function neutralizeCell(v: unknown): unknown {
  return typeof v === 'string' && needsQuote(v) ? `'${v}` : v;
}

/** Undoes neutralizeCell on import: a re-imported export gets its original text back. */
export function restoreCell(v: unknown): unknown {
  return typeof v === 'string' && v.startsWith("'") && needsQuote(v) ? v.slice(1) : v;
}

/** The separators a spreadsheet program may split a CSV line on, by its language settings. */
const CSV_NEEDS_QUOTES = /[,;\t|"\r\n]/;

/** A formula start right after a separator or line break inside a text. */
const INNER_FORMULA = /([,;\t|\r\n]\s*)([=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** One CSV field: numbers and booleans as they are, text neutralised and quoted. */
function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  // Quotes keep a field one cell only where the reader's separator is the file's (a comma): read
  // with another, the line splits at that separator inside the field too, and the piece after it
  // opens as a cell of its own, so a formula start there is neutralised like a leading one.
  const s = String(neutralizeCell(String(v))).replace(INNER_FORMULA, "$1'$2");
  return CSV_NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
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
 * Writes rows (header row first) as CSV for spreadsheet programs: UTF-8 with a BOM, comma
 * separated, CRLF lines. Every export's CSV goes through here: a text field with a separator of
 * any language setting (, ; tab |), a quote or a line break is quoted, and no cell a program opens
 * it as starts like a formula.
 */
export async function writeCsv(rows: unknown[][]): Promise<Buffer> {
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i += CSV_CHUNK_ROWS) {
    // A few thousand rows at a time: 170,000 at once held every other request up for about a
    // second on 2 cores (bench:heavy); between chunks the server answers them.
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const r of rows.slice(i, i + CSV_CHUNK_ROWS)) lines.push(r.map(csvField).join(','));
  }
  return Buffer.from('\uFEFF' + lines.join('\r\n') + '\r\n');
}

const CSV_CHUNK_ROWS = 5000;

/**
 * Writes rows (header row first) as an .xlsx buffer. Every text cell that starts like a formula
 * is written with a leading single quote (neutralizeCell).
 */
export async function writeSheet(sheetName: string, rows: unknown[][]): Promise<Buffer> {
  const XLSX = await xlsx();
  const wb = XLSX.utils.book_new();
  const ws = XLSX.utils.aoa_to_sheet(rows.map((r) => r.map(neutralizeCell)));
  ws['!cols'] = (rows[0] ?? []).map(() => ({ wch: 20 }));
  XLSX.utils.book_append_sheet(wb, ws, safeSheetName(sheetName));
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
