// Parses the first sheet of an .xlsx/.xls upload off the main thread (see readSheetInWorker in
// sheet.ts). Plain JavaScript on purpose: it runs the same under tsx (dev, production start) and
// under the test runner, whatever loader the parent thread has.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { readXlsxRows } from './xlsx-rows.mjs';
import { checkDirectory, SheetLimit, verifyForSheetJs, zipDirectory } from './xlsx-zip.mjs';

/** @type {{ data: Uint8Array; maxRows: number; maxCells: number; unpack: import('./xlsx-zip.mjs').UnpackLimits }} */
const { data, maxRows, maxCells, unpack } = workerData;
const CHUNK = 500;

// Parsing is background work: on Linux lower this thread's priority (a thread id given to
// setpriority affects that thread only), so the event loop keeps a core when CPUs are scarce.
try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid)) os.setPriority(tid, 10);
} catch {
  // Not Linux, or not allowed: run at normal priority.
}

/** The first sheet by SheetJS: .xls, and the .xlsx the fast reader leaves to it. */
async function readWithSheetJs() {
  // Loaded only for these: most uploads never need its 7 MB of code in the worker.
  const XLSX = await import('@e965/xlsx');
  const wb = XLSX.read(data, {
    type: 'buffer',
    dense: true,
    // Stop after maxRows rows: a 200,000-row sheet is never turned into cells beyond that.
    sheetRows: maxRows,
    cellFormula: false,
    cellHTML: false,
    cellText: false,
    cellStyles: false,
  });
  const name = wb.SheetNames[0];
  if (!name) return { rows: [], dimensionRows: 0 };
  const ws = wb.Sheets[name];
  // `!fullref` is the sheet's whole dimension when sheetRows cut it short.
  const ref = ws['!fullref'] ?? ws['!ref'];
  // sheet_to_json fills every row to the sheet's width: the fast reader's cell limit, before it does.
  if (ws['!ref']) {
    const { s, e } = XLSX.utils.decode_range(ws['!ref']);
    const cells = (e.r - s.r + 1) * (e.c - s.c + 1);
    if (cells > maxCells) throw new SheetLimit('importTooManyCells', maxCells, `${cells} cells`);
  }
  return {
    rows: XLSX.utils.sheet_to_json(ws, { header: 1, blankrows: false, defval: '', raw: true }),
    dimensionRows: ref ? XLSX.utils.decode_range(ref).e.r + 1 : 0,
  };
}

/**
 * .xlsx through the fast reader (xlsx-rows.mjs); whatever it does not read, through SheetJS, but
 * a ZIP only once every entry is proven to unpack within the limits SheetJS would not keep.
 */
async function read() {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  // Any ZIP (PK), not only one that starts with a local header: SheetJS would open it as one.
  if (buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b) {
    try {
      return readXlsxRows(buf, maxRows, { maxCells, unpack });
    } catch (err) {
      // Over a limit: refused, never retried by SheetJS (which would inflate it all).
      if (err instanceof SheetLimit) throw err;
      // Not a shape it reads (or a broken file): SheetJS reads it, or says what is wrong.
    }
    const entries = zipDirectory(buf);
    checkDirectory(entries, unpack);
    verifyForSheetJs(buf, entries);
  }
  return readWithSheetJs();
}

try {
  const { rows, dimensionRows } = await read();
  // In slices, each sent once the parent asks for it: the parent decodes messages on its event
  // loop, and a queue of them would be decoded in one long go.
  for (let i = 0; i < rows.length; i += CHUNK) {
    const asked = new Promise((resolve) => parentPort.once('message', resolve));
    parentPort.postMessage({ type: 'rows', rows: rows.slice(i, i + CHUNK) });
    await asked;
  }
  parentPort.postMessage({ type: 'done', dimensionRows });
} catch (err) {
  const message = String(err && err.message ? err.message : err);
  const limit = err instanceof SheetLimit ? { reason: err.reason, max: err.max } : undefined;
  parentPort.postMessage({ type: 'failed', message, limit });
}
