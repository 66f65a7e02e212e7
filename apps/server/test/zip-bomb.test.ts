import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

/** A deflated part: its compressed bytes, CRC and real size. */
type Deflated = { data: Buffer; crc: number; size: number };

const deflate = (text: string): Deflated => {
  const raw = Buffer.from(text, 'utf8');
  return { data: zlib.deflateRawSync(raw), crc: zlib.crc32(raw), size: raw.length };
};

/**
 * A deflated sheet part of `head`, `fill` repeated up to `megabytes` MB, and `tail`, made a
 * megabyte at a time: the test process never holds what the bomb unpacks to (freed memory kept by
 * the allocator would hide the server's growth from the RSS measured below).
 */
async function deflatedBomb(head: string, fill: string, tail: string, megabytes: number): Promise<Deflated> {
  const chunk = Buffer.from(fill.repeat(Math.ceil((1024 * 1024) / fill.length)).slice(0, 1024 * 1024), 'utf8');
  const out: Buffer[] = [];
  const z = zlib.createDeflateRaw({ level: 9 });
  z.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => z.on('end', resolve));
  let crc = zlib.crc32(head);
  z.write(head);
  for (let i = 0; i < megabytes; i++) {
    crc = zlib.crc32(chunk, crc);
    if (!z.write(chunk)) await new Promise((r) => z.once('drain', r));
  }
  crc = zlib.crc32(tail, crc);
  z.end(tail);
  await done;
  return { data: Buffer.concat(out), crc, size: Buffer.byteLength(head) + megabytes * chunk.length + Buffer.byteLength(tail) };
}

/**
 * A ZIP of deflated parts. `declared` replaces a part's uncompressed size in its local header and
 * central directory, as a bomb that lies about its size does.
 */
function zip(parts: Record<string, Deflated>, declared: Record<string, number> = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, part] of Object.entries(parts)) {
    const nameBuf = Buffer.from(name, 'utf8');
    const fields = (b: Buffer, at: number) => {
      b.writeUInt16LE(8, at);
      b.writeUInt32LE(part.crc, at + 6);
      b.writeUInt32LE(part.data.length, at + 10);
      b.writeUInt32LE(declared[name] ?? part.size, at + 14);
      b.writeUInt16LE(nameBuf.length, at + 18);
      return b;
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    fields(local, 8);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    fields(dir, 10);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, part.data);
    central.push(dir, nameBuf);
    offset += 30 + nameBuf.length + part.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a one-sheet workbook around its sheet part. */
const PACKAGE = {
  '[Content_Types].xml': deflate(
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  ),
  '_rels/.rels': deflate(
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ),
  'xl/workbook.xml': deflate(`<?xml version="1.0"?><workbook ${NS}><sheets><sheet name="Devices" sheetId="1" r:id="rId1"/></sheets></workbook>`),
  'xl/_rels/workbook.xml.rels': deflate(
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ),
};

const SHEET_HEAD = `<?xml version="1.0"?><worksheet ${NS}><dimension ref="A1:C3"/><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';
/** One cell of text, over and over: a row that unpacks to hundreds of megabytes. */
const FILL = '<c t="inlineStr"><is><t>xxxxxxxxxxxxxxxx</t></is></c>';

/**
 * Uploads bounded by what they unpack to: a workbook of a few hundred kilobytes whose sheet unpacks
 * to 400 MB is refused before it is inflated (its ZIP directory says so) or as soon as it unpacks
 * past the size its directory declares (a directory that lies), through both sheet imports, and
 * the server's memory stays flat meanwhile.
 */
describe('zip-bomb uploads', () => {
  let t: TestApp;
  let token: string;
  let honest: Buffer;
  let lying: Buffer;

  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login();
    const sheet = await deflatedBomb(`${SHEET_HEAD}<row r="1">`, FILL, `</row>${SHEET_TAIL}`, 400);
    honest = zip({ ...PACKAGE, 'xl/worksheets/sheet1.xml': sheet });
    // The directory and local header claim 20 kB, as a harmless sheet would.
    lying = zip({ ...PACKAGE, 'xl/worksheets/sheet1.xml': sheet }, { 'xl/worksheets/sheet1.xml': 20_000 });
  }, 60_000);
  afterAll(() => t.close());

  const upload = async (what: 'device' | 'card', data: Buffer) => {
    const body = multipart(`${what}s.xlsx`, data);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${what}/import?dryRun=true`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    return res.json() as { code: number; message: string; data: { field?: string; reason?: string; params?: { max?: number } } };
  };

  /** The highest process RSS above its level before `work`, sampled every few milliseconds while it runs. */
  const rssGrowth = async <T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    try {
      const result = await work();
      peak = Math.max(peak, process.memoryUsage().rss);
      return { result, growthMb: (peak - before) / 1024 / 1024 };
    } finally {
      clearInterval(timer);
    }
  };

  const refusedAsTooLarge = (res: Awaited<ReturnType<typeof upload>>) => {
    expect(res, JSON.stringify(res)).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'importUnpackedTooLarge' } });
    expect(res.message).toMatch(/unpacks to more than \d+ MB/);
  };

  it('the bombs are small to upload and really unpack to 400 MB', async () => {
    const name = 'xl/worksheets/sheet1.xml';
    for (const file of [honest, lying]) {
      expect(file.length).toBeLessThan(2 * 1024 * 1024);
      // The sheet's local header, then its deflated data: counted as it streams out, never held.
      const at = file.indexOf(name) + name.length;
      let unpacked = 0;
      const z = zlib.createInflateRaw();
      z.on('data', (b: Buffer) => (unpacked += b.length));
      await new Promise((resolve, reject) => z.on('end', resolve).on('error', reject).end(file.subarray(at)));
      expect(unpacked).toBeGreaterThan(400 * 1024 * 1024);
    }
  }, 30_000);

  for (const what of ['device', 'card'] as const) {
    it(`a ${what} import refuses a bomb whose directory tells its size, memory flat`, async () => {
      const { result, growthMb } = await rssGrowth(() => upload(what, honest));
      refusedAsTooLarge(result);
      expect(growthMb, `RSS grew ${growthMb.toFixed(0)} MB`).toBeLessThan(100);
    }, 60_000);

    it(`a ${what} import refuses a bomb whose directory lies about its size, memory flat`, async () => {
      const { result, growthMb } = await rssGrowth(() => upload(what, lying));
      refusedAsTooLarge(result);
      expect(growthMb, `RSS grew ${growthMb.toFixed(0)} MB`).toBeLessThan(100);
    }, 60_000);
  }

  it('two bombs uploaded at once (devices and SIM cards) leave memory flat too', async () => {
    const { result, growthMb } = await rssGrowth(() => Promise.all([upload('device', lying), upload('card', honest), upload('device', honest)]));
    for (const res of result) refusedAsTooLarge(res);
    expect(growthMb, `RSS grew ${growthMb.toFixed(0)} MB`).toBeLessThan(100);
  }, 60_000);

  it('a sheet thousands of columns wide is refused at the cell limit, naming the file', async () => {
    // 400 rows of one cell each, in a dimension as wide as a sheet can be (16,384 columns).
    const rows = Array.from({ length: 400 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>S-${i}</t></is></c></row>`).join('');
    const wide = zip({ ...PACKAGE, 'xl/worksheets/sheet1.xml': deflate(`<?xml version="1.0"?><worksheet ${NS}><dimension ref="A1:XFD400"/><sheetData>${rows}${SHEET_TAIL}`) });
    for (const what of ['device', 'card'] as const) {
      const res = await upload(what, wide);
      expect(res, JSON.stringify(res)).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'importTooManyCells' } });
      expect(res.data.params?.max).toBeGreaterThan(0);
    }
  });
});
