// A fast reader of the first sheet of an .xlsx workbook as rows of raw cell values, the same rows
// SheetJS gives with `sheet_to_json(ws, { header: 1, blankrows: false, defval: '', raw: true })`
// after `read(…, { sheetRows })`. SheetJS builds a cell object per cell, which for a 100,000-row
// import is most of its time; this reads the ZIP's parts with node:zlib and walks the sheet's XML
// with regular expressions. It reads what spreadsheet programs write (shared strings, inline
// strings, numbers, booleans, errors); anything else (a ZIP64 end record, prefixed XML, ISO-dated
// cells, no dimension) throws `Unsupported`, and the caller then reads the workbook with SheetJS.
// Plain JavaScript: the sheet worker (sheet.worker.mjs) runs without a TypeScript loader.
import { checkDirectory, inflateEntry, SheetLimit, Unsupported, zipDirectory } from './xlsx-zip.mjs';

export { SheetLimit, Unsupported };

/**
 * @param {Buffer} buf @param {import('./xlsx-zip.mjs').UnpackLimits | undefined} limits
 * @returns {Map<string, import('./xlsx-zip.mjs').ZipEntry>}
 */
function zipEntries(buf, limits) {
  const all = zipDirectory(buf);
  if (limits) checkDirectory(all, limits);
  const entries = new Map();
  for (const e of all) entries.set(e.name.replace(/^\//, '').toLowerCase(), e);
  return entries;
}

/** A part's text, never unpacked beyond what the ZIP directory declares (inflateEntry). */
function part(buf, entries, name) {
  const e = entries.get(name.toLowerCase());
  return e ? inflateEntry(buf, e).toString('utf8') : undefined;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML text: entities, and the _xHHHH_ escapes spreadsheet programs write for control characters. */
function text(s) {
  if (s.indexOf('&') >= 0) {
    s = s.replace(/&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g, (_, hex, dec, name) =>
      hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : ENTITIES[name],
    );
  }
  if (s.indexOf('_x') >= 0) s = s.replace(/_x([0-9a-fA-F]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  // Line ends as SheetJS gives them (CR LF → LF), whether written literally or escaped.
  if (s.indexOf('\r') >= 0) s = s.replace(/\r\n/g, '\n');
  return s;
}

/** The text of a string item (<si> or <is>): its <t> runs, phonetic runs left out. */
function runs(xml) {
  if (xml.indexOf('<rPh') >= 0) xml = xml.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '');
  let out = '';
  for (const m of xml.matchAll(/<t\b[^>]*?(?:\/>|>([\s\S]*?)<\/t>)/g)) out += m[1] === undefined ? '' : text(m[1]);
  return out;
}

/** "AB" → 27 (0-based column of a cell reference's letters). */
function column(letters) {
  let c = 0;
  for (let i = 0; i < letters.length; i++) c = c * 26 + (letters.charCodeAt(i) - 64);
  return c - 1;
}

/** The target of relationship `id` in a .rels part, as a path in the ZIP. */
function target(rels, id, base) {
  // The id is the workbook's text: matched literally, never as a pattern.
  const m = new RegExp(`<Relationship\\b[^>]*\\bId="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`).exec(rels);
  const t = m && /\bTarget="([^"]+)"/.exec(m[0]);
  if (!t) throw new Unsupported('no sheet relationship');
  const path = t[1];
  return path.startsWith('/') ? path.slice(1) : base + path;
}

/**
 * The first sheet's rows (header row first), only rows numbered up to `maxRows`, and the row count
 * of the sheet's dimension. With `limits`, the ZIP directory is checked against them first, and
 * more than `maxCells` cells (rows kept × the dimension's width) throw `SheetLimit`.
 * @param {Buffer} buf
 * @param {number} maxRows
 * @param {{ maxCells?: number, unpack?: import('./xlsx-zip.mjs').UnpackLimits }} [limits]
 * @returns {{ rows: unknown[][], dimensionRows: number }}
 */
export function readXlsxRows(buf, maxRows, limits = {}) {
  const maxCells = limits.maxCells ?? Infinity;
  const entries = zipEntries(buf, limits.unpack);
  const workbook = part(buf, entries, 'xl/workbook.xml');
  const rels = part(buf, entries, 'xl/_rels/workbook.xml.rels');
  if (!workbook || !rels) throw new Unsupported('no workbook part');
  if (!/<sheets\b/.test(workbook)) throw new Unsupported('prefixed workbook XML');
  const first = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(workbook) ?? /<sheet\b[^>]*\bid="([^"]+)"/.exec(workbook);
  if (!first) return { rows: [], dimensionRows: 0 };
  const sheet = part(buf, entries, target(rels, first[1], 'xl/'));
  if (sheet === undefined) throw new Unsupported('no sheet part');
  if (!/<sheetData\b/.test(sheet)) throw new Unsupported('prefixed sheet XML');

  const dim = /<dimension\b[^>]*\bref="([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?"/.exec(sheet);
  if (!dim) throw new Unsupported('no dimension');
  const [c0, r0] = [column(dim[1]), Number(dim[2])];
  const [c1, r1] = dim[3] ? [column(dim[3]), Number(dim[4])] : [c0, r0];
  const width = c1 - c0 + 1;

  let shared = [];
  const ssRel = /<Relationship\b[^>]*\bType="[^"]*\/sharedStrings"[^>]*>/.exec(rels);
  if (ssRel) {
    const id = /\bId="([^"]+)"/.exec(ssRel[0]);
    const ss = id ? part(buf, entries, target(rels, id[1], 'xl/')) : undefined;
    if (ss) shared = Array.from(ss.matchAll(/<si\b[^>]*?(?:\/>|>([\s\S]*?)<\/si>)/g), (m) => (m[1] === undefined ? '' : runs(m[1])));
  }

  const rows = [];
  const rowRe = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
  const cellRe = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
  let next = 1;
  let cells = 0;
  for (const rm of sheet.matchAll(rowRe)) {
    const rAttr = /\br="(\d+)"/.exec(rm[1]);
    const r = rAttr ? Number(rAttr[1]) : next;
    next = r + 1;
    if (r > maxRows) break;
    // A row outside the dimension: the dimension is wrong, and SheetJS widens it; let it read.
    if (r < r0 || r > r1) throw new Unsupported('row outside the dimension');
    if (rm[2] === undefined) continue;
    // Each kept row is as wide as the dimension: a sheet declared thousands of columns wide stops
    // here rather than filling the worker's heap with empty cells.
    cells += width;
    if (cells > maxCells) throw new SheetLimit('importTooManyCells', maxCells, `more than ${maxCells} cells`);
    const row = new Array(width).fill('');
    let empty = true;
    let col = c0;
    for (const cm of rm[2].matchAll(cellRe)) {
      const attrs = cm[1];
      const ref = /\br="([A-Z]+)\d+"/.exec(attrs);
      const c = ref ? column(ref[1]) : col;
      col = c + 1;
      if (c < c0 || c > c1) throw new Unsupported('cell outside the dimension');
      const body = cm[2];
      if (body === undefined) continue;
      const t = /\bt="(\w+)"/.exec(attrs)?.[1] ?? 'n';
      let v;
      if (t === 'inlineStr') {
        const is = /<is>([\s\S]*?)<\/is>/.exec(body);
        v = is ? runs(is[1]) : undefined;
      } else {
        const vm = /<v\b[^>]*?(?:\/>|>([\s\S]*?)<\/v>)/.exec(body);
        const raw = vm ? (vm[1] ?? '') : undefined;
        if (raw === undefined) v = undefined;
        else if (t === 'n') v = raw === '' ? undefined : Number(raw);
        else if (t === 's') {
          v = shared[Number(raw)];
          if (v === undefined) throw new Unsupported('shared string out of range');
        } else if (t === 'str') v = text(raw);
        else if (t === 'b') v = raw === '1' || raw === 'true';
        // SheetJS: #NULL! is null, any other error the default value.
        else if (t === 'e') v = raw === '#NULL!' ? null : undefined;
        else throw new Unsupported(`cell type ${t}`);
      }
      if (v === undefined) continue;
      if (typeof v === 'number' && Number.isNaN(v)) throw new Unsupported('not a number');
      row[c - c0] = v;
      if (v !== null) empty = false;
    }
    if (!empty) rows.push(row);
  }
  return { rows, dimensionRows: r1 };
}
