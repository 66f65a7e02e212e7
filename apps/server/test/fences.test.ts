import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { sql } from 'drizzle-orm';
import { ErrorCode, type FenceDto } from '@iot/contract';
import { BmuModel } from '@iot/sim-model';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { addTestDevice, apiAs, buildTestApp, connectTestDevice, type TestApp } from './helpers.js';

/** Metres north of a point, in degrees of latitude (close enough for tests of 100 m … 1 km). */
const north = (lat: number, m: number) => lat + m / 111_195;
const CENTRE = { lng: 116.397, lat: 39.909 };

/**
 * Geo-fences end to end (§4 fence states, §7 setfence / setclosefence / setrefence, §8 fence
 * results): through the command channel to a simulated battery over MQTT, to an offline device, to
 * a device that refuses or never answers; the crossing check on fixes sent through ingestion.
 */
describe('geo-fences', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  const tok: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tok);
  const clients: MqttClient[] = [];
  let typeId: number;
  let seq = 0;

  const until = async (check: () => Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out');
  };
  const fences = async (deviceId: number, who = 'admin') => (await ok(who, 'GET', `/device/fencelist?id=${deviceId}`)).items as FenceDto[];
  const fence = async (deviceId: number, id: number) => (await fences(deviceId)).find((f) => f.id === id)!;
  const newDevice = async () => addTestDevice(t.app, tok.admin!, typeId, `FEN-${++seq}`);
  const basic = async (id: number) => ok('admin', 'GET', `/device/basic?id=${id}`);

  /** A device on the embedded broker answering its commands with `answer` (the simulated battery by default). */
  const mqttDevice = async (d: { id: number; sn: string; secret: string }, answer?: (cmd: { id: string; kind: string }) => object | undefined) => {
    const model = new BmuModel({ sn: d.sn, now: Date.now(), faultsPerHour: 0 });
    const c = await connectTestDevice(broker.port, d, clients);
    c.on('message', (_topic, buf) => {
      const cmd = JSON.parse(buf.toString()) as { id: string; kind: string };
      const ack = answer ? answer(cmd) : model.command(cmd, Date.now());
      if (ack) c.publish(`dev/${d.sn}/ack`, JSON.stringify(ack), { qos: 1 });
    });
    await c.subscribeAsync(`dev/${d.sn}/cmd`, { qos: 1 });
    await c.publishAsync(`dev/${d.sn}/status`, JSON.stringify({ online: true }), { qos: 1 });
    await until(async () => (await basic(d.id)).online === true);
    return model;
  };

  /** A device that posts over HTTP (its uplinks' answers carry its commands). */
  const httpDevice = (d: { sn: string; secret: string }) => {
    const headers = { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` };
    const post = async (kind: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/ingest/${kind}`, headers, payload });
      const body = res.json();
      if (body.code !== 20000 || body.data.accepted === 0) throw new Error(`${kind}: ${res.body}`);
      return body.data as { commands: { id: string; kind: string; payload: Record<string, unknown> }[] };
    };
    return { post };
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { writer: { maxRows: 500, flushMs: 5, maxQueued: 5000 } } });
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', commands: t.app.commands });
    tok.admin = await t.login();
    typeId = ((await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await broker.close();
    await t.close();
  });

  it('a simulated battery over MQTT keeps the fence: set → issued successfully, re-locked, removed, each kept as history', async () => {
    const d = await newDevice();
    const model = await mqttDevice(d);
    const set = await call('admin', 'POST', '/device/setfence', { id: d.id, ...CENTRE, radius: 500, action: 'lock' });
    expect(set.code).toBe(20000);
    const id = (set.data as FenceDto).id;
    expect(set.data).toMatchObject({ fenceId: `fence-${id}`, radius: 500, action: 'lock', alarmOnEnter: false });
    await until(async () => (await fence(d.id, id)).state === 'issued');
    // The device keeps exactly what was sent.
    expect(model.snapshot.fences).toEqual([{ fenceId: `fence-${id}`, ...CENTRE, radius: 500, action: 'lock', armed: true }]);

    expect((await call('admin', 'POST', '/device/setrefence', { fenceId: id })).code).toBe(20000);
    await until(async () => (await fence(d.id, id)).state === 'relocked');
    expect((await call('admin', 'POST', '/device/setclosefence', { fenceId: id })).code).toBe(20000);
    await until(async () => (await fence(d.id, id)).state === 'removed');
    expect(model.snapshot.fences).toEqual([]);

    const f = await fence(d.id, id);
    expect(f.pending).toBeNull();
    expect(f.history.map((h) => [h.op, h.state, h.userName, h.reason])).toEqual([
      ['set', 'set', 'admin', ''],
      ['set', 'issued', 'admin', ''],
      ['relock', 'relocked', 'admin', ''],
      ['close', 'removed', 'admin', ''],
    ]);
    // Removed already: nothing more to send.
    expect((await call('admin', 'POST', '/device/setclosefence', { fenceId: id })).data.reason).toBe('fenceRemoved');
    expect((await call('admin', 'POST', '/device/setrefence', { fenceId: id })).data.reason).toBe('fenceNotKept');
  });

  it('a simulated battery told to wander out of its fence raises one fence alarm over MQTT', async () => {
    const d = await newDevice();
    const model = await mqttDevice(d);
    const c = clients.at(-1)!;
    const fixAt = async (ts: number) => c.publishAsync(`dev/${d.sn}/gps`, JSON.stringify(model.gps(ts)), { qos: 1 });
    const now = Date.now() - 60_000;
    const here = model.gps(now);
    await fixAt(now);
    const f = (await ok('admin', 'POST', '/device/setfence', { id: d.id, lng: here.lng, lat: here.lat, radius: 2000, action: 'alarm' })) as FenceDto;
    await until(async () => (await fence(d.id, f.id)).state === 'issued');
    await fixAt(now + 1000);
    await until(async () => (await fence(d.id, f.id)).inside === true);
    expect(model.wanderOut()).toBeDefined();
    await fixAt(now + 2000);
    await fixAt(now + 3000);
    const open = async () =>
      ((await ok('admin', 'GET', `/device/alarmlist?deviceId=${d.id}&activity=active`)).items as { source: string; semaphoreId: string; level: number }[]);
    await until(async () => (await open()).length > 0);
    expect(await open()).toEqual([expect.objectContaining({ source: 'fence', semaphoreId: f.fenceId, level: 3 })]);
    expect((await fence(d.id, f.id)).inside).toBe(false);
  });

  it('an offline device: failed because the device is offline, nothing sent; it is then removed without a command', async () => {
    const d = await newDevice();
    const set = await call('admin', 'POST', '/device/setfence', { id: d.id, ...CENTRE, radius: 120, action: 'alarm', alarmOnEnter: true });
    expect(set).toMatchObject({ code: 20000, message: 'device offline: nothing sent', data: { state: 'offline', pending: null } });
    const id = (set.data as FenceDto).id;
    expect((set.data as FenceDto).history.map((h) => h.state)).toEqual(['set', 'offline']);
    const commands = (await ok('admin', 'GET', `/device/commandlist?id=${d.id}`)).items as { kind: string; status: string }[];
    expect(commands).toEqual([expect.objectContaining({ kind: 'fenceSet', status: 'offline' })]);
    // Not kept by the device: no re-lock; removing needs no command.
    expect((await call('admin', 'POST', '/device/setrefence', { fenceId: id })).data.reason).toBe('fenceNotKept');
    const removed = await call('admin', 'POST', '/device/setclosefence', { fenceId: id });
    expect(removed).toMatchObject({ code: 20000, data: { state: 'removed' } });
    expect((await ok('admin', 'GET', `/device/commandlist?id=${d.id}`)).items).toHaveLength(1);
  });

  it('a device answering error → failed with its reason; one not answering in time → failed, timed out', async () => {
    const refusing = await newDevice();
    await mqttDevice(refusing, (cmd) => ({ id: cmd.id, result: 'error', message: 'fence memory full' }));
    const id = (await ok('admin', 'POST', '/device/setfence', { id: refusing.id, ...CENTRE, radius: 300, action: 'alarm' })).id as number;
    await until(async () => (await fence(refusing.id, id)).state === 'failed');
    expect((await fence(refusing.id, id)).history.at(-1)).toMatchObject({ op: 'set', state: 'failed', reason: 'fence memory full', timedOut: false });

    const silent = await newDevice();
    await mqttDevice(silent, () => undefined);
    const quiet = (await ok('admin', 'POST', '/device/setfence', { id: silent.id, ...CENTRE, radius: 300, action: 'alarm' })) as FenceDto;
    expect(quiet).toMatchObject({ state: 'set', pending: 'set' });
    // A second command for a fence waiting for its answer is refused.
    expect((await call('admin', 'POST', '/device/setclosefence', { fenceId: quiet.id })).data.reason).toBe('fenceBusy');
    await t.app.commands.expire(new Date(Date.now() + 120_000));
    await until(async () => (await fence(silent.id, quiet.id)).state === 'failed');
    expect((await fence(silent.id, quiet.id)).history.at(-1)).toMatchObject({ op: 'set', state: 'failed', timedOut: true });
  });

  it('refuses what the caller may not do: a device only shared with it, a device it cannot see, a radius out of bounds', async () => {
    const roles = (await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    const bm = roles.find((r) => r.identification === 'BATTERYMANAGEMENT')!.id;
    const admin = roles.find((r) => r.identification === 'ADMIN')!.id;
    await ok('admin', 'POST', '/user/add', { username: 'fence-owner', password: 'secret-pass', type: 1, roleId: admin });
    tok.owner = await t.login('fence-owner', 'secret-pass');
    const subId = (await ok('owner', 'POST', '/user/add', { username: 'fence-sub', password: 'secret-pass', type: 1, roleId: bm })).id;
    tok.sub = await t.login('fence-sub', 'secret-pass');
    await ok('admin', 'POST', '/user/add', { username: 'fence-other', password: 'secret-pass', type: 1, roleId: admin });
    tok.other = await t.login('fence-other', 'secret-pass');
    const p = (await ok('owner', 'POST', '/project/addproject', { name: 'Fenced yard' })).id;
    await ok('owner', 'POST', '/project/setuserproject', { id: p, userIds: [subId] });
    const device = (await ok('owner', 'POST', '/device/add', { name: 'Yard battery', sn: 'FEN-SHARED', typeId, projectId: p })).id as number;
    const mine = (await ok('owner', 'POST', '/device/setfence', { id: device, ...CENTRE, radius: 200, action: 'lock' })) as FenceDto;

    // The sub-user sees the device and its fences (read-only), and may change none of them.
    expect((await basic(device)).can.fence).toBe(true);
    expect((await ok('sub', 'GET', `/device/basic?id=${device}`)).can.fence).toBe(false);
    expect((await fences(device, 'sub')).map((f) => f.id)).toEqual([mine.id]);
    for (const [url, body] of [
      ['/device/setfence', { id: device, ...CENTRE, radius: 200, action: 'lock' }],
      ['/device/setclosefence', { fenceId: mine.id }],
      ['/device/setrefence', { fenceId: mine.id }],
    ] as const) {
      expect(await call('sub', 'POST', url, body)).toMatchObject({ code: ErrorCode.FORBIDDEN, data: { reason: 'devicesSharedOnly' } });
    }
    // Another tenant sees neither the device nor its fences.
    expect((await call('other', 'GET', `/device/fencelist?id=${device}`)).code).toBe(ErrorCode.NOT_FOUND);
    expect(await call('other', 'POST', '/device/setclosefence', { fenceId: mine.id })).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'fenceNotFound' } });
    expect(await call('other', 'POST', '/device/setfence', { id: device, ...CENTRE, radius: 200, action: 'lock' })).toMatchObject({ code: ErrorCode.NOT_FOUND });
    // The protocol's bounds, the wrong field named.
    for (const [field, value] of [['radius', 9], ['radius', 100_001], ['radius', 50.5], ['lat', 91], ['lng', -181], ['action', 'explode']] as const) {
      expect(await call('owner', 'POST', '/device/setfence', { id: device, ...CENTRE, radius: 200, action: 'lock', [field]: value })).toMatchObject({
        code: ErrorCode.VALIDATION,
        data: { field },
      });
    }
    // Nothing of this reached the database.
    expect((await fences(device)).map((f) => f.id)).toEqual([mine.id]);
  });

  it('checks every fix sent through ingestion: one alarm per crossing, hysteresis on the border, entering if asked', async () => {
    const d = await newDevice();
    const dev = httpDevice(d);
    await dev.post('status', { online: true });
    const radius = 200; // band: 20 m
    const set = (await ok('admin', 'POST', '/device/setfence', { id: d.id, ...CENTRE, radius, action: 'alarm', alarmOnEnter: true })) as FenceDto;
    const t0 = Date.now() - 600_000;
    let step = 0;
    /** A fix `m` metres north of the centre, each a second after the one before (or at `at`). */
    const fix = async (m: number, at?: number) => {
      const ts = at ?? t0 + ++step * 1000;
      return dev.post('gps', { ts, lng: CENTRE.lng, lat: north(CENTRE.lat, m) });
    };
    // The fence reaches the device in an uplink's answer; its ok issues it.
    const { commands } = await dev.post('status', { online: true });
    const cmd = commands.find((c) => c.kind === 'fenceSet')!;
    expect(cmd.payload).toEqual({ fenceId: set.fenceId, ...CENTRE, radius, action: 'alarm' });
    await dev.post('ack', { id: cmd.id, result: 'ok' });
    await until(async () => (await fence(d.id, set.id)).state === 'issued');

    const alarms = async () => {
      const res = await t.database.db.execute(sql`
        select rule_key, source, semaphore_id, level, message_en, value, started_at, ended_at from alarms where device_id = ${d.id} order by id`);
      return (res as unknown as { rows: { rule_key: string; level: number; message_en: string; value: string; ended_at: unknown }[] }).rows;
    };
    const settled = async (n: number) => until(async () => (await alarms()).length === n);

    await fix(50); // inside
    await fix(210); // past the radius, within its band: still inside
    await fix(219);
    expect(await alarms()).toHaveLength(0);
    const outAt = t0 + (step + 1) * 1000;
    await fix(260); // out: one alarm
    await settled(1);
    await fix(260, outAt); // the same fix again (a resend): nothing new
    await fix(215); // back within the band: still out
    await fix(205);
    await fix(500);
    await fix(150, t0 - 5000); // late: older than the fixes checked, ignored
    expect(await alarms()).toHaveLength(1);
    expect(await alarms()).toEqual([
      expect.objectContaining({ rule_key: `fence:${set.id}:out`, source: 'fence', semaphore_id: set.fenceId, level: 3, message_en: `Left geo-fence ${set.fenceId}`, value: '260 m', ended_at: null }),
    ]);
    expect((await basic(d.id)).warningLevel).toBe(3);
    expect((await fence(d.id, set.id)).inside).toBe(false);

    await fix(150); // in: the leaving alarm ends, entering opens one
    await settled(2);
    await fix(215); // within the band: still in
    await fix(150);
    await fix(300); // out again: a second leaving alarm, entering ends
    await settled(3);
    const all = await alarms();
    expect(all.map((a) => [a.rule_key, a.level, a.ended_at === null])).toEqual([
      [`fence:${set.id}:out`, 3, false],
      [`fence:${set.id}:in`, 2, false],
      [`fence:${set.id}:out`, 3, true],
    ]);
    // The alarm list names it in every language.
    const listed = (await ok('admin', 'GET', `/device/alarmlist?deviceId=${d.id}&activity=active`)).items as { source: string; nameEn: string; name: string }[];
    expect(listed).toEqual([expect.objectContaining({ source: 'fence', nameEn: 'Geo-fence', name: '电子围栏' })]);

    // Removed (the device's ok in the answer to its next uplink): its open alarm ends, the device's level falls.
    await ok('admin', 'POST', '/device/setclosefence', { fenceId: set.id });
    const close = (await dev.post('status', { online: true })).commands.find((c) => c.kind === 'fenceClose')!;
    await dev.post('ack', { id: close.id, result: 'ok' });
    await until(async () => (await fence(d.id, set.id)).state === 'removed');
    await until(async () => (await alarms()).every((a) => a.ended_at !== null));
    expect((await basic(d.id)).warningLevel).toBe(0);
    // No longer checked: leaving again raises nothing.
    await fix(50);
    await fix(900);
    expect(await alarms()).toHaveLength(3);
  });
});
