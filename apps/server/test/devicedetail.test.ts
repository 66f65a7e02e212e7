import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { CHART_MAX_POINTS } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { createPartition } from '../src/telemetry/ingest.repo.js';
import { readSheet } from '../src/lib/sheet.js';

const DAY = 86_400_000;
const CHARGE = '10000030';

/** The device details API over a real database, a real broker and mqtt.js devices. */
describe('device details', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let token: string;
  let outsider: string;
  let typeId: number;
  const clients: MqttClient[] = [];

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, who = token) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(who), payload })).json();

  const addDevice = async (sn: string) => {
    const r = await call('POST', '/device/add', { name: `Pack ${sn}`, sn, typeId });
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return { id: r.data.id as number, sn, secret: r.data.secret as string };
  };

  /** An mqtt.js device that answers each command with `answer` (undefined: stays silent). */
  const device = async (sn: string, secret: string, answer?: (cmd: { id: string; payload: unknown }) => object | undefined) => {
    const c = await new Promise<MqttClient>((resolve, reject) => {
      const m = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { username: sn, password: secret, clientId: sn, reconnectPeriod: 0 });
      clients.push(m);
      m.once('connect', () => resolve(m));
      m.once('error', reject);
    });
    const received: { id: string; payload: unknown }[] = [];
    c.on('message', (_topic, buf) => {
      const cmd = JSON.parse(buf.toString());
      received.push(cmd);
      const ack = answer?.(cmd);
      if (ack) c.publish(`dev/${sn}/ack`, JSON.stringify(ack), { qos: 1 });
    });
    await c.subscribeAsync(`dev/${sn}/cmd`, { qos: 1 });
    // Already online since it connected: a status that changes nothing is still acknowledged.
    await c.publishAsync(`dev/${sn}/status`, JSON.stringify({ online: true }), { qos: 1 });
    return { c, received };
  };

  const commandStatus = async (deviceId: number, id: string) =>
    ((await call('GET', `/device/commandlist?id=${deviceId}`)).data.items as { id: string; status: string; message: string }[]).find(
      (x) => x.id === id,
    );

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', commands: t.app.commands });
    token = await t.login();
    typeId = (await call('GET', '/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
    // An operator of another branch: it has the permission but not the admin's devices.
    await t.createUser({ username: 'branch-op', password: 'branch-pass-1', role: 'BATTERYMANAGEMENT' });
    outsider = await t.login('branch-op', 'branch-pass-1');
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker.close();
    await t.close();
  });

  it('groups the parameters as the type orders them, with the newest values', async () => {
    const d = await addDevice('DD-1');
    const { c } = await device(d.sn, d.secret);
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '01111001': 52.4, '10000006': 2 } }), { qos: 1 });
    const groups = (await call('GET', `/device/displayparamgrouplist?id=${d.id}`)).data as {
      group: string;
      params: { semaphoreId: string; value: unknown; ts: string | null }[];
    }[];
    expect(groups.map((g) => g.group)).toEqual(['pack', 'cells', 'temperature', 'communication', 'location', 'energy', 'control']);
    const pack = groups[0]!.params;
    expect(pack.find((p) => p.semaphoreId === '01111001')).toMatchObject({ value: 52.4 });
    expect(pack.find((p) => p.semaphoreId === '10000006')).toMatchObject({ value: '2' });
    expect(pack.find((p) => p.semaphoreId === '02110001')).toMatchObject({ value: null, ts: null });
    const writable = (await call('GET', `/device/setparamlist?id=${d.id}`)).data as { semaphoreId: string }[];
    expect(writable.map((p) => p.semaphoreId)).toEqual(['10000030', '10000031']);
    // Another branch does not see it.
    expect((await call('GET', `/device/displayparamgrouplist?id=${d.id}`, undefined, outsider)).code).toBe(40400);
  });

  it('set parameters: acknowledged → succeeded, an error → failed with the device’s reason', async () => {
    const d = await addDevice('DD-2');
    let refuse = false;
    await device(d.sn, d.secret, (cmd) => (refuse ? { id: cmd.id, result: 'error', message: 'switch locked' } : { id: cmd.id, result: 'ok' }));
    await expect.poll(async () => (await call('GET', `/device/basic?id=${d.id}`)).data.online).toBe(true);

    const sent = await call('POST', '/device/setparams', { id: d.id, values: { [CHARGE]: false } });
    expect(sent.code, JSON.stringify(sent)).toBe(20000);
    expect(['sent', 'succeeded']).toContain(sent.data.status);
    await expect.poll(async () => (await commandStatus(d.id, sent.data.id))?.status).toBe('succeeded');

    refuse = true;
    const failed = await call('POST', '/device/setparams', { id: d.id, values: { [CHARGE]: true } });
    await expect.poll(async () => await commandStatus(d.id, failed.data.id)).toMatchObject({ status: 'failed', message: 'switch locked' });

    // The operation log names who set what.
    const log = await call('GET', '/logs/list?action=device.setparams&limit=5');
    expect(log.code, JSON.stringify(log)).toBe(20000);
    expect(log.data.items[0]).toMatchObject({ username: 'admin', entityName: d.sn });
    expect(log.data.items[0].summary).toContain(CHARGE);
  });

  it('set parameters: an offline device → offline, a silent one → timeout', async () => {
    const off = await addDevice('DD-3');
    const r = await call('POST', '/device/setparams', { id: off.id, values: { [CHARGE]: true } });
    expect(r.code).toBe(20000);
    expect(r.data.status).toBe('offline');
    expect((await commandStatus(off.id, r.data.id))?.status).toBe('offline');

    const mute = await addDevice('DD-4');
    const { received } = await device(mute.sn, mute.secret);
    await expect.poll(async () => (await call('GET', `/device/basic?id=${mute.id}`)).data.online).toBe(true);
    const s = await call('POST', '/device/setparams', { id: mute.id, values: { [CHARGE]: true } });
    await expect.poll(() => received.map((m) => m.id)).toContain(s.data.id);
    // Past its expiry without an answer.
    await t.app.commands.expire(new Date(Date.now() + 60_000));
    expect((await commandStatus(mute.id, s.data.id))?.status).toBe('timeout');
  });

  it('set parameters: a value outside the definition is refused before anything is sent; another branch is refused', async () => {
    const d = await addDevice('DD-5');
    const { received } = await device(d.sn, d.secret, (cmd) => ({ id: cmd.id, result: 'ok' }));
    await expect.poll(async () => (await call('GET', `/device/basic?id=${d.id}`)).data.online).toBe(true);
    const wrongType = await call('POST', '/device/setparams', { id: d.id, values: { [CHARGE]: 'maybe' } });
    expect(wrongType).toMatchObject({ code: 40000, data: { field: `values.${CHARGE}`, reason: 'paramWrongType' } });
    const readOnly = await call('POST', '/device/setparams', { id: d.id, values: { '01111001': 50 } });
    expect(readOnly).toMatchObject({ code: 40000, data: { reason: 'paramNotWritable' } });
    const foreign = await call('POST', '/device/setparams', { id: d.id, values: { [CHARGE]: true } }, outsider);
    expect(foreign.code).toBe(40400);
    // A valid command sent now is the first one the device gets: nothing refused went out before it.
    const valid = await call('POST', '/device/setparams', { id: d.id, values: { [CHARGE]: true } });
    expect(valid.code).toBe(20000);
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received.map((m) => m.id)).toEqual([valid.data.id]);
    expect((await call('GET', `/device/commandlist?id=${d.id}`)).data.items.map((c: { id: string }) => c.id)).toEqual([valid.data.id]);
  });

  it('downsamples any range to the limit, keeping each series’ global minimum and maximum across day partitions', async () => {
    const d = await addDevice('DD-6');
    const end = Math.floor(Date.now() / DAY) * DAY; // today 00:00 UTC
    const start = end - 3 * DAY;
    for (let day = start - DAY; day <= end; day += DAY) await createPartition(t.database.db, new Date(day));
    // One message every 10 s over three days (25,920 rows), a sine wave with one spike and one
    // dip planted right after two day borders.
    await t.database.db.execute(sql`
      insert into telemetry (device_id, ts, vals)
      select ${d.id}, to_timestamp(${start / 1000} + i * 10),
        jsonb_build_object('01111001', 50 + 5 * sin(i / 500.0), '02109001', (i % 100)::float8)
      from generate_series(0, 25919) i`);
    const spikeAt = start + DAY + 10_000;
    const dipAt = start + 2 * DAY + 20_000;
    await t.database.db.execute(sql`
      update telemetry set vals = vals || '{"01111001": 99.5}'::jsonb where device_id = ${d.id} and ts = ${new Date(spikeAt).toISOString()}::timestamptz`);
    await t.database.db.execute(sql`
      update telemetry set vals = vals || '{"01111001": 1.25}'::jsonb where device_id = ${d.id} and ts = ${new Date(dipAt).toISOString()}::timestamptz`);

    const q = (from: number, to: number, points?: number) =>
      call('GET', `/device/devicehistoricallisttoecharts?id=${d.id}&semaphoreIds=01111001,02109001&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}${points ? `&points=${points}` : ''}`);
    const check = async (rolled: boolean) => {
    for (const points of [undefined, 100, 11]) {
      const r = await q(start, end, points);
      // Buckets of ten minutes or more read the rollups once the days are rolled up.
      if (rolled && points) expect(r.data.bucketMs % 600_000).toBe(0);
      expect(r.code, JSON.stringify(r)).toBe(20000);
      for (const s of r.data.series as { semaphoreId: string; points: [number, number][] }[]) {
        expect(s.points.length).toBeGreaterThan(0);
        expect(s.points.length).toBeLessThanOrEqual(points ?? CHART_MAX_POINTS);
        const values = s.points.map((p) => p[1]);
        if (s.semaphoreId === '01111001') {
          expect(Math.max(...values)).toBe(99.5);
          expect(Math.min(...values)).toBe(1.25);
          expect(s.points).toContainEqual([spikeAt, 99.5]);
        } else {
          expect(Math.max(...values)).toBe(99);
          expect(Math.min(...values)).toBe(0);
        }
        // Time order.
        expect(s.points.map((p) => p[0])).toEqual([...s.points.map((p) => p[0])].sort((a, b) => a - b));
      }
    }
    };
    await check(false);
    // The same answers from the ten-minute rollups (the three past days rolled up, not final yet).
    const rolledUp = await t.app.rollups.run();
    expect(rolledUp).toEqual(expect.arrayContaining([0, 1, 2].map((i) => new Date(start + i * DAY).toISOString().slice(0, 10))));
    await check(true);
    // A zoomed window (10 minutes across a day border) gets every message: 60 points.
    const zoom = await q(start + DAY - 300_000, start + DAY + 300_000);
    expect(zoom.data.series[0].points).toHaveLength(60);
    expect(zoom.data.series[0].points).toContainEqual([spikeAt, 99.5]);

    // The table pages the same rows on the server.
    const page = await call('GET', `/device/devicehistoricallist?id=${d.id}&semaphoreIds=01111001&from=${new Date(start + DAY - 60_000).toISOString()}&to=${new Date(start + DAY + 60_000).toISOString()}&limit=5&order=asc`);
    expect(page.data).toMatchObject({ total: 12, exact: true });
    expect(page.data.items).toHaveLength(5);
    expect(page.data.items[0]).toEqual({ ts: new Date(start + DAY - 60_000).toISOString(), values: { '01111001': expect.any(Number) } });

    // Bad input names the field.
    const bad = await call('GET', `/device/devicehistoricallisttoecharts?id=${d.id}&semaphoreIds=01111001&from=${new Date(end).toISOString()}&to=${new Date(start).toISOString()}`);
    expect(bad.code).toBe(40000);
    expect(bad.message).toMatch(/to/);
    const unknown = await q(start, end).then(() => call('GET', `/device/devicehistoricallisttoecharts?id=${d.id}&semaphoreIds=nope&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}`));
    expect(unknown).toMatchObject({ code: 40000, data: { reason: 'paramUnknown', field: 'semaphoreIds' } });
  });

  it('exports history as .xlsx by default: a workbook that opens, with the range’s rows', async () => {
    const d = await addDevice('DD-XLSX');
    const day = Math.floor(Date.now() / DAY) * DAY;
    await createPartition(t.database.db, new Date(day));
    const times = [day + 60_000, day + 120_000, day + 180_000];
    for (const [i, ts] of times.entries()) {
      await t.database.db.execute(sql`
        insert into telemetry (device_id, ts, vals) values (${d.id}, ${new Date(ts).toISOString()}::timestamptz, ${JSON.stringify({ '01111001': 50 + i })}::jsonb)`);
    }
    // No `format`: the console's default download.
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/device/devicehistoricallist/export?id=${d.id}&semaphoreIds=01111001&from=${new Date(day).toISOString()}&to=${new Date(day + DAY).toISOString()}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/filename="history-\d+-.+\.xlsx"/);
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]![0]).toBe('time');
    expect(rows.slice(1)).toEqual(times.map((ts, i) => [new Date(ts).toISOString(), 50 + i]));
  });

  it('history opens where the data is: the day up to the newest message, from the first one when it is newer', async () => {
    const range = async (id: number) => (await call('GET', `/device/historyrange?id=${id}`)).data as { from: string; to: string; basis: string };
    /** Messages through the device's HTTP uplink, with the device times given (paced: retried on 42900). */
    const uplink = async (d: { sn: string; secret: string }, times: number[]) => {
      const headers = { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` };
      for (const [i, ts] of times.entries()) {
        for (;;) {
          const r = (await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers, payload: { ts, values: { '01111001': 50 + i } } })).json();
          if (r.code === 20000) break;
          expect(r.code, JSON.stringify(r)).toBe(42900);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const now = Date.now();
    for (let day = now - 5 * DAY; day <= now + DAY; day += DAY) await createPartition(t.database.db, new Date(day));

    // Never sent anything: the last day, said so.
    const none = await addDevice('DD-R0');
    const empty = await range(none.id);
    expect(empty.basis).toBe('none');
    expect(Date.parse(empty.to) - Date.parse(empty.from)).toBe(DAY);

    // Stopped three days ago after an hour of messages: that hour, not the empty last day.
    const old = await addDevice('DD-R1');
    const stopped = now - 3 * DAY;
    await uplink(old, [stopped - 3_600_000, stopped - 1_800_000, stopped]);
    expect(await range(old.id)).toEqual({
      from: new Date(stopped - 3_600_000).toISOString(),
      to: new Date(stopped + 1000).toISOString(),
      basis: 'past',
    });
    // The history asked for that range holds all three messages (the end is exclusive: the newest is in).
    const r = await range(old.id);
    const page = await call('GET', `/device/devicehistoricallist?id=${old.id}&semaphoreIds=01111001&from=${r.from}&to=${r.to}`);
    expect(page.data.total).toBe(3);

    // Minutes of data: from its first message up to now.
    const fresh = await addDevice('DD-R2');
    await uplink(fresh, [now - 300_000, now - 60_000]);
    const recent = await range(fresh.id);
    expect(recent.basis).toBe('recent');
    expect(recent.from).toBe(new Date(now - 300_000).toISOString());
    expect(Date.parse(recent.to)).toBeGreaterThanOrEqual(now);

    // Another branch does not learn anything about it.
    expect((await call('GET', `/device/historyrange?id=${fresh.id}`, undefined, outsider)).code).toBe(40400);
  });

  it('the device list shows top-level devices with their child count unless asked otherwise', async () => {
    const parent = await addDevice('DD-8');
    const child = await call('POST', '/device/add', { name: 'Child DD-8a', sn: 'DD-8A', typeId, parentId: parent.id });
    expect(child.code).toBe(20000);
    const top = (await call('GET', '/device/list?topLevel=true&limit=200')).data.items as { sn: string; subCount: number }[];
    expect(top.find((d) => d.sn === 'DD-8')).toMatchObject({ subCount: 1 });
    expect(top.map((d) => d.sn)).not.toContain('DD-8A');
    const all = (await call('GET', '/device/list?limit=200')).data.items as { sn: string }[];
    expect(all.map((d) => d.sn)).toContain('DD-8A');
    const subs = (await call('GET', `/device/subdevicelist?id=${parent.id}`)).data.items as { sn: string }[];
    expect(subs.map((d) => d.sn)).toEqual(['DD-8A']);
  });

  it('energy: charged and discharged kWh per day from the battery counters, computed in SQL', async () => {
    const d = await addDevice('DD-7');
    const end = Math.floor(Date.now() / DAY) * DAY;
    const start = end - 2 * DAY;
    for (let day = start; day <= end; day += DAY) await createPartition(t.database.db, new Date(day));
    // Every minute for two days: 100 V; charging 1 Ah per minute on day 1, discharging 2 Ah per minute on day 2.
    await t.database.db.execute(sql`
      insert into telemetry (device_id, ts, vals)
      select ${d.id}, to_timestamp(${start / 1000} + i * 60),
        jsonb_build_object('01111001', 100, '02117001', least(i, 1440), '02116001', greatest(i - 1440, 0) * 2)
      from generate_series(0, 2879) i`);
    const r = await call('GET', `/device/totalElectrictityConsumption?id=${d.id}&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}&granularity=day`);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    expect(r.data.buckets).toEqual([
      { start: new Date(start).toISOString(), chargedKwh: 144, dischargedKwh: 0 },
      { start: new Date(start + DAY).toISOString(), chargedKwh: 0, dischargedKwh: 287.8 },
    ]);
    expect(r.data.chargedKwh).toBe(144);
    const month = await call('GET', `/device/totalElectrictityConsumption?id=${d.id}&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}&granularity=month`);
    expect(month.data.chargedKwh + month.data.dischargedKwh).toBeCloseTo(431.8, 3);
  });

  it('exports history as CSV that no spreadsheet opens as a formula, whatever its separator', async () => {
    // A type whose text parameters a device fills with what a spreadsheet would run.
    const type = await call('POST', '/devicetype/addtype', { code: 'CSVINJ', name: 'CSV injection' });
    expect(type.code, JSON.stringify(type)).toBe(20000);
    const hostile: Record<string, string> = {
      '30000001': 'x;=1+1;',
      '30000002': ' =1+1',
      '30000003': '@SUM(A1)',
      '30000004': 'a|+cmd|',
      '30000005': 'say "hi",\n-2+3',
      '30000006': '\t=1',
      '30000007': "'=already",
      '30000008': '＝1+1',
    };
    const params = Object.keys(hostile).map((semaphoreId, i) => ({
      semaphoreId,
      name: i === 0 ? 'x;=1+1' : i === 1 ? '@SUM(1)' : `T${i}`,
      nameEn: i === 0 ? 'x;=1+1' : i === 1 ? '@SUM(1)' : `T${i}`,
      dataType: 'text',
      sort: i + 1,
    }));
    expect((await call('POST', '/devicetype/addsetparam', { id: type.data.id, params })).code).toBe(20000);
    const add = await call('POST', '/device/add', { name: 'CSV pack', sn: 'CSV-INJ-1', typeId: type.data.id });
    expect(add.code, JSON.stringify(add)).toBe(20000);
    const from = new Date(Date.now() - 60_000).toISOString();
    const { c } = await device('CSV-INJ-1', add.data.secret);
    // QoS 1: acknowledged once the row is committed.
    await c.publishAsync('dev/CSV-INJ-1/telemetry', JSON.stringify({ values: hostile }), { qos: 1 });
    const to = new Date(Date.now() + 60_000).toISOString();
    const ids = Object.keys(hostile).join(',');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/device/devicehistoricallist/export?id=${add.data.id}&semaphoreIds=${ids}&from=${from}&to=${to}&format=csv&lang=en`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const csv = res.rawPayload.toString('utf8').replace(/^\uFEFF/, '');

    // Read with its own separator (RFC 4180), every text is one cell, neutralised where it starts
    // like a formula, also after a separator of another language setting inside it.
    const [header, row, ...rest] = parseCsv(csv);
    expect(rest).toEqual([]);
    expect(header).toEqual(['time', "x;'=1+1", "'@SUM(1)", 'T2', 'T3', 'T4', 'T5', 'T6', 'T7']);
    expect(row!.slice(1)).toEqual(["x;'=1+1;", "' =1+1", "'@SUM(A1)", "a|'+cmd|", 'say "hi",\n\'-2+3', "'\t'=1", "''=already", "'＝1+1"]);

    // Read with ; tab or | (or line by line): a cell can only start at one of these characters
    // (or where a line starts), and none starts like a formula there.
    const starts = csv.split(/[,;\t|\r\n]/).map((piece) => piece.replace(/^\s*"?\s*/, ''));
    expect(starts.filter((cell) => /^[=+\-@＝＋－＠]/.test(cell))).toEqual([]);
  });
});

/** RFC 4180 rows of a comma-separated text: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
