import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { commandById } from '../src/telemetry/ingest.repo.js';
import { DEMO_PROJECT, startDemo, type DemoFleet } from '../src/demo/demo.js';

/** The demo fleet: created on an empty database, streaming through the real ingestion path. */
describe('demo fleet', () => {
  let t: TestApp;
  let token: string;
  let demo: DemoFleet | undefined;

  const api = async (url: string) => (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) })).json().data;
  const deps = () => ({ db: t.database.db, ingest: t.app.ingest, log: t.app.log, commands: t.app.commands });
  const until = async (check: () => Promise<boolean>, ms = 8000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out');
  };
  const options = { adminUsername: 'admin', devices: 5, intervalMs: [100, 200] as [number, number] };

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } } });
    token = await t.login();
  });
  afterAll(async () => {
    await demo?.stop();
    await t.close();
  });

  // One fleet's life in order (created, commanded, restarted, pruned): one test, so that a random
  // order of tests cannot run a later step first.
  it('is created on an empty database, answers commands, is not created twice and leaves out deleted devices', async () => {
    // Created on an empty database; its values arrive.
    demo = await startDemo(deps(), { ...options, mode: 'auto' });
    expect(demo?.size).toBe(5);
    const projects = (await api('/project/list')).items;
    expect(projects).toEqual([expect.objectContaining({ name: DEMO_PROJECT, deviceCount: 5, ownerName: 'admin' })]);
    const devices = (await api(`/device/list?projectId=${projects[0].id}&sort=sn&order=asc`)).items as { id: number; sn: string; online: boolean; typeName: string }[];
    expect(devices.map((d) => d.sn)).toEqual(['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004', 'DEMO-0005']);
    expect(devices.every((d) => d.online)).toBe(true);
    // Secrets exist (only in memory): a real client could log in as a demo device.
    expect(demo!.secrets.size).toBe(5);

    for (const d of devices) {
      await until(async () => ((await api(`/device/latest?id=${d.id}`)) as unknown[]).length >= 39);
    }
    const latest = (await api(`/device/latest?id=${devices[0]!.id}`)) as { semaphoreId: string; value: unknown }[];
    const v = Object.fromEntries(latest.map((x) => [x.semaphoreId, x.value]));
    const cells = Array.from({ length: 16 }, (_, i) => v[`01117${String(i + 1).padStart(3, '0')}`] as number);
    expect(Math.abs((v['01111001'] as number) - cells.reduce((a, b) => a + b, 0))).toBeLessThan(0.006);
    expect((await api('/logs/devicelogs?kind=rejected')).total).toBe(0);
    // Their GPS fixes move them on the map.
    await until(async () => ((await api(`/device/list?projectId=${projects[0].id}`)).items as { lng: number }[]).some((d) => d.lng !== 116.397));

    // It answers commands like a device: setParams applied, what it cannot do refused.
    const [d] = (await api('/device/list?sort=sn&order=asc')).items as { id: number; sn: string }[];
    const set = await t.app.commands.send(d!, 'setParams', { '10000031': false }, { ttlMs: 60_000 });
    // No such fence on the device: it answers with an error.
    const odd = await t.app.commands.send(d!, 'fenceRelock', { fenceId: 'gate-9' }, { ttlMs: 60_000 });
    expect(set.status).toBe('sent');
    const status = async (id: string) => (await commandById(t.database.db, id))!;
    await until(async () => (await status(set.id)).status === 'succeeded' && (await status(odd.id)).status === 'failed');
    expect((await status(odd.id)).message).toBe('unknown fence: gate-9');
    // The switch is off in the device's next telemetry.
    await until(async () => ((await api(`/device/latest?id=${d!.id}`)) as { semaphoreId: string; value: unknown }[]).some((v) => v.semaphoreId === '10000031' && v.value === false));

    // It is not created twice, and runs again after a restart.
    await demo!.stop();
    const offline = (await api('/device/list?online=false')).total;
    expect(offline).toBe(5);
    demo = await startDemo(deps(), { ...options, devices: 9, mode: 'on' });
    expect(demo?.size).toBe(5);
    expect((await api('/project/list')).total).toBe(1);
    expect((await api('/device/list?online=true')).total).toBe(5);

    // It leaves out devices deleted in the console; the others keep streaming.
    const [first] = (await api('/device/list?sort=sn&order=asc')).items as { id: number }[];
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/device/delete?id=${first!.id}`, headers: bearer(token) });
    expect(res.json().code).toBe(20000);
    await demo!.prune();
    expect(demo!.size).toBe(4);
    const [second] = (await api('/device/list?sort=sn&order=asc')).items as { id: number }[];
    const ts = async () => ((await api(`/device/latest?id=${second!.id}`)) as { ts: string }[])[0]!.ts;
    const before = await ts();
    await until(async () => (await ts()) !== before);
    await demo!.stop();
    demo = undefined;
  }, 90_000);

  it('is not created on a database that has devices (auto mode)', async () => {
    const other = await buildTestApp();
    try {
      const otherToken = await other.login();
      const types = (await other.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: bearer(otherToken) })).json().data;
      const add = await other.app.inject({
        method: 'POST',
        url: '/api/v1/device/add',
        headers: bearer(otherToken),
        payload: { name: 'Real', sn: 'REAL-1', typeId: types[0].id },
      });
      expect(add.json().code).toBe(20000);
      const none = await startDemo({ db: other.database.db, ingest: other.app.ingest, log: other.app.log }, { ...options, mode: 'auto' });
      expect(none).toBeUndefined();
      const projects = (await other.app.inject({ method: 'GET', url: '/api/v1/project/list', headers: bearer(otherToken) })).json().data;
      expect(projects.total).toBe(0);
    } finally {
      await other.close();
    }
  });
});
