import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { writeSheet } from '../src/lib/sheet.js';
import { bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

/** Inputs PostgreSQL or the parsers cannot take must answer 40000 naming the field, never 500. */
describe('bad input answers 40000 naming the field', () => {
  let t: TestApp;
  let token: string;
  let typeId: number;
  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...bearer(token), ...headers },
      payload: payload as string,
    });
    return { status: res.statusCode, body: res.json() as { code: number; message: string; data: { field?: string } | null } };
  };
  const refusedAt = (r: { status: number; body: { code: number; data: { field?: string } | null } }, field: string) => {
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(ErrorCode.VALIDATION);
    expect(r.body.data?.field).toBe(field);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login();
    const types = await api('GET', '/devicetype/typeoptionslist');
    typeId = (types.body as unknown as { data: { id: number }[] }).data[0]!.id;
  });
  afterAll(() => t.close());

  it('a NUL byte in a body field, a nested field, a key or a query filter', async () => {
    refusedAt(await api('POST', '/device/add', { name: 'a\u0000b', sn: 'NUL-1', typeId }), 'name');
    refusedAt(
      await api('POST', '/devicetype/addtype', { code: 'NULT', name: 'T', nameEn: 'x\u0000' }),
      'nameEn',
    );
    refusedAt(await api('POST', '/role/setpermission', { id: 1, permissionIds: [], extra: ['ok', 'b\u0000'] }), 'extra.1');
    refusedAt(await api('POST', '/user/preferences', { 'lang\u0000uage': 'en' }), 'lang\\0uage');
    refusedAt(await api('GET', '/device/list?q=%00'), 'q');
    refusedAt(await api('GET', '/user/list?kind=agent&username=ab%00c'), 'username');
    refusedAt(await api('GET', '/logs/list?action=user%00'), 'action');
    // Public routes too, before any database lookup.
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'adm\u0000in', password: 'whatever-1' } });
    expect(login.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'username' } });
  });

  it('the operation log still records the refused request', async () => {
    await api('POST', '/device/edit', { id: '7\u00008', name: 'x\u0000', sn: 'NUL-2', typeId });
    const logs = await api('GET', '/logs/list?action=device.edit');
    const rows = (logs.body as unknown as { data: { items: { result: string; entityId: string; summary: string }[] } }).data.items;
    expect(rows[0]).toMatchObject({ result: 'failure', entityId: '78' });
    expect(rows[0]!.summary).toContain('NUL');
  });

  it('an id beyond int4 (2^31 … 2^53) in a query, a body or a list', async () => {
    refusedAt(await api('GET', '/device/basic?id=2147483648'), 'id');
    refusedAt(await api('GET', `/user/item?id=${2 ** 53 - 1}`), 'id');
    refusedAt(await api('POST', '/device/credential', { id: 2 ** 40 }), 'id');
    refusedAt(await api('DELETE', '/device/delete?id=1,3000000000'), 'id');
    refusedAt(await api('POST', '/device/editdevicelistproject', { ids: [1, 2 ** 33], projectId: null }), 'ids.1');
    refusedAt(await api('POST', '/device/add', { name: 'n', sn: 'BIG-1', typeId: 2 ** 31 }), 'typeId');
    refusedAt(await api('GET', '/device/list?page=4294967296'), 'page');
    refusedAt(await api('GET', '/user/menulist?parent_id=99999999999'), 'parent_id');
    refusedAt(await api('DELETE', '/project/deleteproject?id=1&moveTo=2147483648'), 'moveTo');
    refusedAt(await api('GET', '/device/latest?id=2147483648'), 'id');
    refusedAt(await api('GET', '/logs/devicelogs?deviceId=2147483648'), 'deviceId');
    // The largest int4 is a valid id that simply does not exist.
    expect((await api('GET', '/device/basic?id=2147483647')).body.code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a date of year 0000 or 10000 on a list, a range and a body: 40000 naming the field, on both engines', async () => {
    // A device the admin sees, with a parameter of its type: the range routes reach the database.
    const bmu = (await api('GET', '/devicetype/typeoptionslist')).body as unknown as { data: { id: number; code: string }[] };
    const dev = await api('POST', '/device/add', { name: 'Year edge', sn: 'YEAR-EDGE-1', typeId: bmu.data.find((x) => x.code === 'BMU')!.id });
    const id = (dev.body as unknown as { data: { id: number } }).data.id;
    const fine = '2026-01-01T00:00:00Z';
    // Year 0000 has no text form in PostgreSQL; an offset moves 9999-12-31 into year 10000 (UTC),
    // and 0001-01-01 into year 0.
    const edges = ['0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '0000-01-01', '10000-01-01', '9999-12-31T23:59:59-05:00', '0001-01-01T00:00:00+01:00', '1969-12-31T23:59:59Z'];
    for (const v of edges) {
      const q = encodeURIComponent(v);
      // Lists filtered by time.
      refusedAt(await api('GET', `/logs/list?from=${q}`), 'from');
      refusedAt(await api('GET', `/logs/loginlist?to=${q}`), 'to');
      refusedAt(await api('GET', `/logs/devicelogs?from=${q}`), 'from');
      refusedAt(await api('GET', `/device/alarmlist?to=${q}`), 'to');
      // Ranges of one device.
      refusedAt(await api('GET', `/device/devicehistoricallist?id=${id}&semaphoreIds=01111001&from=${q}&to=${fine}`), 'from');
      refusedAt(await api('GET', `/device/devicehistoricallisttoecharts?id=${id}&semaphoreIds=01111001&from=${fine}&to=${q}`), 'to');
      refusedAt(await api('GET', `/device/totalElectrictityConsumption?id=${id}&from=${q}&to=${fine}`), 'from');
    }
    // A calendar date in a body: a SIM card's expiry.
    for (const v of ['0000-01-01', '10000-01-01', '1969-12-31']) {
      refusedAt(await api('POST', '/card/addCard', { iccid: '89860000000000000099', expiresAt: v }), 'expiresAt');
    }
    // The edges that remain are answered.
    const ok = await api('GET', `/logs/list?from=${encodeURIComponent('1970-01-01T00:00:00Z')}&to=${encodeURIComponent('9998-12-31T23:59:59+14:00')}`);
    expect(ok.body.code).toBe(20000);
    const range = await api('GET', `/device/devicehistoricallist?id=${id}&semaphoreIds=01111001&from=${encodeURIComponent('9998-01-01T00:00:00Z')}&to=${encodeURIComponent('9998-12-31T23:59:59Z')}`);
    expect(range.body.code).toBe(20000);
  });

  it('device ingestion: a NUL byte in an SN, a message or a client id never fails a batch', async () => {
    const added = await api('POST', '/device/add', { name: 'NUL device', sn: 'NUL-DEV', typeId });
    const { id, secret } = (added.body as unknown as { data: { id: number; secret: string } }).data;
    const basic = (sn: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${sn}:${pass}`).toString('base64')}` });
    // HTTP uplink: an SN with a NUL answers like unknown credentials; a body with one is refused.
    const nulSn = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: basic('NUL\u0000-DEV', secret), payload: { values: {} } });
    expect(nulSn.json().code).toBe(ErrorCode.BAD_CREDENTIALS);
    const nulBody = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: basic('NUL-DEV', secret), payload: { values: { a: 'x\u0000' } } });
    expect(nulBody.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'values.a' } });
    // MQTT-style raw payloads and names go straight to the ingestion service.
    const ingest = t.app.ingest;
    expect(await ingest.authenticate('NUL\u0000-DEV', secret)).toEqual({ reason: 'unknownDevice' });
    await ingest.refused('ghost\u0000sn', 'unknownDevice', { clientId: 'c\u0000lient', via: 'mqtt' });
    const auth = await ingest.authenticate('NUL-DEV', secret);
    if (!('device' in auth)) throw new Error('the device should authenticate');
    const raw = await ingest.uplink(auth.device, 'telemetry', Buffer.from('{"values":{"a":"x\\u0000y"}}'));
    expect(raw).toMatchObject({ accepted: 0, rejected: [{ reason: 'invalidMessage', field: 'values.a' }] });
    const ack = await ingest.uplink(auth.device, 'ack', '{"id":1,"status":"ok","mess\\u0000age":"x"}');
    expect(ack.rejected[0]?.reason).toBe('invalidMessage');
    // The batches were written: the refusals are in the device log, and the device still reports.
    const logs = await api('GET', `/logs/devicelogs?sn=ghostsn`);
    const items = (logs.body as unknown as { data: { items: { sn: string; detail: Record<string, unknown> }[] } }).data.items;
    expect(items[0]).toMatchObject({ sn: 'ghostsn', detail: { clientId: 'client' } });
    const mine = await api('GET', `/logs/devicelogs?deviceId=${id}`);
    expect((mine.body as unknown as { data: { total: number } }).data.total).toBeGreaterThan(0);
  });

  it('malformed multipart: no boundary, too many fields, a truncated body, no file', async () => {
    const noBoundary = await api('POST', '/device/import', '--x\r\n', { 'content-type': 'multipart/form-data' });
    refusedAt(noBoundary, 'file');

    const boundary = 'fuzzboundary';
    const fields = Array.from({ length: 30 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join('');
    const many = await api('POST', '/device/import', `${fields}--${boundary}--\r\n`, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    refusedAt(many, 'body');

    const good = multipart('d.xlsx', await writeSheet('d', [['name', 'sn', 'type'], ['D', 'MP-1', 'BMU']]));
    const truncated = await api('POST', '/device/import', good.payload.subarray(0, good.payload.length - 40), good.headers);
    refusedAt(truncated, 'file');

    const garbage = await api('POST', '/device/import', 'not multipart at all', { 'content-type': `multipart/form-data; boundary=${boundary}` });
    refusedAt(garbage, 'file');

    const fieldOnly = `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nplain text\r\n--${boundary}--\r\n`;
    refusedAt(await api('POST', '/device/import', fieldOnly, { 'content-type': `multipart/form-data; boundary=${boundary}` }), 'file');

    // NUL bytes inside the sheet are row errors; in the file name they are dropped from the log.
    const nul = multipart('d\u0000.xlsx', await writeSheet('d', [['name', 'sn', 'type'], ['Bad\u0000name', 'MP-2', 'BMU'], ['Good', 'MP-3', 'BMU']]));
    const report = await api('POST', '/device/import?mode=valid', nul.payload, nul.headers);
    expect(report.body).toMatchObject({ code: 20000, data: { imported: 1, errors: [{ row: 2, column: 'name' }] } });

    // The server still answers.
    expect((await api('GET', '/user/info')).body.code).toBe(20000);
  });
});
