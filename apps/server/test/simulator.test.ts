import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleApi, provision, startFleet, type Fleet, type SimDevice } from '@iot/simulator';
import { commandById } from '../src/telemetry/ingest.repo.js';
import { startEmbeddedBroker, type EmbeddedBroker } from '../src/telemetry/transports/mqtt.js';
import { ADMIN, bearer, buildTestApp, type TestApp } from './helpers.js';

/**
 * The fleet simulator (apps/simulator) end to end: it registers its devices through the real
 * API, logs them in to the embedded broker, and their values arrive like a real device's.
 */
describe('fleet simulator against the server', () => {
  let t: TestApp;
  let broker: EmbeddedBroker;
  let token: string;
  let base: string;
  let devices: SimDevice[];
  let fleet: Fleet | undefined;
  let client: ConsoleApi;
  /** The first registration's answer (in beforeAll: every test below needs the devices). */
  let first: Awaited<ReturnType<typeof provision>>;

  const api = async (url: string) => (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) })).json().data;
  const deviceBySn = async (sn: string) => ((await api(`/device/list?q=${sn}`)).items as { id: number; sn: string; online: boolean }[]).find((d) => d.sn === sn)!;
  const until = async (check: () => Promise<boolean>, ms = 8000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out');
  };

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    broker = await startEmbeddedBroker(t.app.ingest, t.app.log, { port: 0, host: '127.0.0.1', commands: t.app.commands });
    token = await t.login();
    client = new ConsoleApi(base);
    await client.login(ADMIN.username, ADMIN.password, false);
    first = await provision(client, { count: 3 });
    devices = first.devices;
  });
  afterAll(async () => {
    await fleet?.stop();
    await broker.close();
    await t.close();
  });

  it('registers its devices through the API in the project "Simulated fleet"', async () => {
    const p = first;
    expect(p).toMatchObject({ created: 3, renewed: 0, track: true });
    expect(p.devices.map((d) => d.sn)).toEqual(['SIM-000001', 'SIM-000002', 'SIM-000003']);
    const projects = (await api('/project/list?name=Simulated%20fleet')).items;
    expect(projects).toHaveLength(1);
    expect(projects[0]).toMatchObject({ name: 'Simulated fleet', deviceCount: 3 });

    // Run again: the same devices, each with a new secret.
    const again = await provision(client, { count: 3 });
    expect(again).toMatchObject({ created: 0, renewed: 3, projectId: p.projectId });
    expect(again.devices.map((d) => d.secret)).not.toEqual(p.devices.map((d) => d.secret));
    devices = again.devices;
  });

  // One MQTT fleet's run in order (values, commands, a clean stop): one test, so that a random
  // order of tests cannot stop the fleet before the others use it.
  it('streams values over MQTT, answers the console’s commands and stops with a clean DISCONNECT', async () => {
    // Values arrive in the latest values, with the devices online.
    const since = encodeURIComponent(new Date().toISOString());
    fleet = await startFleet({ devices, rate: 9, transport: { kind: 'mqtt', url: `mqtt://127.0.0.1:${broker.port}` }, track: true });
    expect(fleet.stats()).toMatchObject({ connected: 3, devices: 3 });
    await new Promise((r) => setTimeout(r, 2000));
    await until(async () => fleet!.stats().acked >= 10);
    for (const d of devices) {
      const device = await deviceBySn(d.sn);
      expect(device.online).toBe(true);
      const latest = (await api(`/device/latest?id=${device.id}`)) as { semaphoreId: string; value: unknown }[];
      const values = Object.fromEntries(latest.map((v) => [v.semaphoreId, v.value]));
      // The whole battery: pack, 16 cells, temperatures, counters, position.
      expect(latest.length).toBeGreaterThanOrEqual(38);
      expect(values['01116001']).toBe(16);
      expect(values['01111001'] as number).toBeGreaterThan(40);
      expect(values['01111001'] as number).toBeLessThan(60);
    }
    const s = fleet.stats();
    expect(s.errors).toBe(0);
    expect(s.acked).toBeGreaterThan(0);
    // 9 messages/s for ~2 s, spread over the devices.
    expect(s.sent).toBeGreaterThanOrEqual(12);
    expect(s.sent).toBeLessThanOrEqual(40);
    // No device of this fleet was refused, and the console logged no refusal since it started
    // (the wrong-secret test below waits for its own refusal to be logged before it ends).
    expect(s.refused).toBe(0);
    expect((await api(`/logs/devicelogs?sn=SIM-000001&kind=rejected&from=${since}`)).items).toEqual([]);

    // It answers the console's commands on dev/<sn>/cmd: setParams applied, what it cannot do refused.
    const device = await deviceBySn('SIM-000002');
    const set = await t.app.commands.send(device, 'setParams', { '10000030': false }, { ttlMs: 60_000 });
    // No such fence on the device: it answers with an error.
    const odd = await t.app.commands.send(device, 'fenceRelock', { fenceId: 'gate-9' }, { ttlMs: 60_000 });
    // Sent at once (on PostgreSQL the device's acknowledgement may already be committed when
    // send() reads the row back), or pending until the device subscribes to its commands.
    expect(['pending', 'sent', 'succeeded']).toContain(set.status);
    const status = async (id: string) => (await commandById(t.database.db, id))!;
    await until(async () => (await status(set.id)).status === 'succeeded' && (await status(odd.id)).status === 'failed');
    expect((await status(odd.id)).message).toBe('unknown fence: gate-9');
    expect(fleet!.models.find((m) => m.sn === 'SIM-000002')!.snapshot.chargeSwitch).toBe(false);
    expect(fleet!.stats().commands).toBe(2);
    // The switch's new state is reported with the next telemetry.
    await until(async () => ((await api(`/device/latest?id=${device.id}`)) as { semaphoreId: string; value: unknown }[]).some((v) => v.semaphoreId === '10000030' && v.value === false));

    // It stops with a clean DISCONNECT: the devices go offline.
    await fleet!.stop();
    fleet = undefined;
    await until(async () => {
      const all = await Promise.all(devices.map((d) => deviceBySn(d.sn)));
      return all.every((d) => !d.online);
    });
    const offline = (await api('/logs/devicelogs?sn=SIM-000003&limit=50')).items as { kind: string; detail: Record<string, unknown> }[];
    expect(offline.find((l) => l.kind === 'offline')?.detail).toEqual({ why: 'disconnected' });
  }, 90_000);

  it('can use the HTTP uplink instead, taking commands from the answers', async () => {
    const http = await startFleet({ devices: devices.slice(0, 1), rate: 5, transport: { kind: 'http', api: base } });
    await until(async () => http.stats().acked >= 3);
    const device = await deviceBySn('SIM-000001');
    expect(device.online).toBe(true);
    const cmd = await t.app.commands.send(device, 'setParams', { '10000031': false }, { ttlMs: 60_000 });
    await until(async () => (await commandById(t.database.db, cmd.id))!.status === 'succeeded');
    await http.stop();
    expect(http.stats().errors).toBe(0);
    // A polling device says goodbye with {"online": false}.
    await until(async () => !(await deviceBySn('SIM-000001')).online);
  });

  it('upgrades in a campaign: fetches the image, checks its SHA-256, reports progress and its new version; a corrupted image fails', async () => {
    // The image on a file server of its own (a version with an external URL).
    const image = crypto.randomBytes(64 * 1024);
    const files = http.createServer((_req, res) => res.writeHead(200, { 'content-length': String(image.length) }).end(image));
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/fw.bin`;
    const version = async (softwareVersion: string, sha256: string) => {
      const res = await t.database.db.execute(sql`insert into firmware_versions (name, module, software_version, url, sha256, size, owner_path)
        values ('BMU main board', 'BMS', ${softwareVersion}, ${url}, ${sha256}, ${image.length}, '/1/') returning id`);
      return (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
    };
    const good = await version('sim-2.0', crypto.createHash('sha256').update(image).digest('hex'));
    const corrupt = await version('sim-2.1', 'ab'.repeat(32));
    const run = await startFleet({ devices, rate: 9, timeScale: 20, faultsPerHour: 0, transport: { kind: 'mqtt', url: `mqtt://127.0.0.1:${broker.port}` } });
    try {
      const ids = await Promise.all(devices.map(async (d) => (await deviceBySn(d.sn)).id));
      await until(async () => (await Promise.all(devices.map((d) => deviceBySn(d.sn)))).every((d) => d.online));
      const start = async (versionId: number, deviceIds: number[]) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/upgrade/setdeviceupgrade', headers: bearer(token), payload: { versionId, targets: { deviceIds } } });
        return res.json().data.campaignId as number;
      };
      const a = await start(good, ids.slice(0, 2));
      const b = await start(corrupt, ids.slice(2));
      const targets = async (id: number) => (await api(`/upgrade/devicelist?campaignId=${id}`)).items as { state: string; reason: string | null; toVersion: string | null }[];
      await until(async () => (await targets(a)).every((x) => x.state === 'succeeded') && (await targets(b)).every((x) => x.state === 'failed'), 30_000);
      expect((await targets(a)).map((x) => x.toVersion)).toEqual(['sim-2.0', 'sim-2.0']);
      expect((await targets(b))[0]!.reason).toBe('sha256 mismatch');
      expect(run.models.find((m) => m.sn === devices[2]!.sn)!.snapshot.firmware.device).not.toBe('sim-2.1');
      // The steps the devices reported on the way.
      const steps = (await api(`/upgrade/loglist?campaignId=${a}&order=asc&limit=100`)).items as { state: string }[];
      expect(new Set(steps.map((x) => x.state))).toEqual(new Set(['queued', 'sent', 'downloading', 'installing', 'verifying', 'succeeded']));
    } finally {
      await run.stop();
      await new Promise<void>((r) => files.close(() => r()));
    }
  }, 60_000);

  it('reports a device whose secret is wrong instead of retrying forever', async () => {
    const lines: string[] = [];
    const bad = await startFleet({
      devices: [{ sn: 'SIM-000001', secret: 'wrong' }],
      rate: 1,
      transport: { kind: 'mqtt', url: `mqtt://127.0.0.1:${broker.port}` },
      log: (l) => lines.push(l),
    });
    expect(bad.stats()).toMatchObject({ connected: 0, errors: 1, refused: 1 });
    expect(lines.join('\n')).toMatch(/SIM-000001: login refused/);
    await bad.stop();
    // The console's device log records the refusal (written a moment after the CONNACK).
    await until(async () =>
      ((await api('/logs/devicelogs?sn=SIM-000001&kind=rejected')).items as { reason: string }[]).some((r) => r.reason === 'badCredentials'),
    );
  });
});
