import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';

/** The writer's queue as set here: a tiny queue makes the bound visible. */
const MAX_QUEUED = 200;
const MESSAGES = 20_000;

/**
 * Bounded ingestion with QoS 0: a QoS 0 publish is acknowledged to nobody, but while the writer's
 * queue is full it must wait for room like a QoS 1 one instead of piling up in memory.
 */
describe('bounded ingestion', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let client: MqttClient | undefined;

  beforeAll(async () => {
    t = await buildTestApp(
      // One device floods: the per-device rate limit is not what this test is about.
      { DEVICE_RATE_LIMIT: '100000' },
      { ingest: { writer: { maxRows: 100, flushMs: 5, maxQueued: MAX_QUEUED } } },
    );
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    client?.end(true);
    await broker.close();
    await t.close();
  });

  const count = async (deviceId: number) => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${deviceId}`);
    return (r as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };

  it('QoS 0 publishes wait for room while the writer is stalled, and none is lost', async () => {
    const token = await t.login();
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
    const typeId = (await api('GET', '/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
    const added = await api('POST', '/device/add', { name: 'Flood', sn: 'BOUND-1', typeId });
    expect(added.code, JSON.stringify(added)).toBe(20000);
    const d = { id: added.data.id as number, sn: 'BOUND-1', secret: added.data.secret as string };

    const c = (client = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, {
      username: d.sn,
      password: d.secret,
      clientId: `${d.sn}@${Math.random().toString(36).slice(2)}`,
      reconnectPeriod: 0,
    }));
    const topic = `dev/${d.sn}/telemetry`;
    // One stored message first: the device and its type's parameters are cached, so nothing
    // below needs a read while the database is held.
    await c.publishAsync(topic, JSON.stringify({ values: { '02109001': 1 } }), { qos: 1 });
    expect(await count(d.id)).toBe(1);

    // Stall the writer: a transaction holds the telemetry table until released.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table telemetry in exclusive mode`);
      locked();
      await held;
    });
    await isLocked;

    const sent = Array.from({ length: MESSAGES }, (_, i) =>
      c.publishAsync(topic, JSON.stringify({ values: { '02109001': i % 100 } }), { qos: 0 }),
    );
    // The queue fills up; then every further message waits. Watch the queue and the waiting
    // messages for a while.
    let maxQueued = 0;
    let maxWaiting = 0;
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      maxQueued = Math.max(maxQueued, t.app.ingest.queuedRows);
      maxWaiting = Math.max(maxWaiting, t.app.ingest.waitingMessages);
      await new Promise((r) => setTimeout(r, 10));
    }
    // The stall was real: the queue is full and nothing more was written.
    expect(maxQueued).toBeGreaterThanOrEqual(MAX_QUEUED);
    // Bounded: the queue never grows past its size (plus one message's rows), and the messages
    // waiting for room are at most what one read of the socket held, not the whole stream (with
    // QoS 0 let go at once, nearly all 20,000 waited here).
    expect(maxQueued).toBeLessThanOrEqual(MAX_QUEUED + 5);
    expect(maxWaiting).toBeLessThan(MESSAGES / 10);

    release();
    await holder;
    await Promise.all(sent);
    // Nothing lost: every QoS 0 message is stored once the writer runs again.
    await expect.poll(() => count(d.id), { timeout: 60_000, interval: 200 }).toBe(MESSAGES + 1);
  }, 120_000);
});
