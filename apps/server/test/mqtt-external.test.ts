import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IPublishPacket, type Packet } from 'mqtt';
import { Aedes } from 'aedes';
import { sql } from 'drizzle-orm';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { createLocalBus } from '../src/lib/events.js';
import { externalBrokerOptions, startExternalBroker, type ExternalBroker, type ExternalBrokerOptions } from '../src/telemetry/transports/mqtt-external.js';

const run = promisify(execFile);

/**
 * The console as a client of a real external broker: the machine's Mosquitto (MQTT_TEST_URL,
 * default mqtt://127.0.0.1:1883, anonymous), devices played by `mosquitto_pub`. The PGlite and
 * PostgreSQL projects run at the same time against the same broker, so every run has its own
 * share group, client id and SNs: each run's group gets every device message, and ignores (logs
 * as unknown) the other run's devices.
 */
const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
const brokerUrl = new URL(BROKER);
const RUN = crypto.randomBytes(4).toString('hex');
const GROUP = `iot-test-${RUN}`;
const CLIENT_ID = `iot-test-${RUN}`;

/** Publishes as a device, the way an operator would try it (docs/PROTOCOL.md). */
async function devicePublish(sn: string, kind: string, messages: (string | object)[], qos: 0 | 1 = 1) {
  const lines = messages.map((m) => (typeof m === 'string' ? m : JSON.stringify(m)));
  const args = ['-h', brokerUrl.hostname, '-p', brokerUrl.port || '1883', '-i', `${sn}-${RUN}`, '-q', String(qos), '-t', `dev/${sn}/${kind}`];
  if (lines.length === 1) {
    await run('mosquitto_pub', [...args, '-m', lines[0]!]);
    return;
  }
  // One message per line, over one connection.
  await new Promise<void>((resolve, reject) => {
    const child = execFile('mosquitto_pub', [...args, '-l'], (err) => (err ? reject(err) : resolve()));
    child.stdin!.end(`${lines.join('\n')}\n`);
  });
}

/** Ends a client id's session at the broker (MQTT 5 clean start, no expiry). */
async function endSession(clientId: string) {
  const c = await mqtt.connectAsync(BROKER, { clientId, clean: true, protocolVersion: 5, reconnectPeriod: 0 });
  await c.endAsync();
}

describe('external broker (MQTT_URL)', () => {
  let t: TestApp;
  let token: string;
  let typeId: number;
  let ext: ExternalBroker | undefined;
  let opts: ExternalBrokerOptions;
  const bus = createLocalBus();

  const api = async (url: string, payload?: object) =>
    (await t.app.inject({ method: payload ? 'POST' : 'GET', url: `/api/v1${url}`, headers: bearer(token), payload })).json();
  const addDevice = async (name: string) => {
    const sn = `EXT-${RUN}-${name}`;
    const r = await api('/device/add', { name: sn, sn, typeId });
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return { id: r.data.id as number, sn };
  };
  const latest = async (id: number) =>
    Object.fromEntries(((await api(`/device/latest?id=${id}`)).data as { semaphoreId: string; value: unknown }[]).map((v) => [v.semaphoreId, v.value]));
  const logs = async (sn: string) =>
    (await api(`/logs/devicelogs?sn=${sn}&limit=50`)).data.items as { kind: string; reason: string | null; detail: Record<string, unknown> }[];

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(Number(brokerUrl.port || 1883), brokerUrl.hostname, () => {
        s.end();
        resolve();
      });
      s.once('error', () => reject(new Error(`these tests need an MQTT broker with anonymous access at ${BROKER} (MQTT_TEST_URL) and mosquitto_pub`)));
    });
    t = await buildTestApp(
      { MQTT_URL: BROKER, MQTT_SHARE_GROUP: GROUP, MQTT_CLIENT_ID: CLIENT_ID, MQTT_SESSION_EXPIRY: '120' },
      { bus, ingest: { perDeviceRate: 1000, writer: { maxRows: 500, flushMs: 20, maxQueued: 5000 } } },
    );
    opts = { ...externalBrokerOptions(t.config), connectWaitMs: 5000, reconnectPeriodMs: 500, commands: t.app.commands };
    ext = await startExternalBroker(t.app.ingest, t.app.log, opts);
    token = await t.login();
    const types = await api('/devicetype/typeoptionslist');
    typeId = types.data.find((x: { code: string }) => x.code === 'BMU').id;
  });
  afterAll(async () => {
    await ext?.close();
    await endSession(CLIENT_ID).catch(() => undefined);
    await t?.close();
  });

  it('stores telemetry of a device speaking MQTT 5 (mqtt.js and mosquitto_pub -V mqttv5), and drops a disabled device’s', async () => {
    const d = await addDevice('V5');
    const c = await mqtt.connectAsync(BROKER, { clientId: `${d.sn}-${RUN}`, protocolVersion: 5, reconnectPeriod: 0 });
    expect(c.options.protocolVersion).toBe(5);
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '01111001': 51.5 } }), {
      qos: 1,
      properties: { contentType: 'application/json', messageExpiryInterval: 60 },
    });
    await c.endAsync();
    await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '01111001': 51.5 });
    await run('mosquitto_pub', ['-V', 'mqttv5', '-h', brokerUrl.hostname, '-p', brokerUrl.port || '1883', '-i', `${d.sn}-${RUN}-cli`, '-q', '1',
      '-t', `dev/${d.sn}/telemetry`, '-m', JSON.stringify({ values: { '02109001': 64 } })]);
    await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '01111001': 51.5, '02109001': 64 });

    // The external broker still lets a disabled device publish: the console drops and logs it.
    expect((await api('/device/edit', { id: d.id, enabled: false })).code).toBe(20000);
    await devicePublish(d.sn, 'telemetry', [{ values: { '02109001': 1 } }]);
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason), { timeout: 10_000 }).toContain('deviceDisabled');
    expect(await latest(d.id)).toEqual({ '01111001': 51.5, '02109001': 64 });
  });

  it('subscribes to the shared device topics with MQTT 5, pipelined', () => {
    expect(ext!.protocolVersion).toBe(5);
    expect(ext!.pipelined).toBe(true);
    expect(ext!.topics).toEqual(['telemetry', 'gps', 'alarm', 'status', 'ack', 'time'].map((k) => `$share/${GROUP}/dev/+/${k}`));
    expect(ext!.url).toBe(BROKER.replace(/\/$/, ''));
  });

  it('stores what a device publishes, readable as its latest values, and shows it online', async () => {
    const d = await addDevice('1');
    await devicePublish(d.sn, 'telemetry', [{ ts: Date.now(), values: { '01111001': 52.4, '02109001': 81 } }]);
    await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '01111001': 52.4, '02109001': 81 });
    expect((await api(`/device/basic?id=${d.id}`)).data.online).toBe(true);
    await devicePublish(d.sn, 'gps', [{ lng: 116.39, lat: 39.91 }]);
    await expect.poll(async () => (await api(`/device/basic?id=${d.id}`)).data, { timeout: 10_000 }).toMatchObject({ lng: 116.39, lat: 39.91 });
    // The device's own last will / status go the same way.
    await devicePublish(d.sn, 'status', [{ online: false }]);
    await expect.poll(async () => (await api(`/device/basic?id=${d.id}`)).data.online, { timeout: 10_000 }).toBe(false);
  });

  it('logs a malformed message and stores the next good one', async () => {
    const d = await addDevice('2');
    await devicePublish(d.sn, 'telemetry', ['{not json']);
    await devicePublish(d.sn, 'telemetry', [{ values: { '02109001': 42 } }]);
    await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '02109001': 42 });
    expect((await logs(d.sn)).filter((l) => l.kind === 'rejected').map((l) => l.reason)).toEqual(['malformedJson']);
  });

  it('replies on dev/<sn>/reply through the external broker: the server time and refusals', async () => {
    const d = await addDevice('REPLY');
    const c = await mqtt.connectAsync(BROKER, { clientId: `${d.sn}@${RUN}`, protocolVersion: 5, reconnectPeriod: 0 });
    const replies: { kind: string; id?: string; serverTime?: number; problems?: unknown[] }[] = [];
    c.on('message', (topic, p) => topic === `dev/${d.sn}/reply` && replies.push(JSON.parse(String(p))));
    try {
      await c.subscribeAsync(`dev/${d.sn}/reply`, { qos: 0 });
      await c.publishAsync(`dev/${d.sn}/time`, JSON.stringify({ id: 't-1' }), { qos: 1 });
      await expect.poll(() => replies.find((r) => r.kind === 'time'), { timeout: 10_000 }).toMatchObject({ id: 't-1', serverTime: expect.any(Number) });
      await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { nope: 1 } }), { qos: 1 });
      await expect
        .poll(() => replies.find((r) => r.kind === 'rejected'), { timeout: 10_000 })
        .toEqual({ kind: 'rejected', topic: `dev/${d.sn}/telemetry`, problems: [{ reason: 'unknownParameter', semaphoreId: 'nope' }] });
    } finally {
      await c.endAsync();
    }
  });

  it('logs an unknown SN and drops its message', async () => {
    const sn = `EXT-${RUN}-NOBODY`;
    await devicePublish(sn, 'telemetry', [{ values: { '02109001': 1 } }]);
    await expect.poll(async () => (await logs(sn)).map((l) => l.reason), { timeout: 10_000 }).toEqual(['unknownDevice']);
  });

  it('acknowledges each QoS 1 message only after it is committed, without waiting for one batch per message', async () => {
    const d = await addDevice('3');
    const committed = new Set<number>();
    const off = bus.on('device.values', (e) => {
      if (e.deviceId === d.id) committed.add(Number(e.values['02109001']));
    });
    const valueOf = new Map<number, number>();
    let open = 0;
    let maxOpen = 0;
    const early: number[] = [];
    const acked: number[] = [];
    const client = ext!.client;
    const onReceive = (p: Packet) => {
      if (p.cmd !== 'publish' || !(p as IPublishPacket).topic.startsWith(`dev/${d.sn}/`)) return;
      const pub = p as IPublishPacket;
      valueOf.set(pub.messageId!, JSON.parse(String(pub.payload)).values['02109001']);
      maxOpen = Math.max(maxOpen, ++open);
    };
    const onSend = (p: Packet) => {
      if (p.cmd !== 'puback' || !valueOf.has(p.messageId!)) return;
      open--;
      const v = valueOf.get(p.messageId!)!;
      acked.push(v);
      if (!committed.has(v)) early.push(v);
    };
    client.on('packetreceive', onReceive);
    client.on('packetsend', onSend);
    try {
      const values = Array.from({ length: 30 }, (_, i) => i + 1);
      await devicePublish(d.sn, 'telemetry', values.map((v) => ({ values: { '02109001': v } })));
      await expect.poll(() => acked.length, { timeout: 10_000 }).toBe(30);
      expect(early).toEqual([]);
      // In the order they came, and several open at once (not one commit per message).
      expect(acked).toEqual(values);
      expect(maxOpen).toBeGreaterThan(1);
    } finally {
      client.off('packetreceive', onReceive);
      client.off('packetsend', onSend);
      off();
    }
  });

  it('loses nothing acknowledged while the console is away: its session keeps the messages', async () => {
    const d = await addDevice('4');
    await ext!.close();
    ext = undefined;
    await devicePublish(d.sn, 'telemetry', [{ values: { '02109001': 77 } }]);
    // A fixed wait, not a barrier: with the console's client closed no channel leads to it that a
    // later marker could travel; the message arriving after the restart is the real check.
    await new Promise((r) => setTimeout(r, 300));
    expect(await latest(d.id)).toEqual({});
    ext = await startExternalBroker(t.app.ingest, t.app.log, opts);
    await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '02109001': 77 });
  });

  it('does not acknowledge a message it could not store: the broker delivers it again', async () => {
    const d = await addDevice('5');
    const ingest = t.app.ingest;
    const uplink = ingest.uplink.bind(ingest);
    let failures = 0;
    ingest.uplink = async (device, kind, payload) => {
      if (device.id === d.id && failures === 0) {
        failures++;
        throw new Error('database unavailable');
      }
      return uplink(device, kind, payload);
    };
    try {
      await devicePublish(d.sn, 'telemetry', [{ values: { '02109001': 55 } }]);
      await expect.poll(() => latest(d.id), { timeout: 10_000 }).toEqual({ '02109001': 55 });
      expect(failures).toBe(1);
    } finally {
      ingest.uplink = uplink;
    }
  });

  it('stores a QoS 1 message over the device rate late instead of dropping it (the broker acknowledged it)', async () => {
    const d = await addDevice('6');
    const rate = t.app.ingest.opts.perDeviceRate;
    t.app.ingest.opts.perDeviceRate = 4;
    try {
      const values = Array.from({ length: 12 }, (_, i) => i + 1);
      const start = Date.now();
      await devicePublish(d.sn, 'telemetry', values.map((v) => ({ ts: start + v, values: { '02109001': v } })));
      const count = async () =>
        ((await t.database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${d.id}`)) as unknown as { rows: { n: number }[] })
          .rows[0]!.n;
      await expect.poll(count, { timeout: 15_000 }).toBe(12);
      expect(await latest(d.id)).toEqual({ '02109001': 12 });
      // Held back to the device's rate (a burst of 8, then 4 a second), and said so once.
      expect(Date.now() - start).toBeGreaterThan(800);
      expect((await logs(d.sn)).filter((l) => l.reason === 'rateLimited')).toHaveLength(1);
    } finally {
      t.app.ingest.opts.perDeviceRate = rate;
    }
  });

  it('sends commands through the broker; one nobody listens to waits until the device is heard from', async () => {
    const d = await addDevice('7');
    const status = async (id: string) =>
      ((await t.database.db.execute(sql`select status from device_commands where id = ${id}`)) as unknown as { rows: { status: string }[] }).rows[0]!
        .status;
    // Not subscribed yet: MQTT 5 says nobody listens (PUBACK 0x10), so it stays pending.
    const waiting = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    expect(await status(waiting.id)).toBe('pending');

    const device = await mqtt.connectAsync(BROKER, { clientId: `${d.sn}-dev`, reconnectPeriod: 0 });
    const got: { id: string; kind: string }[] = [];
    device.on('message', (_topic, payload) => got.push(JSON.parse(String(payload))));
    try {
      await device.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
      // Its first message tells the console it is there: what waited goes out.
      await device.publishAsync(`dev/${d.sn}/status`, JSON.stringify({ online: true }), { qos: 1 });
      await expect.poll(() => got.map((c) => c.id), { timeout: 10_000 }).toEqual([waiting.id]);
      await expect.poll(() => status(waiting.id)).toBe('sent');

      const now = await t.app.commands.send(d, 'setParams', { '10000030': false }, { ttlMs: 60_000 });
      expect(now.status).toBe('sent');
      await expect.poll(() => got.map((c) => c.id), { timeout: 10_000 }).toEqual([waiting.id, now.id]);
      await device.publishAsync(`dev/${d.sn}/ack`, JSON.stringify({ id: now.id, result: 'ok' }), { qos: 1 });
      await expect.poll(() => status(now.id), { timeout: 10_000 }).toBe('succeeded');
    } finally {
      await device.endAsync();
    }
  });

  it('falls back to MQTT 3.1.1 when the broker does not speak 5', async () => {
    // Aedes speaks 3.1.1 only.
    const aedes = await Aedes.createBroker();
    const server = net.createServer(aedes.handle);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as net.AddressInfo).port;
    // Without the console's commands: a second client would take over their downlink and leave
    // it on a closed connection for the tests after this one.
    const old = await startExternalBroker(t.app.ingest, t.app.log, {
      ...opts,
      commands: undefined,
      url: `mqtt://127.0.0.1:${port}`,
      clientId: `${CLIENT_ID}-v3`,
      connectWaitMs: 3000,
    });
    try {
      expect(old.protocolVersion).toBe(4);
      expect(old.client.connected).toBe(true);
    } finally {
      await old.close();
      await new Promise<void>((r) => aedes.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
