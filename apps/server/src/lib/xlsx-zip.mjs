// The ZIP container of an .xlsx upload, read without inflating anything: its central directory,
// checked against what the upload may unpack to, and its parts inflated with an output limit.
// A workbook is a ZIP of XML parts, and a small ZIP can unpack to gigabytes (a "ZIP bomb"), so
// nothing of an upload is inflated before its declared sizes pass `checkDirectory`, and nothing is
// inflated beyond the size its directory declared (a directory that lies is caught there too).
// Plain JavaScript: the main thread (sheet.ts) and the sheet worker (sheet.worker.mjs) share it.
import zlib from 'node:zlib';

/** A shape the fast reader does not read (the worker then hands the workbook to SheetJS). */
export class Unsupported extends Error {}

/**
 * An upload over one of the import's limits: refused with its reason (a key of the contract's
 * REFUSALS) and the limit, never handed to another reader.
 */
export class SheetLimit extends Error {
  /** @param {'importUnpackedTooLarge' | 'importTooManyCells'} reason @param {number} max @param {string} message */
  constructor(reason, max, message) {
    super(message);
    this.reason = reason;
    this.max = max;
  }
}

const MB = 1024 * 1024;

/** @param {number} bytes */
export const megabytes = (bytes) => Math.floor(bytes / MB);

/**
 * @typedef {{ name: string, method: number, flags: number, compressedSize: number, size: number, offset: number, extra: Buffer }} ZipEntry
 * @typedef {{ maxPartBytes: number, maxTotalBytes: number, maxEntries: number }} UnpackLimits
 */

/** The first two 8-byte fields of a ZIP64 extra field (id 1), as SheetJS reads them: [first, second]. */
function zip64Fields(extra) {
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (id === 1) {
      const at = (i) => (p + 4 + 8 * i + 8 <= extra.length ? Number(extra.readBigUInt64LE(p + 4 + 8 * i)) : undefined);
      return [at(0), at(1), at(2)];
    }
    p += 4 + len;
  }
  return undefined;
}

/**
 * The central directory's entries. The end record is the last signature in the file, the one
 * SheetJS takes too, so both readers see the same entries; a ZIP64 end record (over 65,535
 * entries or 4 GB, never an upload's) and anything out of bounds throw `Unsupported`.
 * @param {Buffer} buf
 * @returns {ZipEntry[]}
 */
export function zipDirectory(buf) {
  let eocd = -1;
  for (let i = buf.length - 4; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf[i] === 0x50 && buf[i + 1] === 0x4b && buf[i + 2] === 0x05 && buf[i + 3] === 0x06) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0 || eocd + 22 > buf.length) throw new Unsupported('no ZIP directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new Unsupported('ZIP64');
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new Unsupported('bad ZIP directory');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    if (p + 46 + nameLen + extraLen > buf.length) throw new Unsupported('bad ZIP directory');
    const extra = buf.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen);
    const entry = {
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      flags: buf.readUInt16LE(p + 8),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      size: buf.readUInt32LE(p + 24),
      offset: buf.readUInt32LE(p + 42),
      extra,
    };
    // ZIP64 sizes: the fields set to 0xFFFFFFFF follow in the extra field, in this order.
    const z64 = zip64Fields(extra);
    if (z64) {
      let i = 0;
      if (entry.size === 0xffffffff) entry.size = z64[i++] ?? Infinity;
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = z64[i++] ?? Infinity;
      if (entry.offset === 0xffffffff) entry.offset = z64[i++] ?? Infinity;
    }
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Refuses a directory whose declared sizes are over the limits, before anything is inflated.
 * @param {ZipEntry[]} entries @param {UnpackLimits} limits
 */
export function checkDirectory(entries, limits) {
  if (entries.length > limits.maxEntries) throw new Unsupported(`${entries.length} ZIP entries`);
  let total = 0;
  for (const e of entries) {
    if (e.size > limits.maxPartBytes) {
      throw new SheetLimit('importUnpackedTooLarge', megabytes(limits.maxPartBytes), `${e.name} unpacks to ${e.size} bytes`);
    }
    total += e.size;
  }
  if (total > limits.maxTotalBytes) {
    throw new SheetLimit('importUnpackedTooLarge', megabytes(limits.maxTotalBytes), `the workbook unpacks to ${total} bytes`);
  }
}

/** Where an entry's data starts, after its local header. @param {Buffer} buf @param {ZipEntry} e */
function dataStart(buf, e) {
  const p = e.offset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw new Unsupported('bad ZIP entry');
  return p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
}

/**
 * An entry's bytes, never more than its directory declared: a deflated part that unpacks to more
 * is a bomb whose directory lies, refused (`SheetLimit`), not read by anyone else.
 * @param {Buffer} buf @param {ZipEntry} e @returns {Buffer}
 */
export function inflateEntry(buf, e) {
  const start = dataStart(buf, e);
  if (e.method === 0) {
    if (start + e.size > buf.length) throw new Unsupported('bad ZIP entry');
    return buf.subarray(start, start + e.size);
  }
  if (e.method !== 8) throw new Unsupported(`ZIP method ${e.method}`);
  try {
    // The compressed size may be in a data descriptor after the data: inflate to the stream's end.
    return zlib.inflateRawSync(buf.subarray(start), { maxOutputLength: Math.max(1, e.size) });
  } catch (err) {
    if (err && err.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SheetLimit('importUnpackedTooLarge', megabytes(e.size), `${e.name} unpacks to more than its declared ${e.size} bytes`);
    }
    throw err;
  }
}

/**
 * Proves that SheetJS, which inflates every entry of a ZIP, gets no more out of this one than its
 * checked directory declares: each entry really unpacks to at most its declared size, and the size
 * SheetJS takes from the local header (it allocates that much up front, and copies that much of a
 * stored entry) is no larger. Also refuses what SheetJS would read as another container (an
 * OpenDocument or a nested Numbers ZIP) rather than a workbook.
 * @param {Buffer} buf @param {ZipEntry[]} entries
 */
export function verifyForSheetJs(buf, entries) {
  const names = new Set(entries.map((e) => e.name.replace(/^\//, '').toLowerCase()));
  if (!names.has('[content_types].xml') || names.has('meta-inf/manifest.xml')) throw new Unsupported('not an OOXML package');
  for (const e of entries) {
    const p = e.offset;
    const start = dataStart(buf, e);
    const local = buf.subarray(p + 30 + buf.readUInt16LE(p + 26), start);
    // SheetJS's sizes: the local header's, replaced by a ZIP64 field of the local or central extra.
    let [usz, csz] = [buf.readUInt32LE(p + 22), buf.readUInt32LE(p + 18)];
    for (const z of [zip64Fields(local), zip64Fields(e.extra)]) {
      if (z?.[0]) usz = z[0];
      if (z?.[1]) csz = z[1];
    }
    if (usz > e.size || (e.method === 0 && csz > e.size)) throw new SheetLimit('importUnpackedTooLarge', megabytes(e.size), `${e.name}: local sizes over the directory's`);
    if (e.method === 8) inflateEntry(buf, e);
  }
}
