import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { IClientOptions, MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/client.js';
import { seed } from '../src/db/seed/index.js';
import { rollupDay } from '../src/telemetry/rollup.repo.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { ADMIN, addTestDevice, bearer, connectTestDevice, openTestDatabase } from './helpers.js';

const DAY = 86_400_000;

/**
 * Samples are idempotent (docs/PROTOCOL.md §2): a telemetry message or GPS fix is identified by
 * its device and `ts`, so a device that sends it again (QoS 1 without a PUBACK, after a server
 * restart) never adds a second row. Real devices over the embedded broker into the real database.
 */
describe('resent samples are stored once', () => {
  let database: Database;
  let app: FastifyInstance;
  let broker: EmbeddedBroker;
  let token: string;
  let typeId: number;
  const clients: MqttClient[] = [];

  /**
   * The server on `database`, as main.ts starts it: the app and the embedded broker. Batches are
   * written every 250 ms, so messages published together share one batch.
   */
  const start = async () => {
    const config = loadConfig({
      CAPTCHA: 'off',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent-web-dist',
      DEMO: 'off',
    });
    app = await buildApp(config, { database, logger: false, ingest: { writer: { maxRows: 500, flushMs: 250, maxQueued: 5000 } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    broker = await startEmbeddedBroker(app.ingest, app.log, { port: 0, host: '127.0.0.1', commands: app.commands });
    const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: ADMIN });
    token = login.json().data.token as string;
  };
  const stop = async () => {
    for (const c of clients.splice(0)) c.end(true);
    await broker.close();
    await app.close();
  };

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();

  const addDevice = (sn: string) => addTestDevice(app, token, typeId, sn);

  const connect = (d: { sn: string; secret: string }, extra: IClientOptions = {}) => connectTestDevice(broker.port, d, clients, extra);

  /** A QoS 1 publish, acknowledged once committed; fails the test instead of waiting forever. */
  const publish = (c: MqttClient, topic: string, body: object) =>
    Promise.race([
      c.publishAsync(topic, JSON.stringify(body), { qos: 1 }),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no PUBACK for ${JSON.stringify(body)}`)), 5000)),
    ]);

  const rows = async <R>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: R[] }).rows;
  const telemetryOf = (deviceId: number) =>
    rows<{ ms: number; vals: Record<string, unknown> }>(
      sql`select (extract(epoch from ts) * 1000)::float8 as ms, vals from telemetry where device_id = ${deviceId} order by ts`,
    );
  const positionsOf = (deviceId: number) =>
    rows<{ ms: number; lng: number; lat: number }>(
      sql`select (extract(epoch from ts) * 1000)::float8 as ms, lng, lat from device_positions where device_id = ${deviceId} order by ts`,
    );

  beforeAll(async () => {
    database = await openTestDatabase();
    await seed(database.db, { adminUsername: ADMIN.username, adminPassword: ADMIN.password });
    await start();
    const types = await api('GET', '/devicetype/typeoptionslist');
    typeId = types.data.find((x: { code: string }) => x.code === 'BMU').id;
  });
  afterAll(async () => {
    await stop();
    await database.close();
  });

  it('the same message published three times with QoS 1 is one row', async () => {
    const d = await addDevice('IDEM-1');
    const c = await connect(d);
    const ts = Date.now() - 5_000;
    const message = { ts, values: { '01111001': 52.4, '02109001': 81 } };
    // The row's version (xmin: the transaction that wrote it): an identical copy does not rewrite it.
    const version = async () => (await rows<{ v: string }>(sql`select xmin::text as v from telemetry where device_id = ${d.id}`)).map((r) => r.v);
    await publish(c, `dev/${d.sn}/telemetry`, message);
    const written = await version();
    for (let i = 0; i < 2; i++) await publish(c, `dev/${d.sn}/telemetry`, message);
    expect(await telemetryOf(d.id)).toEqual([{ ms: ts, vals: { '01111001': 52.4, '02109001': 81 } }]);
    expect(await version()).toEqual(written);
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown; ts: string }[];
    expect(latest).toEqual([
      { semaphoreId: '01111001', value: 52.4, ts: new Date(ts).toISOString() },
      { semaphoreId: '02109001', value: 81, ts: new Date(ts).toISOString() },
    ]);
  });

  it('a message whose PUBACK was lost is sent again by the device on reconnecting: still one row', async () => {
    const d = await addDevice('IDEM-PUBACK');
    const c = await connect(d);
    c.on('error', () => {});
    let sent = 0;
    c.on('packetsend', (p) => {
      if (p.cmd === 'publish') sent++;
    });
    // The connection's own log rows written first: the message below starts a batch of its own.
    await new Promise((r) => setTimeout(r, 400));
    const ts = Date.now() - 5_000;
    // The link dies after the message reached the server and before its batch (250 ms) commits:
    // the server stores it, its PUBACK is lost, and mqtt.js keeps the message to send again.
    const acked = c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ ts, values: { '01111001': 50 } }), { qos: 1 });
    await new Promise((r) => setTimeout(r, 50));
    c.stream.destroy();
    await expect.poll(async () => (await telemetryOf(d.id)).length).toBe(1);
    expect(sent).toBe(1);
    // On reconnecting with its stores, mqtt.js sends the unacknowledged message again; this copy
    // is acknowledged.
    c.reconnect({ incomingStore: c.incomingStore, outgoingStore: c.outgoingStore });
    await Promise.race([acked, new Promise((_, reject) => setTimeout(() => reject(new Error('no PUBACK for the resent message')), 5000))]);
    expect(sent).toBe(2);
    expect(await telemetryOf(d.id)).toEqual([{ ms: ts, vals: { '01111001': 50 } }]);
  });

  it('two messages with the same ts and different values are one row with both', async () => {
    const d = await addDevice('IDEM-MERGE');
    const c = await connect(d);
    const ts = Date.now() - 5_000;
    await publish(c, `dev/${d.sn}/telemetry`, { ts, values: { '01111001': 52.4, '02109001': 81 } });
    // The later message's value of a parameter both carry wins, as in the latest values.
    await publish(c, `dev/${d.sn}/telemetry`, { ts, values: { '02109001': 82, '02110001': 97 } });
    expect(await telemetryOf(d.id)).toEqual([{ ms: ts, vals: { '01111001': 52.4, '02109001': 82, '02110001': 97 } }]);
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(Object.fromEntries(latest.map((v) => [v.semaphoreId, v.value]))).toEqual({ '01111001': 52.4, '02109001': 82, '02110001': 97 });
  });

  it('copies of a message in one batch are one row, and messages of the same ts in one batch are merged', async () => {
    const d = await addDevice('IDEM-BATCH');
    const c = await connect(d);
    const ts = Date.now() - 5_000;
    const message = { ts, values: { '01111001': 52.4 } };
    // Published together: both copies wait in the same batch (written every 250 ms).
    await Promise.all([publish(c, `dev/${d.sn}/telemetry`, message), publish(c, `dev/${d.sn}/telemetry`, message)]);
    expect(await telemetryOf(d.id)).toEqual([{ ms: ts, vals: { '01111001': 52.4 } }]);

    const ts2 = ts + 1_000;
    await Promise.all([
      publish(c, `dev/${d.sn}/telemetry`, { ts: ts2, values: { '01111001': 53, '02109001': 80 } }),
      publish(c, `dev/${d.sn}/telemetry`, { ts: ts2, values: { '02109001': 81 } }),
      publish(c, `dev/${d.sn}/telemetry`, { ts: ts2, values: { '02110001': 96 } }),
    ]);
    expect(await telemetryOf(d.id)).toEqual([
      { ms: ts, vals: { '01111001': 52.4 } },
      { ms: ts2, vals: { '01111001': 53, '02109001': 81, '02110001': 96 } },
    ]);
  });

  it('messages without ts are each a sample of their own, even arriving in the same millisecond', async () => {
    const d = await addDevice('IDEM-NOTS');
    const c = await connect(d);
    // Twenty at once: they arrive together, most of them in the same millisecond.
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    await Promise.all(values.map((v) => publish(c, `dev/${d.sn}/telemetry`, { values: { '02109001': v } })));
    const stored = await telemetryOf(d.id);
    expect(stored.map((r) => r.vals['02109001'])).toEqual(values);
    expect(new Set(stored.map((r) => r.ms)).size).toBe(20);
    expect(stored.at(-1)!.ms - stored[0]!.ms).toBeLessThan(2_000);
    // A resend without ts is a new sample too (the protocol says so: send ts to resend safely).
    await publish(c, `dev/${d.sn}/telemetry`, { values: { '02109001': 20 } });
    expect(await telemetryOf(d.id)).toHaveLength(21);
  });

  it('a GPS fix resent is one row, and an old fix resent does not move the device back', async () => {
    const d = await addDevice('IDEM-GPS');
    const c = await connect(d);
    const ts = Date.now() - 10_000;
    const first = { ts, lng: 116.39, lat: 39.91, speed: 12, satellites: 9 };
    await publish(c, `dev/${d.sn}/gps`, first);
    await Promise.all([publish(c, `dev/${d.sn}/gps`, first), publish(c, `dev/${d.sn}/gps`, first)]);
    expect(await positionsOf(d.id)).toEqual([{ ms: ts, lng: 116.39, lat: 39.91 }]);

    await publish(c, `dev/${d.sn}/gps`, { ts: ts + 5_000, lng: 121.47, lat: 31.23 });
    await publish(c, `dev/${d.sn}/gps`, first);
    expect(await positionsOf(d.id)).toEqual([
      { ms: ts, lng: 116.39, lat: 39.91 },
      { ms: ts + 5_000, lng: 121.47, lat: 31.23 },
    ]);
    expect((await api('GET', `/device/basic?id=${d.id}`)).data).toMatchObject({ lng: 121.47, lat: 31.23 });
  });

  it('history and its rollups are the same whether messages were sent once or three times', async () => {
    const d = await addDevice('IDEM-HIST');
    const c = await connect(d);
    // Yesterday (a whole past day, the kind the rollups cover), three messages a minute apart.
    const dayStart = Math.floor(Date.now() / DAY) * DAY - DAY;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    const messages = [0, 1, 2].map((i) => ({ ts: dayStart + 3_600_000 + i * 60_000, values: { '01111001': 50 + i, '02109001': 90 - i } }));
    for (const m of messages) await publish(c, `dev/${d.sn}/telemetry`, m);

    const from = new Date(dayStart).toISOString();
    const to = new Date(dayStart + DAY).toISOString();
    const history = async () => {
      const list = await api('GET', `/device/devicehistoricallist?id=${d.id}&semaphoreIds=01111001,02109001&from=${from}&to=${to}&limit=50&order=asc`);
      expect(list.code, JSON.stringify(list)).toBe(20000);
      const chart = await api('GET', `/device/devicehistoricallisttoecharts?id=${d.id}&semaphoreIds=01111001,02109001&from=${from}&to=${to}`);
      expect(chart.code, JSON.stringify(chart)).toBe(20000);
      await rollupDay(database.db, day, false);
      const rollup = await rows<{ bucket: string; mm: unknown }>(
        sql`select bucket::text as bucket, mm from telemetry_rollup where device_id = ${d.id} order by bucket`,
      );
      const hour = await rows<{ bucket: string; mm: unknown }>(
        sql`select bucket::text as bucket, mm from telemetry_rollup_hour where device_id = ${d.id} order by bucket`,
      );
      return { list: list.data, chart: chart.data, rollup, hour };
    };
    const once = await history();
    expect(once.list).toMatchObject({ total: 3 });
    expect(once.rollup).toHaveLength(1);

    for (const m of messages) for (let i = 0; i < 2; i++) await publish(c, `dev/${d.sn}/telemetry`, m);
    expect(await telemetryOf(d.id)).toHaveLength(3);
    expect(await history()).toEqual(once);
  });

  it('a message resent after the server restarted on the same database is still one row', async () => {
    const d = await addDevice('IDEM-RESTART');
    const ts = Date.now() - 5_000;
    const message = { ts, values: { '01111001': 51, '02109001': 70 } };
    await publish(await connect(d), `dev/${d.sn}/telemetry`, message);
    expect(await telemetryOf(d.id)).toHaveLength(1);

    // A new process: nothing of the first one's memory is left, only the database.
    await stop();
    await start();
    const c = await connect(d);
    await publish(c, `dev/${d.sn}/telemetry`, message);
    await publish(c, `dev/${d.sn}/telemetry`, { ts, values: { '02110001': 95 } });
    expect(await telemetryOf(d.id)).toEqual([{ ms: ts, vals: { '01111001': 51, '02109001': 70, '02110001': 95 } }]);
  });
});
