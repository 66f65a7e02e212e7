import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { addTestDevice, bearer, buildTestApp, connectTestDevice, type TestApp } from './helpers.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { writeBatch, type TelemetryRow } from '../src/telemetry/ingest.repo.js';
import { BatchWriter, NotStoredError } from '../src/telemetry/writer.js';

/**
 * A bad message can only hurt its sender (docs/PROTOCOL.md §5): over the real embedded broker
 * and HTTP into the real database, a device sending what the database cannot store (a lone UTF-16
 * surrogate, which jsonb refuses) loses its own messages, never a bystander's.
 */
describe('a poisonous device beside well-behaved ones', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let token: string;
  let typeId: number;
  const clients: MqttClient[] = [];

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();

  const addDevice = (sn: string) => addTestDevice(t.app, token, typeId, sn);

  /** A device connection; client ids are `<SN>@<suffix>`, as the broker asks. */
  const connect = (d: { sn: string; secret: string }) => connectTestDevice(broker.port, d, clients);

  /** Resolves 'closed' when the connection closes; publishes racing it do not hang. */
  const closedOf = (c: MqttClient) => new Promise<'closed'>((resolve) => (c.connected ? c.once('close', () => resolve('closed')) : resolve('closed')));

  /** A QoS 1 publish: 'acked' once PUBACK arrives, 'closed' if the connection closes first. */
  const publish = (c: MqttClient, topic: string, payload: string, closed: Promise<'closed'>) =>
    Promise.race([c.publishAsync(topic, payload, { qos: 1 }).then(() => 'acked' as const, () => 'closed' as const), closed]);

  type LogItem = { kind: string; reason: string | null; detail: Record<string, unknown> };
  const logs = async (sn: string, extra = '') => (await api('GET', `/logs/devicelogs?sn=${sn}&limit=200${extra}`)).data.items as LogItem[];

  const count = async (table: 'telemetry' | 'device_positions', deviceId: number) =>
    ((await t.database.db.execute(sql`select count(*)::int as n from ${sql.raw(table)} where device_id = ${deviceId}`)) as unknown as {
      rows: { n: number }[];
    }).rows[0]!.n;

  const basic = (d: { sn: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` });
  const httpUplink = (d: { sn: string; secret: string }, kind: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/ingest/${kind}`, headers: basic(d), payload });

  beforeAll(async () => {
    t = await buildTestApp(
      // Far past the per-device rate: these devices publish fast on purpose.
      { DEVICE_RATE_LIMIT: '10000' },
      // Batches gather what arrives within 30 ms: the poisoner's messages share them with others'.
      { ingest: { writer: { maxRows: 2000, flushMs: 30, maxQueued: 8000 } } },
    );
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', commands: t.app.commands });
    token = await t.login();
    const types = await api('GET', '/devicetype/typeoptionslist');
    typeId = types.data.find((x: { code: string }) => x.code === 'BMU').id;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker.close();
    await t.close();
  });

  it('lone surrogates anywhere in a message: the bystander loses none of its 150 QoS 1 messages, the poisoner is refused invalidMessage', async () => {
    const poisoner = await addDevice('POISON-1');
    const bystander = await addDevice('BYSTANDER-1');
    const p = await connect(poisoner);
    const b = await connect(bystander);
    const pClosed = closedOf(p);
    const bClosed = closedOf(b);

    // Raw JSON text: the `\ud800` escapes reach the server as lone surrogates once parsed.
    const poison: [kind: string, payload: string, field: string][] = [
      ['telemetry', '{"values":{"01111001":"\\ud800"}}', 'values.01111001'],
      ['telemetry', '{"values":{"\\ud800":1,"02109001":50}}', 'values.\\ud800'],
      ['telemetry', '{"values":{"02109001":"5\\udfff0"}}', 'values.02109001'],
      ['status', '{"online":true,"info":{"firmware":"1.\\udc00"}}', 'info.firmware'],
      ['status', '{"online":true,"info":{"\\ud83d":"x"}}', 'info.\\ud83d'],
      ['alarm', '{"id":"01111001","flag":1,"value":"\\ud800"}', 'value'],
      ['ack', '{"id":"c-1","result":"error","message":"locked \\ud800"}', 'message'],
      ['gps', '{"lng":1,"lat":2,"ts":"\\ud800"}', 'ts'],
    ];
    // 150 QoS 1 messages in 5 rounds of 30 sent at once, each round beside every kind of poison
    // (QoS 1, and QoS 0 too): several batches, each shared with the poisoner's messages.
    const base = Date.now() - 60_000;
    const answers: string[] = [];
    const poisonAnswers: string[] = [];
    for (let round = 0; round < 5; round++) {
      const poisoned = poison.map(([kind, payload], i) => {
        if ((round + i) % 4 === 0) {
          p.publish(`dev/${poisoner.sn}/${kind}`, payload, { qos: 0 });
          return Promise.resolve('qos0');
        }
        return publish(p, `dev/${poisoner.sn}/${kind}`, payload, pClosed);
      });
      const sent = Array.from({ length: 30 }, (_, i) => {
        const n = round * 30 + i;
        return publish(b, `dev/${bystander.sn}/telemetry`, JSON.stringify({ ts: base + n, values: { '01111001': 50 + n / 1000, '02109001': n % 100 } }), bClosed);
      });
      answers.push(...(await Promise.all(sent)));
      poisonAnswers.push(...(await Promise.all(poisoned)));
    }

    expect(answers.filter((a) => a === 'acked')).toHaveLength(150);
    expect(b.connected).toBe(true);
    expect(await count('telemetry', bystander.id)).toBe(150);

    // The poisoner's messages were each refused and logged; its connection stayed open too (a
    // refused message is answered, as any other the console drops).
    expect(poisonAnswers.filter((a) => a === 'acked').length).toBeGreaterThan(20);
    expect(poisonAnswers.every((a) => a === 'acked' || a === 'qos0')).toBe(true);
    expect(p.connected).toBe(true);
    expect(await count('telemetry', poisoner.id)).toBe(0);
    // Every message, QoS 0 ones included, logged (the QoS 0 ones maybe a moment later).
    await expect.poll(async () => (await logs(poisoner.sn, '&kind=rejected')).length).toBe(5 * poison.length);
    const rejected = await logs(poisoner.sn, '&kind=rejected');
    expect(rejected.every((l) => l.reason === 'invalidMessage')).toBe(true);
    const fields = new Set(rejected.flatMap((l) => (l.detail.problems as { field?: string }[]).map((x) => x.field)));
    expect([...fields].sort()).toEqual(poison.map(([, , field]) => field).sort());
  });

  it('the writer splits a batch the database refuses: the other messages are stored, the bad one alone is rejected', async () => {
    // The writer against the real database (PGlite or PostgreSQL), with a row that bypassed every
    // check before it: jsonb refuses the lone surrogate, failing the statement of the whole batch.
    const a = await addDevice('SPLIT-A');
    const c = await addDevice('SPLIT-C');
    const committed: number[] = [];
    const writer = new BatchWriter((batch) => writeBatch(t.database.db, batch), { maxRows: 1000, flushMs: 1000, maxQueued: 10_000 }, () => {}, (batch) =>
      committed.push(batch.telemetry.length),
    );
    const ts = (n: number) => new Date(Date.now() - 1000 + n).toISOString();
    const rows: TelemetryRow[] = [
      ...Array.from({ length: 6 }, (_, n) => ({ deviceId: a.id, ts: ts(n), vals: { '02109001': n } })),
      { deviceId: c.id, ts: ts(6), vals: { '01111001': '\ud800' } },
      ...Array.from({ length: 5 }, (_, n) => ({ deviceId: a.id, ts: ts(7 + n), vals: { '02109001': 7 + n } })),
    ];
    const results = rows.map((r) => writer.add({ telemetry: [r] }).then(() => 'stored', (e: unknown) => e));
    await writer.flush();
    const outcome = await Promise.all(results);
    expect(outcome.filter((o) => o === 'stored')).toHaveLength(11);
    expect(outcome[6]).toBeInstanceOf(NotStoredError);
    expect((outcome[6] as NotStoredError).sqlState).toMatch(/^22/);
    expect(await count('telemetry', a.id)).toBe(11);
    expect(await count('telemetry', c.id)).toBe(0);
    expect(committed.reduce((x, y) => x + y, 0)).toBe(11);
  });

  it('a message the database refuses is not stored, answered as refused, and logged notStored; its batch-mates are stored', async () => {
    // A refusal no check before the database knows of: a constraint only this test adds.
    await t.database.db.execute(sql`alter table device_positions add constraint poison_test_speed check (speed is distinct from 1234.5)`);
    try {
      const poisoner = await addDevice('POISON-DB');
      const bystander = await addDevice('BYSTANDER-DB');
      const b = await connect(bystander);
      const bClosed = closedOf(b);
      for (let round = 0; round < 3; round++) {
        const p = await connect(poisoner);
        // The refused fix is sent first and the bystander's 30 messages at once: one batch.
        const replies: { kind: string; problems?: unknown[] }[] = [];
        p.on('message', (_t, m) => replies.push(JSON.parse(String(m))));
        await p.subscribeAsync(`dev/${poisoner.sn}/reply`, { qos: 0 });
        const refused = publish(p, `dev/${poisoner.sn}/gps`, JSON.stringify({ lng: 116.4, lat: 39.9, speed: 1234.5 }), closedOf(p));
        const good = Array.from({ length: 30 }, (_, i) =>
          publish(b, `dev/${bystander.sn}/gps`, JSON.stringify({ ts: Date.now() - 10_000 + round * 100 + i, lng: 116 + i / 100, lat: 39.9, speed: 30 }), bClosed),
        );
        expect(await Promise.all(good)).toEqual(Array(30).fill('acked'));
        // Acknowledged as refused (sending it again could not help, and would loop), the
        // connection kept, and the device told why on its reply topic.
        expect(await refused).toBe('acked');
        expect(p.connected).toBe(true);
        await expect.poll(() => replies).toEqual([{ kind: 'rejected', topic: `dev/${poisoner.sn}/gps`, problems: [{ reason: 'notStored' }] }]);
        p.end(true);
      }
      expect(b.connected).toBe(true);
      expect(await count('device_positions', bystander.id)).toBe(90);
      expect(await count('device_positions', poisoner.id)).toBe(0);
      // Logged in a later batch, with the database's reason.
      await expect.poll(async () => (await logs(poisoner.sn, '&kind=rejected')).filter((l) => l.reason === 'notStored').length).toBe(3);
      const row = (await logs(poisoner.sn, '&kind=rejected')).find((l) => l.reason === 'notStored')!;
      expect(row.detail).toEqual({ kind: 'gps', sqlState: '23514' });

      // Over HTTP: answered as a refusal (accepted 0, notStored), not a server error.
      const http = await httpUplink(poisoner, 'gps', { lng: 116.4, lat: 39.9, speed: 1234.5 });
      expect(http.statusCode).toBe(200);
      expect(http.json().data).toMatchObject({ accepted: 0, rejected: [{ reason: 'notStored' }] });
      await expect.poll(async () => (await logs(poisoner.sn, '&kind=rejected')).filter((l) => l.reason === 'notStored').length).toBe(4);
      // The device's good messages still go through.
      expect((await httpUplink(poisoner, 'gps', { lng: 116.4, lat: 39.9, speed: 12 })).json().data.accepted).toBe(1);
    } finally {
      await t.database.db.execute(sql`alter table device_positions drop constraint poison_test_speed`);
    }
  });

  it('numbers as text must be plain decimals: hex, padding, Infinity and empty are wrong types', async () => {
    const d = await addDevice('STRICT-NUM');
    const res = await httpUplink(d, 'telemetry', {
      values: { '01111001': '52.4', '01112001': '-3', '02120001': '1e3', '02109001': '0x10', '02110001': '  12 ', '01118001': 'Infinity', '01120001': '' },
    });
    expect(res.json().data).toEqual({
      accepted: 3,
      rejected: expect.arrayContaining([
        { reason: 'wrongType', semaphoreId: '02109001' },
        { reason: 'wrongType', semaphoreId: '02110001' },
        { reason: 'wrongType', semaphoreId: '01118001' },
        { reason: 'wrongType', semaphoreId: '01120001' },
      ]),
      commands: [],
      serverTime: expect.any(Number),
    });
    expect(res.json().data.rejected).toHaveLength(4);
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(Object.fromEntries(latest.map((v) => [v.semaphoreId, v.value]))).toEqual({ '01111001': 52.4, '01112001': -3, '02120001': 1000 });
  });

  it('a ts that cannot be read is invalidMessage (field ts); a readable one outside the window is timeOutOfRange', async () => {
    const d = await addDevice('BAD-TS');
    const answer = async (kind: string, body: object) => (await httpUplink(d, kind, body)).json().data.rejected;
    expect(await answer('telemetry', { ts: 'yesterday', values: { '02109001': 1 } })).toEqual([{ reason: 'invalidMessage', field: 'ts' }]);
    expect(await answer('gps', { ts: '2026-13-45T99:99:99Z', lng: 1, lat: 2 })).toEqual([{ reason: 'invalidMessage', field: 'ts' }]);
    expect(await answer('alarm', { ts: 'soon', id: '01111001', flag: 1 })).toEqual([{ reason: 'invalidMessage', field: 'ts' }]);
    expect(await answer('telemetry', { ts: Date.now() - 30 * 86_400_000, values: { '02109001': 1 } })).toEqual([{ reason: 'timeOutOfRange' }]);
    expect(await answer('telemetry', { ts: '2001-01-01T00:00:00Z', values: { '02109001': 1 } })).toEqual([{ reason: 'timeOutOfRange' }]);
    const reasons = (await logs(d.sn, '&kind=rejected')).map((l) => l.reason).sort();
    expect(reasons).toEqual(['invalidMessage', 'invalidMessage', 'invalidMessage', 'timeOutOfRange', 'timeOutOfRange']);
    expect(await count('telemetry', d.id)).toBe(0);
  });

  it('a device alarm about an id its type does not define is refused unknownParameter', async () => {
    // A rule on an id that is no parameter (as an older install may hold): the type defines it.
    await t.database.db.execute(sql`
      insert into device_type_alarms (type_id, semaphore_id, comparison, threshold, level, message)
      values (${typeId}, '77777777', 'gt', '1', 1, 'legacy rule')`);
    const d = await addDevice('ALARM-ID');
    t.app.ingest.invalidate();
    const unknown = await httpUplink(d, 'alarm', { id: '99999999', flag: 1, value: 3 });
    expect(unknown.json().data).toMatchObject({ accepted: 0, rejected: [{ reason: 'unknownParameter', semaphoreId: '99999999' }] });
    // A parameter of the type, and the rule's id: taken.
    expect((await httpUplink(d, 'alarm', { id: '01111001', flag: 1, value: 61.2 })).json().data.accepted).toBe(1);
    expect((await httpUplink(d, 'alarm', { id: '77777777', flag: 1 })).json().data.accepted).toBe(1);
    const alarms = (await t.database.db.execute(sql`select semaphore_id from alarms where device_id = ${d.id} order by semaphore_id`)) as unknown as {
      rows: { semaphore_id: string }[];
    };
    expect(alarms.rows.map((r) => r.semaphore_id)).toEqual(['01111001', '77777777']);
    const rejected = await logs(d.sn, '&kind=rejected');
    expect(rejected).toEqual([expect.objectContaining({ reason: 'unknownParameter' })]);
    expect(rejected[0]!.detail.problems).toEqual([{ reason: 'unknownParameter', semaphoreId: '99999999' }]);
  });

  it('a malformed HTTP body from a device is answered 40000 and logged in its device log, as over MQTT', async () => {
    const d = await addDevice('HTTP-BODY');
    const post = (payload: string, contentType: string | undefined, headers = basic(d), kind = 'telemetry') =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/ingest/${kind}`,
        headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
        payload,
      });
    const cases: [payload: string, type: string | undefined, reason: string, field?: string][] = [
      ['{not json', 'application/json', 'malformedJson'],
      ['', 'application/json', 'malformedJson'],
      ['values=1', 'text/plain', 'malformedJson'],
      ['', undefined, 'malformedJson'],
      ['"just a string"', 'application/json', 'invalidMessage'],
      ['{"values":{"01111001":"\\ud800"}}', 'application/json', 'invalidMessage', 'values.01111001'],
      ['{"values":{"a":"x\\u0000"}}', 'application/json', 'invalidMessage', 'values.a'],
    ];
    for (const [payload, type, , field] of cases) {
      const res = await post(payload, type);
      expect(res.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type} ${payload}`).toBeLessThan(500);
      expect(res.json(), `${type} ${payload}`).toMatchObject({ code: ErrorCode.VALIDATION, ...(field ? { data: { field } } : {}) });
    }
    const rejected = (await logs(d.sn, '&kind=rejected')).reverse();
    expect(rejected.map((l) => l.reason)).toEqual(cases.map(([, , reason]) => reason));
    expect(rejected.map((l) => (l.detail.problems as { field?: string }[])[0]!.field)).toEqual(cases.map(([, , , field]) => field));
    // An array is a batch of telemetry samples: each one that is no sample is refused alone.
    const batch = await post('[1,2]', 'application/json');
    expect(batch.json().data).toMatchObject({ accepted: 0, rejected: [{ reason: 'invalidMessage', sample: 0 }, { reason: 'invalidMessage', sample: 1 }] });
    // An unknown kind is logged as over MQTT too.
    expect((await post('{"values":{}}', 'application/json', basic(d), 'nonsense')).json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'kind' } });
    await expect.poll(async () => (await logs(d.sn, '&kind=rejected'))[0]?.reason).toBe('unknownKind');
    // Without a device's credentials: the same answer, nothing in the device log.
    const before = (await logs(d.sn)).length;
    expect((await post('{not json', 'application/json', {} as never)).json().code).toBe(ErrorCode.VALIDATION);
    expect((await logs(d.sn)).length).toBe(before);
    // Nothing was stored.
    expect(await count('telemetry', d.id)).toBe(0);
  });
});
