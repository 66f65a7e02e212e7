import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { readSheetInWorker, writeSheet } from './sheet.js';
// @ts-expect-error plain JavaScript module of the sheet worker, without type declarations
import { readXlsxRows, Unsupported } from './xlsx-rows.mjs';

type Read = (buf: Buffer, maxRows: number) => { rows: unknown[][]; dimensionRows: number };
const fast = readXlsxRows as Read;

/** What SheetJS reads (the reference: the import read every sheet this way before). */
function sheetJs(buf: Buffer, maxRows: number) {
  const wb = XLSX.read(buf, { type: 'buffer', dense: true, sheetRows: maxRows });
  const ws = wb.Sheets[wb.SheetNames[0]!]!;
  const ref = ws['!fullref'] ?? ws['!ref'];
  return {
    rows: XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, blankrows: false, defval: '', raw: true }),
    dimensionRows: ref ? XLSX.utils.decode_range(ref).e.r + 1 : 0,
  };
}

/** A ZIP of the given parts (deflated), as spreadsheet programs write them. */
function zip(parts: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const raw = Buffer.from(content, 'utf8');
    const data = zlib.deflateRawSync(raw);
    const nameBuf = Buffer.from(name, 'utf8');
    // The fields the local header and the central directory share, from the method onwards.
    const shared = (b: Buffer, at: number) => {
      b.writeUInt16LE(8, at);
      b.writeUInt32LE(zlib.crc32(raw), at + 6);
      b.writeUInt32LE(data.length, at + 10);
      b.writeUInt32LE(raw.length, at + 14);
      b.writeUInt16LE(nameBuf.length, at + 18);
      return b;
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    shared(local, 8);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    shared(dir, 10);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    central.push(dir, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(parts).length, 8);
  end.writeUInt16LE(Object.keys(parts).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook in the shape Excel writes: shared strings, the sheet's XML as given. */
function workbook(sheetData: string, opts: { dimension?: string; shared?: string[]; rid?: string } = {}) {
  const rid = opts.rid ?? 'rId1';
  return zip({
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0"?><workbook ${NS}><sheets><sheet name="Devices" sheetId="1" r:id="${rid}"/><sheet name="Other" sheetId="2" r:id="rId9"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="${REL}/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="${rid}" Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    'xl/sharedStrings.xml': `<?xml version="1.0"?><sst ${NS}>${(opts.shared ?? []).map((s) => `<si>${s}</si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0"?><worksheet ${NS}>${opts.dimension === undefined ? '' : `<dimension ref="${opts.dimension}"/>`}<sheetData>${sheetData}</sheetData></worksheet>`,
    'xl/worksheets/sheet2.xml': `<?xml version="1.0"?><worksheet ${NS}><dimension ref="A1"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>not this one</t></is></c></row></sheetData></worksheet>`,
  });
}

describe('the fast .xlsx reader reads what SheetJS reads', () => {
  it('a sheet the console writes: text, numbers, booleans, empty cells, blank rows, escapes', async () => {
    const buf = await writeSheet('Devices', [
      ['SN', 'Name', 'Count', 'On', 'Note'],
      ['A-1', 'Pump <1> & "2"', 12.5, true, ''],
      [],
      ['A-2', '=cmd|calc', -3, false, 'line\r\nbreak\ttab'],
      ['A-3', '电池 バッテリー', 0, '', 'x'],
      ['', '', '', '', ''],
    ]);
    const want = sheetJs(buf, 100);
    expect(fast(buf, 100)).toEqual(want);
    expect(want.rows[1]).toEqual(['A-1', 'Pump <1> & "2"', 12.5, true, '']);
  });

  it('an Excel-shaped sheet: shared strings with rich text and phonetic runs, inline strings, gaps, errors', () => {
    const buf = workbook(
      '<row r="2" spans="2:5"><c r="B2" t="s"><v>0</v></c><c r="C2" t="s"><v>1</v></c><c r="E2" t="inlineStr"><is><r><t>in</t></r><r><t xml:space="preserve">line </t></r></is></c></row>' +
        '<row r="3"/>' +
        '<row r="4"><c r="B4" s="1"><v>45000.5</v></c><c r="C4" t="e"><v>#N/A</v></c><c r="D4" t="e"><v>#NULL!</v></c><c r="E4" t="str"><f>A1</f><v>a_x000D_b &amp; c</v></c></row>' +
        '<row r="5"><c r="B5" t="e"><v>#DIV/0!</v></c><c r="C5"/><c r="D5" t="s"><v>2</v></c></row>' +
        '<row r="6"><c r="C6" t="b"><v>0</v></c><c r="D6"><v/></c></row>',
      {
        dimension: 'B2:E6',
        shared: ['<t>SN</t>', '<r><rPr><b/></rPr><t>Na</t></r><r><t>me</t></r><rPh sb="0" eb="1"><t>ナ</t></rPh>', '<t/>'],
      },
    );
    const want = sheetJs(buf, 100);
    expect(fast(buf, 100)).toEqual(want);
    expect(want.rows).toEqual([
      ['SN', 'Name', '', 'inline '],
      [45000.5, '', null, 'a\rb & c'],
      ['', '', '', ''],
      ['', false, '', ''],
    ]);
  });

  it('reads character references as XML means them (where SheetJS unescapes twice)', () => {
    const buf = workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>&#x4E2D;&#25991; &amp;amp; &lt;b&gt;</t></is></c></row>', { dimension: 'A1' });
    expect(fast(buf, 10).rows).toEqual([['中文 &amp; <b>']]);
  });

  it('finds the first sheet by its relationship id taken literally', () => {
    // "rI.9" as a pattern would match rId9, the second sheet, listed first.
    const buf = workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>first sheet</t></is></c></row>', { dimension: 'A1', rid: 'rI.9' });
    expect(fast(buf, 10).rows).toEqual([['first sheet']]);
  });

  it('reads the first rows only, and the dimension of the whole sheet', async () => {
    const rows = [['SN'], ...Array.from({ length: 50 }, (_, i) => [`S-${i}`])];
    const buf = await writeSheet('Devices', rows);
    expect(fast(buf, 10)).toEqual(sheetJs(buf, 10));
    expect(fast(buf, 10)).toMatchObject({ dimensionRows: 51 });
    expect(fast(buf, 10).rows).toHaveLength(10);
  });

  it('leaves to SheetJS what it does not read, and the sheet worker reads those the same', async () => {
    const odd = [
      workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>no dimension</t></is></c></row>'),
      workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>SN</t></is></c><c r="C1"><v>1</v></c></row><row r="3"><c r="A3" t="d"><v>2026-01-02T00:00:00Z</v></c></row>', { dimension: 'A1' }),
    ];
    for (const buf of odd) {
      expect(() => fast(buf, 100)).toThrow(Unsupported);
      const viaWorker = await readSheetInWorker(buf, { maxRows: 100 });
      expect(viaWorker).toEqual(sheetJs(buf, 100));
      expect(viaWorker.rows.length).toBeGreaterThan(0);
    }
    // A broken file is still refused (by SheetJS, behind the fast reader).
    await expect(readSheetInWorker(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]), { maxRows: 10 })).rejects.toThrow();
  });

  it('the sheet worker gives the fast reader’s rows for an ordinary workbook', async () => {
    const buf = await writeSheet('Devices', [['SN', 'Name'], ['W-1', 'One'], ['W-2', 'Two']]);
    expect(await readSheetInWorker(buf, { maxRows: 100 })).toEqual({ rows: [['SN', 'Name'], ['W-1', 'One'], ['W-2', 'Two']], dimensionRows: 3 });
  });

  it('hands SheetJS only a ZIP whose every part is proven to unpack within its declared size', async () => {
    // A shape the fast reader leaves to SheetJS (no dimension), its sheet's sizes then made to lie.
    const sheet = 'xl/worksheets/sheet1.xml';
    const make = () => workbook('<row r="1"><c r="A1" t="inlineStr"><is><t>no dimension</t></is></c></row>');
    const local = (buf: Buffer) => buf.indexOf(sheet) - 30;
    const central = (buf: Buffer) => buf.lastIndexOf(sheet) - 46;
    // The local header (where SheetJS takes the size it allocates up front) claims 2 GB.
    const bigLocal = make();
    bigLocal.writeUInt32LE(0x7fffffff, local(bigLocal) + 22);
    // Local header and directory both claim 10 bytes: the part unpacks to more.
    const smallBoth = make();
    smallBoth.writeUInt32LE(10, local(smallBoth) + 22);
    smallBoth.writeUInt32LE(10, central(smallBoth) + 24);
    for (const buf of [bigLocal, smallBoth]) {
      await expect(readSheetInWorker(buf, { maxRows: 100 })).rejects.toMatchObject({ limit: { reason: 'importUnpackedTooLarge' } });
    }
    // Untouched, the same workbook is read (by SheetJS).
    expect((await readSheetInWorker(make(), { maxRows: 100 })).rows).toEqual([['no dimension']]);
  });

  it('refuses a directory over the limits before a worker starts, and reads one within them', async () => {
    const buf = await writeSheet('Devices', [['SN'], ...Array.from({ length: 2000 }, (_, i) => [`S-${i}`])]);
    const tight = { unpack: { maxPartBytes: 10_000, maxTotalBytes: 1_000_000, maxEntries: 100 }, maxCells: 1_000_000 };
    await expect(readSheetInWorker(buf, { maxRows: 3000, limits: tight })).rejects.toMatchObject({ limit: { reason: 'importUnpackedTooLarge' } });
    const fewCells = { ...tight, unpack: { ...tight.unpack, maxPartBytes: 1_000_000 }, maxCells: 1000 };
    await expect(readSheetInWorker(buf, { maxRows: 3000, limits: fewCells })).rejects.toMatchObject({ limit: { reason: 'importTooManyCells', max: 1000 } });
    expect((await readSheetInWorker(buf, { maxRows: 3000 })).rows).toHaveLength(2001);
  });
});
