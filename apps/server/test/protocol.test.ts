import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { addTestDevice, bearer, buildTestApp, connectTestDevice, type TestApp } from './helpers.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';

/**
 * Device protocol 1.1 on the embedded broker (docs/PROTOCOL.md): identity bound to the SN, a rate
 * limit that slows a device instead of cutting it off, packet limits read from headers, device
 * topics, presence of quiet devices, and commands delivered until answered. Real broker, real
 * mqtt.js devices and raw sockets, real database.
 */
describe('device protocol 1.1', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let token: string;
  let typeId: number;
  const clients: MqttClient[] = [];

  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();

  const addDevice = (sn: string) => addTestDevice(t.app, token, typeId, sn);

  const connect = (sn: string, secret: string, extra: IClientOptions = {}, port = broker.port) =>
    connectTestDevice(port, { sn, secret }, clients, { clientId: sn, ...extra });

  /** The CONNACK return code a connection attempt gets (0: accepted). */
  const connackOf = async (sn: string, secret: string, extra: IClientOptions = {}) => {
    try {
      const c = await connect(sn, secret, extra);
      c.end(true);
      return 0;
    } catch (err) {
      return (err as { code?: number }).code;
    }
  };

  const logs = async (sn: string) =>
    (await api('GET', `/logs/devicelogs?sn=${sn}&limit=100`)).data.items as { kind: string; reason: string | null; detail: Record<string, unknown> }[];
  const device = async (id: number) => (await api('GET', `/device/basic?id=${id}`)).data;
  const count = async (q: ReturnType<typeof sql>) =>
    Number(((await t.database.db.execute(q)) as unknown as { rows: { n: number | string }[] }).rows[0]!.n);
  const closed = (c: MqttClient) => new Promise<void>((resolve) => (c.disconnected ? resolve() : c.once('close', () => resolve())));

  beforeAll(async () => {
    t = await buildTestApp({ DEVICE_OFFLINE_AFTER: '1' }, { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } } });
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', commands: t.app.commands });
    token = await t.login();
    typeId = (await api('GET', '/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker.close();
    await t.close();
  });

  it('binds the client id to the SN: another device cannot take over a session or its commands', async () => {
    const a = await addDevice('P11-A');
    const b = await addDevice('P11-B');
    // A listens on a persistent session; a command waits in it while A is away.
    const listener = await connect(a.sn, a.secret, { clientId: `${a.sn}@cmd`, clean: false });
    const got: string[] = [];
    listener.on('message', (_t, p) => got.push(JSON.parse(p.toString()).id));
    await listener.subscribeAsync(`dev/${a.sn}/cmd`, { qos: 1 });

    // B, with its own valid secret, tries A's client ids: refused at CONNECT (2, identifier rejected).
    expect(await connackOf(b.sn, b.secret, { clientId: `${a.sn}@cmd`, clean: false })).toBe(2);
    expect(await connackOf(b.sn, b.secret, { clientId: a.sn })).toBe(2);
    // Any id not of the device's own form is refused too, including a client library's default.
    expect(await connackOf(b.sn, b.secret, { clientId: 'mqttjs_1234' })).toBe(2);
    expect(await connackOf(b.sn, b.secret, { clientId: `${b.sn}@` })).toBe(2);
    // The device's own forms are taken.
    expect(await connackOf(b.sn, b.secret, { clientId: b.sn })).toBe(0);
    expect(await connackOf(b.sn, b.secret, { clientId: `${b.sn}@pub-1` })).toBe(0);
    // A was never kicked, and its command reaches A alone.
    expect(listener.connected).toBe(true);
    const sent = await t.app.commands.send(a, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    await expect.poll(() => got).toEqual([sent.id]);
    await expect.poll(async () => (await logs(b.sn)).map((l) => l.reason)).toContain('foreignClientId');
  });

  it('mosquitto_pub as PROTOCOL.md runs it: its own client ids work, another device’s is refused', async () => {
    const run = promisify(execFile);
    const d = await addDevice('P11-CLI');
    const other = await addDevice('P11-CLI2');
    const pub = (clientId: string) =>
      run('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(broker.port), '-u', d.sn, '-P', d.secret, '-i', clientId, '-q', '1',
        '-t', `dev/${d.sn}/telemetry`, '-m', JSON.stringify({ values: { '02109001': 42 } })]);
    await pub(`${d.sn}@pub`);
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(1);
    // Another device's client id, or mosquitto_pub's own default: refused at CONNECT.
    await expect(pub(other.sn)).rejects.toThrow();
    await expect(run('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(broker.port), '-u', d.sn, '-P', d.secret, '-q', '1',
      '-t', `dev/${d.sn}/telemetry`, '-m', '{"values":{}}'])).rejects.toThrow();
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(1);
  });

  it('slows a device over its rate instead of cutting it off: 100 messages in flight are all stored once and acknowledged', async () => {
    // The default limit: 20 messages a second, bursts of 40.
    expect(t.app.ingest.opts.perDeviceRate).toBe(20);
    const d = await addDevice('P11-RATE');
    const c = await connect(d.sn, d.secret);
    let closes = 0;
    c.on('close', () => closes++);
    const base = Date.now() - 60_000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ ts: base + i, values: { '02109001': i % 100 } }), { qos: 1 })),
    );
    const took = Date.now() - started;
    expect(closes).toBe(0);
    expect(c.connected).toBe(true);
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(100);
    // 40 at once, the other 60 at 20 a second: the device was slowed, about 3 s.
    expect(took).toBeGreaterThan(2000);
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason)).toContain('rateLimited');
  });

  it('replays a 2,000-message backlog at its rate: every message stored once and acknowledged', { timeout: 60_000 }, async () => {
    const rate = t.app.ingest.opts.perDeviceRate;
    // 200 a second here, so the replay takes ~8 s instead of the 100 s it takes at 20 a second.
    t.app.ingest.opts.perDeviceRate = 200;
    try {
      const d = await addDevice('P11-BACKLOG');
      const c = await connect(d.sn, d.secret);
      let closes = 0;
      c.on('close', () => closes++);
      const base = Date.now() - 3_600_000;
      let acked = 0;
      await Promise.all(
        Array.from({ length: 2000 }, (_, i) =>
          c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ ts: base + i * 1000, values: { '01111001': 50 + (i % 10) } }), { qos: 1 }).then(() => acked++),
        ),
      );
      expect(acked).toBe(2000);
      expect(closes).toBe(0);
      expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(2000);
    } finally {
      t.app.ingest.opts.perDeviceRate = rate;
    }
  });

  it('refuses a huge packet from its header, before CONNECT, without the server buffering it', async () => {
    const before = process.memoryUsage().rss;
    const results = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const s = net.connect(broker.port, '127.0.0.1');
        await new Promise<void>((resolve) => s.once('connect', () => resolve()));
        const closedAt = new Promise<number>((resolve) => s.once('close', () => resolve(Date.now())));
        s.on('error', () => {});
        // A CONNECT announcing 256 MiB (remaining length 0x0fffffff), then 8 MiB of it.
        s.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
        const chunk = Buffer.alloc(1024 * 1024, 0x41);
        const start = Date.now();
        for (let i = 0; i < 8 && !s.destroyed; i++) s.write(chunk);
        return (await closedAt) - start;
      }),
    );
    for (const ms of results) expect(ms).toBeLessThan(2000);
    // Nothing near the 4 × 8 MiB sent was kept.
    expect(process.memoryUsage().rss - before).toBeLessThan(24 * 1024 * 1024);

    // Anything but CONNECT first is refused at once too.
    const s = net.connect(broker.port, '127.0.0.1');
    s.on('error', () => {});
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    const gone = new Promise<void>((resolve) => s.once('close', () => resolve()));
    s.write(Buffer.from([0x30, 0x05, 0x00, 0x01, 0x61, 0x62, 0x63]));
    await gone;
  });

  it('closes a logged-in device that sends a packet over the limit, and logs it', async () => {
    const d = await addDevice('P11-BIG');
    const c = await connect(d.sn, d.secret);
    c.on('error', () => {});
    // 300 KiB: over the 256 KiB default.
    c.publish(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { x: 'y'.repeat(300 * 1024) } }), { qos: 1 });
    await closed(c);
    await expect.poll(async () => (await logs(d.sn)).find((l) => l.reason === 'tooLarge')?.detail).toMatchObject({ limit: 256 * 1024 });
    // A message under the limit is taken as before.
    const again = await connect(d.sn, d.secret);
    await again.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '02109001': 55 } }), { qos: 1 });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(1);
  });

  it('a device cannot publish to its command topic, retained or not, nor under any other name', async () => {
    const d = await addDevice('P11-CMD');
    const listener = await connect(d.sn, d.secret, { clientId: `${d.sn}@cmd` });
    const got: string[] = [];
    listener.on('message', (_t, p) => got.push(JSON.parse(p.toString()).id));
    await listener.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });

    const forger = await connect(d.sn, d.secret, { clientId: `${d.sn}@pub` });
    forger.on('error', () => {});
    forger.publish(`dev/${d.sn}/cmd`, JSON.stringify({ id: 'fake', kind: 'setParams', payload: {} }), { qos: 1, retain: true });
    await closed(forger);
    const other = await connect(d.sn, d.secret, { clientId: `${d.sn}@pub` });
    other.on('error', () => {});
    other.publish(`dev/${d.sn}/anything`, '{}', { qos: 1 });
    await closed(other);

    // A new listener gets no retained fake command; the first one never got it.
    const late = await connect(d.sn, d.secret, { clientId: `${d.sn}@late` });
    const lateGot: string[] = [];
    late.on('message', (_t, p) => lateGot.push(JSON.parse(p.toString()).id));
    await late.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    // A real command, published after the fakes, is the first thing either listener gets: a fake
    // let through or kept for later subscribers would have come before it.
    const real = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    await expect.poll(() => got).toEqual([real.id]);
    await expect.poll(() => lateGot).toEqual([real.id]);
    await expect.poll(async () => (await logs(d.sn)).filter((l) => l.reason === 'unknownKind').length).toBe(2);

    // A retained telemetry message is stored, but the broker keeps nothing of it.
    const pub = await connect(d.sn, d.secret, { clientId: `${d.sn}@pub` });
    await pub.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '02109001': 70 } }), { qos: 1, retain: true });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(1);
    const retained: unknown[] = [];
    const persistence = (broker.broker as unknown as { persistence: { createRetainedStreamCombi(p: string[]): AsyncIterable<unknown> } }).persistence;
    for await (const p of persistence.createRetainedStreamCombi([`dev/${d.sn}/#`])) retained.push(p);
    expect(retained).toEqual([]);
  });

  it('a connected device stays online and commandable however long it is silent', async () => {
    const d = await addDevice('P11-QUIET');
    const c = await connect(d.sn, d.secret, { keepalive: 60 });
    const got: string[] = [];
    c.on('message', (_t, p) => got.push(JSON.parse(p.toString()).id));
    await c.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    await expect.poll(async () => (await device(d.id)).online).toBe(true);
    // Far past DEVICE_OFFLINE_AFTER (1 s here) without a message.
    await t.app.ingest.sweep(Date.now() + 60_000);
    // The sweep's rows go through the batch writer, which commits in order: once another device's
    // message is answered, an offline mark queued by the sweep would be written.
    const marker = await addDevice('P11-QUIET-MARK');
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/status',
      headers: { authorization: `Basic ${Buffer.from(`${marker.sn}:${marker.secret}`).toString('base64')}` },
      payload: { online: true },
    });
    expect(answer.json().code).toBe(20000);
    expect((await device(d.id)).online).toBe(true);
    const r = await api('POST', '/device/setparams', { id: d.id, values: { '10000030': true } });
    expect(r.data.status).toBe('sent');
    await expect.poll(() => got).toEqual([r.data.id]);
  });

  it('a command sent between connect and subscribe is delivered once the device subscribes', async () => {
    const d = await addDevice('P11-EARLY');
    const c = await connect(d.sn, d.secret);
    // Connected, not yet listening: the command waits instead of being published to no one.
    const cmd = await t.app.commands.send(d, 'setParams', { '10000031': false }, { ttlMs: 60_000 });
    expect(cmd.status).toBe('pending');
    const got: string[] = [];
    c.on('message', (_t, p) => got.push(JSON.parse(p.toString()).id));
    await c.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    await expect.poll(() => got).toEqual([cmd.id]);
  });

  it('a command sent but not answered goes out again when the device subscribes again', async () => {
    const d = await addDevice('P11-AGAIN');
    const first = await connect(d.sn, d.secret);
    const got1: string[] = [];
    first.on('message', (_t, p) => got1.push(JSON.parse(p.toString()).id));
    await first.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    const cmd = await t.app.commands.send(d, 'setParams', { '10000030': false }, { ttlMs: 60_000 });
    await expect.poll(() => got1).toEqual([cmd.id]);
    first.end(true);
    // The device lost it before acting (it restarted): the next session gets it again.
    const second = await connect(d.sn, d.secret);
    const got2: string[] = [];
    second.on('message', (_t, p) => got2.push(JSON.parse(p.toString()).id));
    await second.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    await expect.poll(() => got2).toEqual([cmd.id]);
    await second.publishAsync(`dev/${d.sn}/ack`, JSON.stringify({ id: cmd.id, result: 'ok' }), { qos: 1 });
    // Answered: never again.
    second.end(true);
    const third = await connect(d.sn, d.secret);
    const got3: string[] = [];
    third.on('message', (_t, p) => got3.push(JSON.parse(p.toString()).id));
    await third.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    // Deliveries to one device run one after the other: once this one is done, the subscription's
    // own has published whatever it found, and a new command comes after it.
    await t.app.commands.deliverPending(d);
    const next = await t.app.commands.send(d, 'setParams', { '10000031': true }, { ttlMs: 60_000 });
    await expect.poll(() => got3).toEqual([next.id]);
    expect((await logs(d.sn)).filter((l) => l.kind === 'command').map((l) => l.detail.event)).toContain('resent');
  });

  it('over HTTP a command is offered in every answer until the device acknowledges it', async () => {
    const d = await addDevice('P11-HTTP');
    const uplink = async (kind: string, body: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/ingest/${kind}`,
          headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
          payload: body,
        })
      ).json().data as { commands: { id: string }[] };
    await uplink('status', { online: true });
    const cmd = await t.app.commands.send(d, 'setParams', { '10000030': true }, { ttlMs: 60_000 });
    // The first answer is lost on the way; the next poll brings the command again.
    expect((await uplink('status', { online: true })).commands.map((c) => c.id)).toEqual([cmd.id]);
    expect((await uplink('status', { online: true })).commands.map((c) => c.id)).toEqual([cmd.id]);
    await uplink('ack', { id: cmd.id, result: 'progress', progress: 10 });
    expect((await uplink('status', { online: true })).commands).toEqual([]);
    const rows = await t.database.db.execute(sql`select status from device_commands where id = ${cmd.id}`);
    expect((rows as unknown as { rows: { status: string }[] }).rows).toEqual([{ status: 'sent' }]);
  });

  it('answers on dev/<sn>/reply: the server time asked for, and why a message was refused', async () => {
    const d = await addDevice('P11-REPLY');
    const c = await connect(d.sn, d.secret);
    const replies: Record<string, unknown>[] = [];
    c.on('message', (topic, p) => topic === `dev/${d.sn}/reply` && replies.push(JSON.parse(p.toString())));
    await c.subscribeAsync(`dev/${d.sn}/reply`, { qos: 0 });
    const before = Date.now();
    await c.publishAsync(`dev/${d.sn}/time`, JSON.stringify({ id: 'sync-1' }), { qos: 1 });
    await expect.poll(() => replies.length).toBe(1);
    expect(replies[0]).toMatchObject({ kind: 'time', id: 'sync-1' });
    expect(replies[0]!.serverTime as number).toBeGreaterThanOrEqual(before);
    expect(replies[0]!.serverTime as number).toBeLessThanOrEqual(Date.now());

    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '02109001': 50, '01112001': 'x', nope: 1 } }), { qos: 1 });
    await expect.poll(() => replies.length).toBe(2);
    expect(replies[1]).toEqual({
      kind: 'rejected',
      topic: `dev/${d.sn}/telemetry`,
      problems: [
        { reason: 'wrongType', semaphoreId: '01112001' },
        { reason: 'unknownParameter', semaphoreId: 'nope' },
      ],
    });
    // A message taken whole gets no reply.
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '02109001': 51 } }), { qos: 1 });
    // The next reply is the answer to a later time request: no reply came for the message between.
    await c.publishAsync(`dev/${d.sn}/time`, JSON.stringify({ id: 'sync-2' }), { qos: 1 });
    await expect.poll(() => replies.length).toBeGreaterThanOrEqual(3);
    expect(replies.slice(2)).toEqual([expect.objectContaining({ kind: 'time', id: 'sync-2' })]);
    // Another device's reply topic is refused (granted QoS 128).
    const other = await addDevice('P11-REPLY2');
    await expect(c.subscribeAsync(`dev/${other.sn}/reply`, { qos: 0 })).rejects.toThrow(/Subscribe error/);

    // Over HTTP every answer carries the server's clock.
    const http = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/time',
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      payload: {},
    });
    expect(http.json().data.serverTime).toBeGreaterThanOrEqual(before);
  });

  it('takes a batch of samples in one message, each checked alone', async () => {
    const d = await addDevice('P11-BATCH');
    const c = await connect(d.sn, d.secret);
    const base = Date.now() - 600_000;
    const batch = Array.from({ length: 100 }, (_, i) => ({ ts: base + i * 1000, values: { '01111001': 50 + (i % 7), '02109001': i % 100 } }));
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify(batch), { qos: 1 });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(100);
    // Sent again whole (no PUBACK came): still 100.
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify(batch), { qos: 1 });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(100);

    // One sample with a bad time and one with a bad value: the others are stored, the problems
    // name the sample.
    const http = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      payload: [
        { ts: base + 200_000, values: { '02109001': 10 } },
        { ts: 'yesterday', values: { '02109001': 11 } },
        { ts: base + 202_000, values: { '02109001': 'x', '01111001': 49 } },
        { values: 'nope' },
      ],
    });
    expect(http.json().data).toMatchObject({
      accepted: 2,
      rejected: [
        { reason: 'invalidMessage', sample: 1, field: 'ts' },
        { reason: 'wrongType', sample: 2, semaphoreId: '02109001' },
        { reason: 'invalidMessage', sample: 3, field: 'values' },
      ],
    });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(102);
    // More than 1,000 samples in one message: refused whole.
    const tooMany = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      payload: Array.from({ length: 1001 }, (_, i) => ({ ts: base + i, values: { '02109001': 1 } })),
    });
    expect(tooMany.json()).toMatchObject({ code: 40000, data: { field: 'body' } });
    // Over MQTT: refused whole and logged.
    await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify(Array.from({ length: 1001 }, (_, i) => ({ ts: base + i, values: { '02109001': 1 } }))), { qos: 1 });
    expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(102);
    await expect.poll(async () => (await logs(d.sn)).map((l) => l.reason)).toContain('invalidMessage');
  });

  it('a gateway reports for its registered sub-devices; another device’s SN is refused', async () => {
    const gw = await addDevice('P11-GW');
    const child = await api('POST', '/device/add', { name: 'Child 1', sn: 'P11-GW-C1', typeId, parentId: gw.id });
    expect(child.code, JSON.stringify(child)).toBe(20000);
    const childId = child.data.id as number;
    const stranger = await addDevice('P11-STRANGER');
    const c = await connect(gw.sn, gw.secret);
    const replies: { problems?: unknown[] }[] = [];
    c.on('message', (_t, p) => replies.push(JSON.parse(p.toString())));
    await c.subscribeAsync(`dev/${gw.sn}/reply`, { qos: 0 });

    await c.publishAsync(
      `dev/${gw.sn}/telemetry`,
      JSON.stringify([
        { sn: 'P11-GW-C1', values: { '02109001': 77 } },
        { values: { '02109001': 33 } },
        { sn: stranger.sn, values: { '02109001': 1 } },
      ]),
      { qos: 1 },
    );
    await c.publishAsync(`dev/${gw.sn}/gps`, JSON.stringify({ sn: 'P11-GW-C1', lng: 121.5, lat: 31.2 }), { qos: 1 });
    const latest = async (id: number) =>
      Object.fromEntries(((await api('GET', `/device/latest?id=${id}`)).data as { semaphoreId: string; value: unknown }[]).map((v) => [v.semaphoreId, v.value]));
    // The child's values land on the child, the gateway's own on the gateway, none on the stranger.
    expect(await latest(childId)).toEqual({ '02109001': 77 });
    expect(await latest(gw.id)).toEqual({ '02109001': 33 });
    expect(await latest(stranger.id)).toEqual({});
    expect(await device(childId)).toMatchObject({ online: true, lng: 121.5, lat: 31.2 });
    await expect.poll(() => replies.at(-1)).toMatchObject({ problems: [{ reason: 'notSubDevice', sample: 2, sn: stranger.sn }] });
    await expect.poll(async () => (await logs(gw.sn)).map((l) => l.reason)).toContain('notSubDevice');
    // A gateway's status for its child: the child goes offline, the gateway stays online.
    await c.publishAsync(`dev/${gw.sn}/status`, JSON.stringify({ sn: 'P11-GW-C1', online: false }), { qos: 1 });
    await expect.poll(async () => (await device(childId)).online).toBe(false);
    expect((await device(gw.id)).online).toBe(true);
  });

  it('limits new connections per address, and CONNECT must come in time', async () => {
    const limited = await startEmbeddedBroker(t.app.ingest, t.app.log, {
      port: 0,
      host: '127.0.0.1',
      limits: { connectsPerMinute: 3, connectTimeoutMs: 300 },
    });
    try {
      const d = await addDevice('P11-ADDR');
      for (let i = 0; i < 3; i++) (await connect(d.sn, d.secret, { clientId: `${d.sn}@${i}` }, limited.port)).end(true);
      // The fourth in the minute is closed before CONNECT is read.
      const fourth = mqtt.connect(`mqtt://127.0.0.1:${limited.port}`, { username: d.sn, password: d.secret, clientId: `${d.sn}@4`, reconnectPeriod: 0 });
      fourth.on('error', () => {});
      clients.push(fourth);
      const outcome = await new Promise<string>((resolve) => {
        fourth.once('connect', () => resolve('connected'));
        fourth.once('close', () => resolve('closed'));
      });
      expect(outcome).toBe('closed');

      const other = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', limits: { connectTimeoutMs: 300 } });
      try {
        const s = net.connect(other.port, '127.0.0.1');
        s.on('error', () => {});
        const start = Date.now();
        await new Promise<void>((resolve) => s.once('close', () => resolve()));
        expect(Date.now() - start).toBeLessThan(3000);
      } finally {
        await other.close();
      }
    } finally {
      await limited.close();
    }
  });

  it('speaks MQTT over WebSocket when asked, with the same rules', async () => {
    const web = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', wsPort: 0 });
    try {
      const d = await addDevice('P11-WS');
      const c = await new Promise<MqttClient>((resolve, reject) => {
        const m = mqtt.connect(`ws://127.0.0.1:${web.wsPort}/mqtt`, { username: d.sn, password: d.secret, clientId: `${d.sn}@ws`, reconnectPeriod: 0 });
        clients.push(m);
        m.once('connect', () => resolve(m));
        m.once('error', reject);
      });
      const batch = Array.from({ length: 300 }, (_, i) => ({ ts: Date.now() - 100_000 + i, values: { '02109001': i % 100, '01111001': 50 } }));
      // ~18 KB: more than one WebSocket frame's worth of MQTT for the gate to join.
      await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify(batch), { qos: 1 });
      expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(300);
      c.end(true);
      // Another device's client id is refused here too.
      const other = await addDevice('P11-WS2');
      const refused = await new Promise<number | undefined>((resolve) => {
        const m = mqtt.connect(`ws://127.0.0.1:${web.wsPort}/mqtt`, { username: other.sn, password: other.secret, clientId: d.sn, reconnectPeriod: 0 });
        clients.push(m);
        m.once('connect', () => resolve(0));
        m.once('error', (err) => resolve((err as { code?: number }).code));
      });
      expect(refused).toBe(2);
    } finally {
      await web.close();
    }
  });

  it('listens on TLS when given a certificate and key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mqtt-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
    const secure = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', tls: { port: 0, certFile: cert, keyFile: key } });
    try {
      const d = await addDevice('P11-TLS');
      const c = await new Promise<MqttClient>((resolve, reject) => {
        const m = mqtt.connect(`mqtts://127.0.0.1:${secure.tlsPort}`, {
          username: d.sn,
          password: d.secret,
          clientId: d.sn,
          ca: fs.readFileSync(cert),
          servername: 'localhost',
          rejectUnauthorized: true,
          reconnectPeriod: 0,
        });
        clients.push(m);
        m.once('connect', () => resolve(m));
        m.once('error', reject);
      });
      await c.publishAsync(`dev/${d.sn}/telemetry`, JSON.stringify({ values: { '02109001': 61 } }), { qos: 1 });
      expect(await count(sql`select count(*) as n from telemetry where device_id = ${d.id}`)).toBe(1);
      c.end(true);
    } finally {
      await secure.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
