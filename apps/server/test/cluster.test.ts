import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DOWNLINK_KIND, deviceTopic, LiveType, type LiveServerMessage } from '@iot/contract';
import { openDatabase, type Database } from '../src/db/client.js';
import type { MqttClient } from 'mqtt';
import { startEmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { bearer, buildTestApp, connectTestDevice, type TestApp } from './helpers.js';
import { connectLive, type LiveTestClient } from './live-client.js';
import { redisReachable, subscribers, TEST_REDIS_URL, uniqueChannel } from './redis.js';

/**
 * Two instances over one PostgreSQL database and one Redis (issue #37, decision 0035): a browser
 * on instance B sees the live values and alarms of a device that reports through instance A.
 * PGlite is one process's database: there the test has nothing to run on.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
if (!onPostgres) console.warn('cluster test skipped: two instances need PostgreSQL (the server-pg project)');
const reachable = onPostgres && (await redisReachable());

describe.skipIf(!reachable)('two instances, one database, one Redis', () => {
  const channel = uniqueChannel('cluster');
  let a: TestApp;
  let b: TestApp;
  let bDatabase: Database;
  let aPort: number;
  let token: string;
  let typeId: number;
  let seq = 0;
  const sockets: LiveTestClient[] = [];

  const ok = async (t: TestApp, method: 'GET' | 'POST', path: string, payload?: object) => {
    const r = (await t.app.inject({ method, url: `/api/v1${path}`, headers: bearer(token), payload })).json();
    if (r.code !== 20000) throw new Error(`${method} ${path}: ${JSON.stringify(r)}`);
    return r.data;
  };
  const addDevice = async () => {
    const sn = `CLU-${++seq}`;
    const d = await ok(a, 'POST', '/device/add', { name: `Rack ${sn}`, sn, typeId });
    return { id: d.id as number, sn, secret: d.secret as string };
  };
  type Kind = 'telemetry' | 'alarm' | 'status' | 'ack';
  /** The device speaks plain HTTP, to instance A unless told otherwise, as a real one would. */
  const post = (d: { sn: string; secret: string }, kind: Kind, body: object, port = aPort) =>
    fetch(`http://127.0.0.1:${port}/api/v1/ingest/${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      body: JSON.stringify(body),
    });
  const report = async (d: { sn: string; secret: string }, kind: Kind, body: object, port = aPort) => {
    const res = await post(d, kind, body, port);
    const r = (await res.json()) as { code: number; data: { accepted: number; commands?: { id: string }[] } };
    expect(r.code, JSON.stringify(r)).toBe(20000);
    expect(r.data.accepted).toBe(1);
    return r.data;
  };
  const live = async (t: TestApp, follow: number[], as = token) => {
    const port = (t.app.server.address() as { port: number }).port;
    const c = connectLive(`ws://127.0.0.1:${port}/api/v1/ws`);
    sockets.push(c);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId: 1, token: as, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    c.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: follow });
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICES_SUBSCRIBED));
    return c;
  };
  const valuesOf = (c: LiveTestClient, deviceId: number) =>
    c.received.filter((m): m is Extract<LiveServerMessage, { type: typeof LiveType.DEVICE_VALUES }> => m.type === LiveType.DEVICE_VALUES && m.deviceId === deviceId);
  const alarmsOf = (c: LiveTestClient, deviceId: number) =>
    c.received.flatMap((m) => (m.type === LiveType.ALARMS ? m.alarms.filter((x) => x.deviceId === deviceId).map((x) => `${m.event}:${x.semaphoreId}:${x.level}`) : []));

  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_CHANNEL: channel };
    a = await buildTestApp(env);
    bDatabase = await openDatabase({ databaseUrl: a.database.url! });
    b = await buildTestApp(env, { database: bDatabase });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    aPort = (a.app.server.address() as { port: number }).port;
    // Both instances' subscribers are on the channel before anything is emitted.
    await subscribers(channel, 2);
    // Signed in on B: the session lives in the shared database and serves on A too.
    token = await b.login();
    typeId = (await ok(a, 'POST', '/devicetype/addtype', { code: 'CLU', name: '集群测试', nameEn: 'Cluster test' })).id;
    await ok(a, 'POST', '/devicetype/addsetparam', {
      id: typeId,
      params: [
        { semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 },
        { semaphoreId: 'F', name: '故障', nameEn: 'Fault', dataType: 'integer', sort: 2 },
      ],
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.close();
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it('a browser on B sees the live values a device sent through A, once; A’s own browser too', async () => {
    const d = await addDevice();
    const onB = await live(b, [d.id]);
    const onA = await live(a, [d.id]);
    await report(d, 'telemetry', { ts: Date.now(), values: { T: 21.5 } });
    await onB.until(() => valuesOf(onB, d.id).length > 0, 5000);
    await onA.until(() => valuesOf(onA, d.id).length > 0, 5000);
    expect(valuesOf(onB, d.id).map((m) => m.values.T)).toEqual([21.5]);
    // A heard its own event once: no echo from Redis doubles it.
    await onA.pinged();
    expect(valuesOf(onA, d.id).map((m) => m.values.T)).toEqual([21.5]);
  });

  it('an alarm raised on A reaches the browser on B, and is stored once', async () => {
    const d = await addDevice();
    const onB = await live(b, [d.id]);
    await report(d, 'alarm', { ts: Date.now(), id: 'F', flag: 1, value: 7, level: 4 });
    await onB.until(() => alarmsOf(onB, d.id).length > 0, 5000);
    expect(alarmsOf(onB, d.id)).toEqual(['started:F:4']);
    const list = await ok(b, 'GET', `/device/alarmlist?deviceId=${d.id}&limit=100`);
    expect(list.items).toHaveLength(1);
  });

  it('a device that reports through A is shown online on B', async () => {
    const d = await addDevice();
    const onB = await live(b, [d.id]);
    await report(d, 'telemetry', { ts: Date.now(), values: { T: 30 } });
    await onB.until(() => onB.received.some((m) => m.type === LiveType.DEVICE_STATUS && m.deviceId === d.id && m.online), 5000);
  });

  it('a command A sent and its device answered through A shows its result on B', async () => {
    const types = (await ok(a, 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
    const sn = `CLU-${++seq}`;
    const added = await ok(a, 'POST', '/device/add', { name: `Rack ${sn}`, sn, typeId: types.find((x) => x.code === 'BMU')!.id });
    const d = { id: added.id as number, sn, secret: added.secret as string };
    const onB = await live(b, [d.id]);
    const cmd = await a.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    // An HTTP device takes its commands in the answer to its uplink, and acknowledges them.
    expect((await report(d, 'status', { online: true })).commands?.map((c) => c.id)).toEqual([cmd.id]);
    await report(d, 'ack', { id: cmd.id, result: 'ok' });
    const results = () =>
      onB.received.flatMap((m) => (m.type === LiveType.DEVICE_COMMAND && m.id === cmd.id ? [m.status] : []));
    await onB.until(() => results().includes('succeeded'), 5000);
    expect(results().filter((s) => s === 'succeeded')).toHaveLength(1);
  });

  it('a session ended on A closes its socket on B', async () => {
    const other = await a.login();
    const onB = await live(b, [], other);
    const res = await a.app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: bearer(other) });
    expect(res.json().code).toBe(20000);
    await onB.until(() => onB.closed() !== undefined, 5000);
    expect(onB.closed()).toBe(4001);
    expect(onB.received.some((m) => m.type === LiveType.SESSION_ENDED)).toBe(true);
  });

  it('a command sent through A reaches at once a device connected to B’s broker', async () => {
    const types = (await ok(a, 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
    const sn = `CLU-${++seq}`;
    const added = await ok(a, 'POST', '/device/add', { name: `Rack ${sn}`, sn, typeId: types.find((x) => x.code === 'BMU')!.id });
    const d = { id: added.id as number, sn, secret: added.secret as string };
    const broker = await startEmbeddedBroker(b.app.ingest, b.app.log, { port: 0, host: '127.0.0.1', commands: b.app.commands });
    const clients: MqttClient[] = [];
    try {
      const c = await connectTestDevice(broker.port, d, clients);
      await c.subscribeAsync(deviceTopic(sn, DOWNLINK_KIND), { qos: 1 });
      const got = new Promise<{ id: string }>((resolve) => c.on('message', (_t, payload) => resolve(JSON.parse(payload.toString()))));
      // A holds no connection of the device: before, the command waited for its next connection.
      const cmd = await a.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
      const received = await Promise.race([got, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the device on B never got the command')), 5000))]);
      expect(received.id).toBe(cmd.id);
      const row = await a.database.db.execute(sql`select status from device_commands where id = ${cmd.id}`);
      expect((row as unknown as { rows: { status: string }[] }).rows[0]?.status).toBe('sent');
    } finally {
      for (const c of clients) c.end(true);
      await broker.close();
    }
  });

  it('a device connected to B’s broker is disconnected when disabled on A', async () => {
    const d = await addDevice();
    const broker = await startEmbeddedBroker(b.app.ingest, b.app.log, { port: 0, host: '127.0.0.1', commands: b.app.commands });
    const clients: MqttClient[] = [];
    try {
      const c = await connectTestDevice(broker.port, d, clients);
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      await ok(a, 'POST', '/device/edit', { id: d.id, enabled: false });
      // Only the event tells B: its broker holds the connection, A's database changed.
      await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('B kept the disabled device connected')), 5000))]);
      await expect(connectTestDevice(broker.port, d, clients)).rejects.toThrow(/Not authorized/i);
    } finally {
      for (const c of clients) c.end(true);
      await broker.close();
    }
  });
});
