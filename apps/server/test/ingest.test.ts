import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient, type Packet } from 'mqtt';
import WebSocket from 'ws';
import { LiveType, type LiveServerMessage } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { addTestDevice, bearer, buildTestApp, connectTestDevice, type TestApp } from './helpers.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';

/** Devices over a real MQTT broker and real HTTP into the real database. */
describe('device ingestion', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let token: string;
  let typeId: number;
  const clients: MqttClient[] = [];

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();

  /** A device in the registry: its id, SN and one-time secret. */
  const addDevice = (sn: string) => addTestDevice(t.app, token, typeId, sn);

  const connect = (sn: string, secret: string, extra: IClientOptions = {}) => connectTestDevice(broker.port, { sn, secret }, clients, extra);

  /** A device connection subscribed to its commands, and the ids of the commands it received. */
  const commandListener = async (d: { sn: string; secret: string }) => {
    const client = await connect(d.sn, d.secret);
    const ids: string[] = [];
    client.on('message', (_topic, payload) => ids.push(JSON.parse(payload.toString()).id));
    await client.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    return { client, ids };
  };

  const publish = (c: MqttClient, topic: string, body: unknown, qos: 0 | 1 = 1) =>
    c.publishAsync(topic, typeof body === 'string' ? body : JSON.stringify(body), { qos });

  const logs = async (sn: string) => (await api('GET', `/logs/devicelogs?sn=${sn}&limit=50`)).data.items as {
    kind: string;
    reason: string | null;
    detail: Record<string, unknown>;
  }[];

  const device = async (id: number) => (await api('GET', `/device/basic?id=${id}`)).data;

  beforeAll(async () => {
    t = await buildTestApp(
      { DEVICE_OFFLINE_AFTER: '2' },
      { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } }, liveTiming: { devicePushMs: 100 } },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
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

  it('stores telemetry a device publishes with QoS 1 once acknowledged, and shows it online', async () => {
    const d = await addDevice('ING-1');
    const c = await connect(d.sn, d.secret);
    // PUBACK arrives after the commit: the values are readable at once.
    await publish(c, `dev/${d.sn}/telemetry`, { ts: Date.now(), values: { '01111001': 52.4, '02109001': 81, '10000006': 2 } });
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(Object.fromEntries(latest.map((v) => [v.semaphoreId, v.value]))).toEqual({ '01111001': 52.4, '02109001': 81, '10000006': '2' });
    const rows = await t.database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${d.id}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    expect((await device(d.id)).online).toBe(true);
    expect((await logs(d.sn)).map((l) => l.kind)).toEqual(expect.arrayContaining(['connected', 'online']));
  });

  it('the device list sorts by last seen: newest first and never-heard-from last, or the stalest first', async () => {
    const [a, b, never] = [await addDevice('ING-LS-A'), await addDevice('ING-LS-B'), await addDevice('ING-LS-C')];
    const ca = await connect(a.sn, a.secret);
    await publish(ca, `dev/${a.sn}/telemetry`, { ts: Date.now(), values: { '01111001': 50 } });
    await new Promise((r) => setTimeout(r, 30));
    const cb = await connect(b.sn, b.secret);
    await publish(cb, `dev/${b.sn}/telemetry`, { ts: Date.now(), values: { '01111001': 51 } });
    const list = async (order: 'asc' | 'desc') =>
      (await api('GET', `/device/list?q=ING-LS-&sort=lastSeenAt&order=${order}`)).data.items as { sn: string; lastSeenAt: string | null }[];
    await expect.poll(async () => (await list('desc')).map((d) => d.sn)).toEqual([b.sn, a.sn, never.sn]);
    const items = await list('desc');
    expect(Date.parse(items[0]!.lastSeenAt!)).toBeGreaterThan(Date.parse(items[1]!.lastSeenAt!));
    expect(items[2]!.lastSeenAt).toBeNull();
    expect((await list('asc')).map((d) => d.sn)).toEqual([never.sn, a.sn, b.sn]);
    expect((await device(b.id)).lastSeenAt).toBe(items[0]!.lastSeenAt);
  });

  it('refuses a wrong secret and an unknown device, and logs both', async () => {
    const d = await addDevice('ING-2');
    await expect(connect(d.sn, 'not-the-secret')).rejects.toThrow(/Bad username or password/i);
    await expect(connect('NO-SUCH-SN', 'whatever')).rejects.toThrow(/Bad username or password/i);
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason)).toContain('badCredentials');
    await expect.poll(async () => (await logs('NO-SUCH-SN')).map((l) => l.reason)).toContain('unknownDevice');
    expect((await device(d.id)).online).toBe(false);
  });

  it('answers an MQTT 5 device with CONNACK 0x84 naming the external-broker mode, and logs it', async () => {
    const d = await addDevice('ING-V5');
    const c = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { username: d.sn, password: d.secret, protocolVersion: 5, reconnectPeriod: 0 });
    clients.push(c);
    const connack = new Promise<Packet>((resolve) => c.on('packetreceive', (p) => p.cmd === 'connack' && resolve(p)));
    const err = await new Promise<Error & { code?: number }>((resolve) => c.once('error', resolve));
    expect(err.code).toBe(0x84);
    expect(await connack).toMatchObject({ reasonCode: 0x84, properties: { reasonString: expect.stringMatching(/external broker \(MQTT_URL\)/) } });
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason)).toContain('unsupportedProtocol');
    expect((await device(d.id)).online).toBe(false);
  });

  it('a device cannot publish as another device or read its commands', async () => {
    const a = await addDevice('ING-3A');
    const b = await addDevice('ING-3B');
    const c = await connect(a.sn, a.secret);
    // Refused with granted QoS 128; the connection stays.
    await expect(c.subscribeAsync(`dev/${b.sn}/cmd`)).rejects.toThrow(/Subscribe error/);
    const own = await c.subscribeAsync(`dev/${a.sn}/cmd`);
    expect(own[0]!.qos).toBe(0);
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    c.publish(`dev/${b.sn}/telemetry`, JSON.stringify({ values: { '01111001': 1 } }), { qos: 1 });
    await closed;
    expect((await api('GET', `/device/latest?id=${b.id}`)).data).toEqual([]);
    await expect.poll(async () => (await logs(a.sn)).map((l) => l.reason)).toContain('foreignTopic');
  });

  it('keeps the newest value of each parameter when an older message arrives late', async () => {
    const d = await addDevice('ING-LATE');
    const c = await connect(d.sn, d.secret);
    const now = Date.now();
    await publish(c, `dev/${d.sn}/telemetry`, { ts: now - 10_000, values: { '01111001': 10, '02109001': 20 } });
    await publish(c, `dev/${d.sn}/telemetry`, { ts: now, values: { '02109001': 30 } });
    // Late: older than the stored 02109001, newer than the stored 01111001, and a new parameter.
    await publish(c, `dev/${d.sn}/telemetry`, { ts: now - 5_000, values: { '01111001': 11, '02109001': 25, '02110001': 90 } });
    await publish(c, `dev/${d.sn}/telemetry`, { ts: now - 60_000, values: { '02110001': 1 } });
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown; ts: string }[];
    expect(latest).toEqual([
      { semaphoreId: '01111001', value: 11, ts: new Date(now - 5_000).toISOString() },
      { semaphoreId: '02109001', value: 30, ts: new Date(now).toISOString() },
      { semaphoreId: '02110001', value: 90, ts: new Date(now - 5_000).toISOString() },
    ]);
    c.end(true);
  });

  it('drops a malformed message or a bad value alone, logs why, and keeps the rest', async () => {
    const d = await addDevice('ING-4');
    const c = await connect(d.sn, d.secret);
    await publish(c, `dev/${d.sn}/telemetry`, '{not json');
    await publish(c, `dev/${d.sn}/telemetry`, { values: { '01111001': 5000, '02109001': 50, '99999999': 1, '10000006': '9' } });
    await publish(c, `dev/${d.sn}/telemetry`, { values: { '01112001': 'twelve', '02110001': 97 } });
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(Object.fromEntries(latest.map((v) => [v.semaphoreId, v.value]))).toEqual({ '02109001': 50, '02110001': 97 });
    const rejected = (await logs(d.sn)).filter((l) => l.kind === 'rejected');
    // One log row per message, named by its first problem (integer-like keys such as 10000006 iterate first).
    expect(rejected.map((l) => l.reason).sort()).toEqual(['malformedJson', 'notInEnum', 'wrongType']);
    const problems = rejected.flatMap((l) => (l.detail.problems as { reason: string; semaphoreId: string }[] | undefined) ?? []);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'outOfRange', semaphoreId: '01111001' }),
        expect.objectContaining({ reason: 'unknownParameter', semaphoreId: '99999999' }),
        expect.objectContaining({ reason: 'notInEnum', semaphoreId: '10000006' }),
        expect.objectContaining({ reason: 'wrongType', semaphoreId: '01112001' }),
      ]),
    );
    // The connection survived all of it.
    expect(c.connected).toBe(true);
  });

  it('the last will marks a device offline; silence does too', async () => {
    const d = await addDevice('ING-5');
    const c = await connect(d.sn, d.secret, {
      will: { topic: `dev/${d.sn}/status`, payload: Buffer.from(JSON.stringify({ online: false })), qos: 1, retain: false },
    });
    await publish(c, `dev/${d.sn}/status`, { online: true });
    expect((await device(d.id)).online).toBe(true);
    // The link dies without a DISCONNECT: the broker publishes the will.
    c.stream.destroy();
    await expect.poll(async () => (await device(d.id)).online, { timeout: 10_000 }).toBe(false);
    expect((await logs(d.sn)).map((l) => l.kind)).toContain('offline');

    // An HTTP device that falls silent goes offline after DEVICE_OFFLINE_AFTER (2 s here).
    const h = await addDevice('ING-5H');
    await httpUplink(h.sn, h.secret, 'telemetry', { values: { '02109001': 40 } });
    expect((await device(h.id)).online).toBe(true);
    await t.app.ingest.sweep(Date.now() + 3000);
    await expect.poll(async () => (await device(h.id)).online).toBe(false);
  });

  it('a device listening on one connection and publishing on another stays online until its last connection closes', async () => {
    const d = await addDevice('ING-5L');
    const listener = await connect(d.sn, d.secret);
    await listener.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    const publisher = await connect(d.sn, d.secret);
    await publish(publisher, `dev/${d.sn}/telemetry`, { values: { '02109001': 50 } });
    await publisher.endAsync();
    await expect.poll(async () => (await logs(d.sn)).filter((l) => l.kind === 'disconnected').length).toBe(1);
    expect((await device(d.id)).online).toBe(true);
    expect((await logs(d.sn)).map((l) => l.kind)).not.toContain('offline');
    await listener.endAsync();
    await expect.poll(async () => (await device(d.id)).online).toBe(false);
    expect((await logs(d.sn)).find((l) => l.kind === 'offline')?.detail).toEqual({ why: 'disconnected' });
  });

  const httpUplink = (sn: string, secret: string, kind: string, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/ingest/${kind}`,
      headers: { authorization: `Basic ${Buffer.from(`${sn}:${secret}`).toString('base64')}` },
      payload,
    });

  it('takes the same messages over HTTP, with the device secret as credentials', async () => {
    const d = await addDevice('ING-6');
    const good = await httpUplink(d.sn, d.secret, 'telemetry', { values: { '01111001': 48.2, '01112001': 'x' } });
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toEqual({
      accepted: 1,
      rejected: [{ reason: 'wrongType', semaphoreId: '01112001' }],
      commands: [],
      serverTime: expect.any(Number),
    });
    const gps = await httpUplink(d.sn, d.secret, 'gps', { lng: 116.39, lat: 39.91, speed: 12, satellites: 9 });
    expect(gps.json().data.accepted).toBe(1);
    expect(await device(d.id)).toMatchObject({ lng: 116.39, lat: 39.91 });

    // A device placed at a fixed position (map mode 1) stays there; its fixes are still its track.
    const fixed = await api('POST', '/device/add', { name: 'Rack ING-6F', sn: 'ING-6F', typeId, mapMode: 1, lng: 121.47, lat: 31.23 });
    expect(fixed.code, JSON.stringify(fixed)).toBe(20000);
    expect((await httpUplink('ING-6F', fixed.data.secret as string, 'gps', { lng: 116.39, lat: 39.91 })).json().data.accepted).toBe(1);
    expect(await device(fixed.data.id as number)).toMatchObject({ mapMode: 1, lng: 121.47, lat: 31.23 });
    const track = await t.database.db.execute(sql`select count(*)::int as n from device_positions where device_id = ${fixed.data.id as number}`);
    expect((track as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);

    const bad = await httpUplink(d.sn, 'wrong', 'telemetry', { values: {} });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe(60204);
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', payload: { values: {} } });
    expect(none.statusCode).toBe(401);
    const kind = await httpUplink(d.sn, d.secret, 'nonsense', { values: {} });
    expect(kind.json()).toMatchObject({ code: 40000, data: { field: 'kind' } });
  });

  it('stores what a status message reports (firmware…) on the device, written only when it changes', async () => {
    const d = await addDevice('ING-INFO');
    expect((await device(d.id)).reportedInfo).toBeNull();
    const c = await connect(d.sn, d.secret);
    await publish(c, `dev/${d.sn}/status`, { online: true, info: { firmware: '1.4.2', bootloader: 'b7', signal: -71, gps: true } });
    expect(await device(d.id)).toMatchObject({ online: true, reportedInfo: { firmware: '1.4.2', bootloader: 'b7', signal: -71, gps: true } });
    // The same info again is not written (the row is left alone: a value changed behind the
    // server's back stays), a status without info keeps it, a different one replaces it.
    await t.database.db.execute(sql`update devices set reported_info = '{"firmware":"changed elsewhere"}' where id = ${d.id}`);
    await publish(c, `dev/${d.sn}/status`, { online: true, info: { firmware: '1.4.2', bootloader: 'b7', signal: -71, gps: true } });
    await publish(c, `dev/${d.sn}/status`, { online: true });
    expect((await device(d.id)).reportedInfo).toEqual({ firmware: 'changed elsewhere' });
    const res = await httpUplink(d.sn, d.secret, 'status', { online: true, info: { firmware: '1.5.0' } });
    expect(res.json().data.accepted).toBe(1);
    expect((await device(d.id)).reportedInfo).toEqual({ firmware: '1.5.0' });
    // At most 32 keys are kept; a bad info (a nested object) refuses the message.
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    await httpUplink(d.sn, d.secret, 'status', { online: true, info: many });
    expect(Object.keys((await device(d.id)).reportedInfo)).toHaveLength(32);
    const bad = await httpUplink(d.sn, d.secret, 'status', { online: true, info: { firmware: { major: 1 } } });
    expect(bad.json().data.accepted).toBe(0);
    expect(Object.keys((await device(d.id)).reportedInfo)).toHaveLength(32);
    c.end(true);
  });

  it('a disabled device is refused (MQTT CONNACK 5, HTTP 403), a connected one is disconnected, and it may return once enabled', async () => {
    const d = await addDevice('ING-OFF');
    const c = await connect(d.sn, d.secret);
    await publish(c, `dev/${d.sn}/telemetry`, { values: { '01111001': 40 } });
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    const edit = await api('POST', '/device/edit', { id: d.id, enabled: false });
    expect(edit.code, JSON.stringify(edit)).toBe(20000);
    expect((await device(d.id)).enabled).toBe(false);
    // Disconnected by the server as soon as it is disabled.
    await closed;
    const disabledList = (await api('GET', `/device/list?enabled=false&q=ING-OFF`)).data;
    expect(disabledList.items.map((x: { sn: string }) => x.sn)).toEqual(['ING-OFF']);
    expect((await api('GET', `/device/list?enabled=true&q=ING-OFF`)).data.total).toBe(0);

    // Logging in again: refused with "not authorized" (the secret is right), logged with its reason.
    await expect(connect(d.sn, d.secret)).rejects.toThrow(/Not authorized/i);
    const http = await httpUplink(d.sn, d.secret, 'telemetry', { values: { '01111001': 41 } });
    expect(http.statusCode).toBe(403);
    expect(http.json()).toMatchObject({ data: { reason: 'deviceDisabled' } });
    // A wrong secret is still only "bad credentials": being disabled is told to the device alone.
    expect((await httpUplink(d.sn, 'wrong', 'telemetry', { values: {} })).statusCode).toBe(401);
    await expect.poll(async () => (await logs(d.sn)).filter((l) => l.reason === 'deviceDisabled').length).toBeGreaterThanOrEqual(2);
    const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(latest).toEqual([expect.objectContaining({ semaphoreId: '01111001', value: 40 })]);

    expect((await api('POST', '/device/edit', { id: d.id, enabled: true })).code).toBe(20000);
    const again = await connect(d.sn, d.secret);
    await publish(again, `dev/${d.sn}/telemetry`, { values: { '01111001': 42 } });
    expect((await api('GET', `/device/latest?id=${d.id}`)).data).toEqual([expect.objectContaining({ semaphoreId: '01111001', value: 42 })]);
    again.end(true);
  });

  it('keeps whole days: history spans day borders, retention drops old days', async () => {
    const d = await addDevice('ING-7');
    const now = Date.now();
    const yesterday = now - 86_400_000;
    for (const ts of [yesterday, now]) {
      const r = await httpUplink(d.sn, d.secret, 'telemetry', { ts, values: { '02109001': 60 } });
      expect(r.json().data.accepted).toBe(1);
    }
    const tooOld = await httpUplink(d.sn, d.secret, 'telemetry', { ts: now - 30 * 86_400_000, values: { '02109001': 1 } });
    expect(tooOld.json().data.rejected).toEqual([{ reason: 'timeOutOfRange' }]);

    const count = async () =>
      ((await t.database.db.execute(
        sql`select count(*)::int as n from telemetry where device_id = ${d.id} and ts >= ${new Date(yesterday - 1000).toISOString()}::timestamptz`,
      )) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    expect(await count()).toBe(2);

    // 89 days later (retention 90 days) only days before yesterday are dropped: both rows stay.
    const early = await t.app.partitions.run(now + 89 * 86_400_000);
    expect(early.length).toBeGreaterThan(0);
    expect(await count()).toBe(2);
    // A year later the old days are dropped as whole partitions, the rows with them.
    const dropped = await t.app.partitions.run(now + 365 * 86_400_000);
    expect(dropped.length).toBeGreaterThanOrEqual(9);
    expect(dropped.every((n) => /^telemetry_p\d{8}$/.test(n))).toBe(true);
    expect(await count()).toBe(0);
    // Back to today's days for the other tests.
    await t.app.partitions.run(now);
  });

  /** A logged-in live socket that records what it receives. */
  const liveAs = async (userToken: string, userId: number) => {
    const addr = t.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${addr.port}/api/v1/ws`);
    const received: LiveServerMessage[] = [];
    ws.on('message', (raw) => received.push(JSON.parse(String(raw))));
    await new Promise<void>((r) => ws.once('open', () => r()));
    ws.send(JSON.stringify({ type: LiveType.LOGIN, userId, token: userToken, timestamp: Date.now() }));
    await expect.poll(() => received.some((m) => m.type === LiveType.LOGIN_OK)).toBe(true);
    return { ws, received, send: (m: object) => ws.send(JSON.stringify(m)) };
  };

  it('a device deleted while connected: its messages are dropped, the others in the same batch stored', async () => {
    const gone = await addDevice('ING-DEL-1');
    const kept = await addDevice('ING-DEL-2');
    const [g, k] = await Promise.all([t.app.ingest.deviceOf(gone.sn), t.app.ingest.deviceOf(kept.sn)]);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/device/delete?id=${gone.id}`, headers: bearer(token) });
    expect(del.json().code).toBe(20000);
    // The broker still holds the deleted device's login; both messages share one batch.
    await Promise.all([
      t.app.ingest.uplink(g!, 'telemetry', { values: { '01111001': 50 } }),
      t.app.ingest.uplink(g!, 'gps', { lng: 116.4, lat: 39.9 }),
      t.app.ingest.uplink(k!, 'telemetry', { values: { '01111001': 51 } }),
    ]);
    const latest = (await api('GET', `/device/latest?id=${kept.id}`)).data as { semaphoreId: string; value: unknown }[];
    expect(latest).toEqual([expect.objectContaining({ semaphoreId: '01111001', value: 51 })]);
    const orphans = await t.database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${gone.id}`);
    expect((orphans as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('pushes a subscribed device’s values and status live, coalesced, only to users who may see it', async () => {
    const d = await addDevice('ING-8');
    const subId = await t.createUser({ username: 'live-sub', password: 'live-sub-pass', role: 'ADMIN' });
    const admin = await liveAs(token, 1);
    const sub = await liveAs(await t.login('live-sub', 'live-sub-pass'), subId);
    admin.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: [d.id] });
    sub.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: [d.id] });
    await expect.poll(() => admin.received.find((m) => m.type === LiveType.DEVICES_SUBSCRIBED)).toEqual({ type: LiveType.DEVICES_SUBSCRIBED, deviceIds: [d.id] });
    // The admin's device is outside the sub-user's subtree: left out of the subscription.
    await expect.poll(() => sub.received.find((m) => m.type === LiveType.DEVICES_SUBSCRIBED)).toEqual({ type: LiveType.DEVICES_SUBSCRIBED, deviceIds: [] });

    const c = await connect(d.sn, d.secret);
    // A burst (QoS 0, not waiting), then a QoS 1 message: the writer keeps order, so its PUBACK
    // means the whole burst is committed.
    for (const soc of [70, 69, 68]) void publish(c, `dev/${d.sn}/telemetry`, { values: { '02109001': soc } }, 0);
    await publish(c, `dev/${d.sn}/telemetry`, { values: { '01111001': 50.5 } });
    await expect
      .poll(() => admin.received.filter((m) => m.type === LiveType.DEVICE_VALUES).reduce((acc, m) => ({ ...acc, ...(m as { values: object }).values }), {}))
      .toEqual({ '02109001': 68, '01111001': 50.5 });
    // Four messages within one push period arrive as fewer updates, the newest value winning.
    expect(admin.received.filter((m) => m.type === LiveType.DEVICE_VALUES).length).toBeLessThan(4);
    expect(admin.received).toContainEqual(expect.objectContaining({ type: LiveType.DEVICE_STATUS, deviceId: d.id, online: true }));
    // The sub-user's socket got the same events in the same ticks; a heartbeat answered on it now
    // comes after anything the server sent it for this device.
    sub.send({ type: LiveType.HEARTBEAT, timestamp: Date.now() });
    await expect.poll(() => sub.received.some((m) => m.type === LiveType.HEARTBEAT_ACK)).toBe(true);
    expect(sub.received.filter((m) => m.type === LiveType.DEVICE_VALUES || m.type === LiveType.DEVICE_STATUS)).toEqual([]);
    admin.ws.close();
    sub.ws.close();
  });

  it('a command waiting for its device reaches it once, however many deliveries run at once', async () => {
    const d = await addDevice('ING-ONCE');
    const queued = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    expect(queued.status).toBe('pending');
    const { client: c, ids: got } = await commandListener(d);
    // The connection's own delivery, three more beside it, and a send at the same moment.
    const [sent] = await Promise.all([
      t.app.commands.send(d, 'setParams', { '10000031': false }, { ttlMs: 60_000 }),
      t.app.commands.deliverPending(d),
      t.app.commands.deliverPending(d),
      t.app.commands.deliverPending(d),
    ]);
    await expect.poll(() => [...got].sort()).toEqual([queued.id, sent.id].sort());
    // Deliveries to one device run one after the other: a command sent now is published after
    // every delivery above, so a second copy of either would arrive before it.
    const last = await t.app.commands.send(d, 'setParams', { '10000030': false }, { ttlMs: 60_000 });
    await expect.poll(() => got.length).toBeGreaterThanOrEqual(3);
    expect(got.slice(2)).toEqual([last.id]);
    const logged = (await api('GET', `/logs/devicelogs?sn=${d.sn}&kind=command&limit=50`)).data.items as { detail: { id: string; event: string } }[];
    expect(logged.filter((l) => l.detail.event === 'sent').map((l) => l.detail.id).sort()).toEqual([queued.id, sent.id, last.id].sort());
    c.end(true);
  });

  it('commands reach a connected device, wait for an offline one, and end by its answer or expiry', async () => {
    const d = await addDevice('ING-9');
    const c = await connect(d.sn, d.secret);
    const received: { id: string; kind: string; payload: unknown; expiresAt: number }[] = [];
    c.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString())));
    await c.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });

    const ok = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    expect(ok.status).toBe('sent');
    await expect.poll(() => received.map((m) => m.id)).toContain(ok.id);
    expect(received.find((m) => m.id === ok.id)).toMatchObject({ kind: 'setParams', payload: { '10000030': true } });
    // PUBACK after the commit: the acknowledgement has been applied when publish resolves.
    await publish(c, `dev/${d.sn}/ack`, { id: ok.id, result: 'ok' });

    const refused = await t.app.commands.send(d, 'setParams', { '10000031': false }, { ttlMs: 60_000 });
    await expect.poll(() => received.map((m) => m.id)).toContain(refused.id);
    await publish(c, `dev/${d.sn}/ack`, { id: refused.id, result: 'error', message: 'switch locked' });

    // Another device cannot answer this device's command.
    const other = await addDevice('ING-9B');
    await httpUplink(other.sn, other.secret, 'ack', { id: ok.id, result: 'error' });

    const rows = await t.database.db.execute(sql`select id, status, message from device_commands where device_id = ${d.id}`);
    const byId = Object.fromEntries((rows as unknown as { rows: { id: string; status: string; message: string }[] }).rows.map((r) => [r.id, r]));
    expect(byId[ok.id]).toMatchObject({ status: 'succeeded' });
    expect(byId[refused.id]).toMatchObject({ status: 'failed', message: 'switch locked' });

    // Offline: the command waits and goes out when the device subscribes again.
    c.end(true);
    await expect.poll(async () => (await device(d.id)).online).toBe(false);
    const later = await t.app.commands.send(d, 'setParams', { '10000030': false }, { ttlMs: 60_000 });
    expect(later.status).toBe('pending');
    const { ids: got } = await commandListener(d);
    await expect.poll(() => got).toContain(later.id);

    // No answer before the expiry: timeout. The server's own expiry sweep (every 5 s) may take it
    // before this call does, so the command's state is checked, not what this call returned.
    const silent = await t.app.commands.send(d, 'setParams', { '10000031': true }, { ttlMs: 1 });
    await new Promise((r) => setTimeout(r, 20));
    await t.app.commands.expire();
    const expired = await t.database.db.execute(sql`select status from device_commands where id = ${silent.id}`);
    expect((expired as unknown as { rows: { status: string }[] }).rows).toEqual([{ status: 'timeout' }]);

    // Recorded for an offline device: never delivered.
    const unsent = await t.app.commands.recordOffline(d, 'setParams', { '10000030': true }, {});

    // Every step is in the device log as a `command` row, and the kind filter finds exactly those.
    const answer = await api('GET', `/logs/devicelogs?sn=${d.sn}&kind=command&limit=50`);
    expect(answer.code).toBe(20000);
    const rowsLogged = answer.data.items as { kind: string; detail: { id: string; kind: string; event: string } }[];
    expect(rowsLogged.every((l) => l.kind === 'command')).toBe(true);
    const steps = (id: string) => rowsLogged.filter((l) => l.detail.id === id).map((l) => l.detail.event).reverse();
    expect(steps(ok.id)).toEqual(['sent']);
    expect(steps(refused.id)).toEqual(['sent']);
    expect(steps(later.id)).toEqual(['queued', 'sent']);
    expect(steps(silent.id)).toEqual(['sent', 'timeout']);
    expect(steps(unsent.id)).toEqual(['offline']);
    expect(rowsLogged.find((l) => l.detail.id === ok.id)!.detail).toEqual({ id: ok.id, kind: 'setParams', event: 'sent' });
    expect(answer.data.total).toBe(7);
    // The acknowledgements stay `ack` rows.
    const acks = (await api('GET', `/logs/devicelogs?sn=${d.sn}&kind=ack&limit=50`)).data.items as { detail: { id: string } }[];
    expect(acks.map((l) => l.detail.id).sort()).toEqual([ok.id, refused.id].sort());
  });

  // Only PostgreSQL runs two transactions at once (PGlite has a single connection): no deadlock there.
  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'a batch PostgreSQL rolls back for a deadlock is written again: the device is answered 20000 and its value stored',
    async () => {
      const d = await addDevice('ING-DEADLOCK');
      expect((await httpUplink(d.sn, d.secret, 'telemetry', { ts: Date.now() - 1000, values: { '01111001': 50 } })).json().code).toBe(20000);
      const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
      // Another transaction (an administrator's bulk update, say) holds the device's latest-values
      // row and then wants its devices row, which the batch locked first: a cycle PostgreSQL breaks
      // by rolling back the batch, the one that waited first.
      let uplink: Promise<{ json(): { code: number } }> | undefined;
      await t.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1 from device_latest where device_id = ${d.id} for update`);
          uplink = httpUplink(d.sn, d.secret, 'telemetry', { ts: Date.now(), values: { '01111001': 51.5 } });
          await expect
            .poll(async () => rowsOf<{ n: number }>(await t.database.db.execute(sql`
              select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]!.n)
            .toBe(1);
          await tx.execute(sql`update devices set name = name where id = ${d.id}`);
        })
        .catch(() => undefined); // if PostgreSQL picks this side instead, the batch goes through at once
      expect((await uplink!).json().code).toBe(20000);
      const latest = (await api('GET', `/device/latest?id=${d.id}`)).data as { semaphoreId: string; value: unknown }[];
      expect(latest.find((v) => v.semaphoreId === '01111001')?.value).toBe(51.5);
      const stored = await t.database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${d.id}`);
      expect(rowsOf<{ n: number }>(stored)[0]!.n).toBe(2);
    },
  );

  it('an HTTP device gets its waiting commands in the answer to its uplink and acknowledges them', async () => {
    const d = await addDevice('ING-10');
    const cmd = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    expect(cmd.status).toBe('pending');
    const first = await httpUplink(d.sn, d.secret, 'status', { online: true });
    expect(first.json().data.commands).toEqual([
      { id: cmd.id, kind: 'setParams', payload: { '10000030': true }, expiresAt: cmd.expiresAt.getTime() },
    ]);
    // Offered again until answered (an answer lost on the way loses no command), then no more.
    expect((await httpUplink(d.sn, d.secret, 'status', { online: true })).json().data.commands).toEqual([expect.objectContaining({ id: cmd.id })]);
    await httpUplink(d.sn, d.secret, 'ack', { id: cmd.id, result: 'ok' });
    expect((await httpUplink(d.sn, d.secret, 'status', { online: true })).json().data.commands).toEqual([]);
    const rows = await t.database.db.execute(sql`select status from device_commands where id = ${cmd.id}`);
    expect((rows as unknown as { rows: { status: string }[] }).rows[0]!.status).toBe('succeeded');
    // Queued (no connection), then handed over in the HTTP answer.
    const logged = (await api('GET', `/logs/devicelogs?sn=${d.sn}&kind=command&limit=50`)).data.items as { detail: object }[];
    expect(logged.map((l) => l.detail).reverse()).toEqual([
      { id: cmd.id, kind: 'setParams', event: 'queued' },
      { id: cmd.id, kind: 'setParams', event: 'sent', via: 'http' },
    ]);
  });

  it('holds back a flooding device without acknowledging what it does not take', async () => {
    const d = await addDevice('ING-11');
    // 80 messages at once, far past 20/s with bursts of 40.
    const answers = await Promise.all(
      Array.from({ length: 80 }, async () => (await httpUplink(d.sn, d.secret, 'telemetry', { values: { '02109001': 1 } })).json().code as number),
    );
    // A burst of 40 is taken, the rest is refused with 42900 (never a silent drop).
    expect(answers.filter((c) => c === 20000).length).toBeGreaterThanOrEqual(40);
    expect(answers.filter((c) => c === 42900).length).toBeGreaterThan(0);
    expect(answers.every((c) => c === 20000 || c === 42900)).toBe(true);
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason)).toContain('rateLimited');
    // Another device is not affected.
    const other = await addDevice('ING-11B');
    expect((await httpUplink(other.sn, other.secret, 'telemetry', { values: { '02109001': 2 } })).json().code).toBe(20000);
  });
});
