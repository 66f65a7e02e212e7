import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const DAY = 86_400_000;

/**
 * A stocked pack moved where its store's owner cannot reach it (issue #38, migration 0066): every
 * path that changes a device's project or owner (batch move, device edit, project transfer and
 * delete) takes an idle pack out of the store with a log row in the store owner's line, and
 * refuses to move a pack in an open rental (40900 packMovedOut). Moves inside the store owner's
 * line keep the pack stocked.
 */
describe('a stocked pack moved away', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tokens);
  let typeId: number;
  let aliceId: number;
  let bobId: number;
  let store: number;
  let seq = 0;

  beforeAll(async () => {
    t = await buildTestApp({}, { rentalTimer: false });
    tokens.admin = await t.login();
    aliceId = await t.createUser({ username: 'alice', password: 'secret-pass-1', role: 'ADMIN' });
    bobId = await t.createUser({ username: 'bob', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.alice = await t.login('alice', 'secret-pass-1');
    typeId = ((await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
    store = (await ok('alice', 'POST', '/store/add', { name: 'Harbour', code: 'HARBOUR' })).id;
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  const project = async (ownerId: number) => (await ok('admin', 'POST', '/project/addproject', { name: `P${++seq}`, ownerId })).id as number;
  /** A pack of alice's stocked at her store, optionally in one of her projects and rented out. */
  const pack = async (opts: { projectId?: number; rented?: boolean } = {}) => {
    const sn = `MV-${++seq}`;
    const id = (await ok('alice', 'POST', '/device/add', { name: sn, sn, typeId, projectId: opts.projectId ?? null })).id as number;
    await ok('alice', 'POST', '/store/stockdevices', { storeId: store, deviceIds: [id] });
    if (opts.rented) {
      await ok('alice', 'POST', '/rent/add', { storeId: store, deviceId: id, customerName: 'Li', customerPhone: '138', pricePerDayCents: 100, dueAt: new Date(Date.now() + DAY).toISOString() });
    }
    return { id, sn };
  };
  const placeOf = async (id: number) =>
    rowsOf<{ store_id: number | null; project_id: number | null }>(await t.database.db.execute(sql`select store_id, project_id from devices where id = ${id}`))[0]!;
  const unstockLogs = async (sn: string) =>
    rowsOf<{ username: string; user_path: string; entity_id: string }>(
      await t.database.db.execute(sql`select username, user_path, entity_id from operation_logs where action = 'store.unstock' and entity_name = ${sn}`),
    );
  const alicePath = async () => rowsOf<{ path: string }>(await t.database.db.execute(sql`select path from users where id = ${aliceId}`))[0]!.path;

  it('batch move and device edit into another agent’s project: an idle pack leaves the store, logged in its owner’s line', async () => {
    const bobs = await project(bobId);
    const [a, b] = [await pack(), await pack()];
    const before = (await ok('alice', 'GET', `/store/item?id=${store}`)).stock.total as number;
    await ok('admin', 'POST', '/device/editdevicelistproject', { ids: [a.id], projectId: bobs });
    await ok('admin', 'POST', '/device/edit', { id: b.id, projectId: bobs });
    for (const p of [a, b]) {
      expect(await placeOf(p.id)).toEqual({ store_id: null, project_id: bobs });
      expect(await unstockLogs(p.sn)).toEqual([{ username: 'system', user_path: await alicePath(), entity_id: String(store) }]);
    }
    expect((await ok('alice', 'GET', `/store/item?id=${store}`)).stock.total).toBe(before - 2);
  });

  it('refuses to move a pack in an open rental, by every path, with 40900 packMovedOut', async () => {
    const bobs = await project(bobId);
    const mine = await project(aliceId);
    const rented = await pack({ rented: true });
    expect(await call('admin', 'POST', '/device/editdevicelistproject', { ids: [rented.id], projectId: bobs })).toMatchObject({
      code: 40900,
      data: { reason: 'packMovedOut', params: { sn: rented.sn } },
    });
    expect(await call('admin', 'POST', '/device/edit', { id: rented.id, projectId: bobs })).toMatchObject({ code: 40900, data: { reason: 'packMovedOut' } });
    expect(await placeOf(rented.id)).toEqual({ store_id: store, project_id: null });
    // In a project of alice's, then the project given to bob or deleted into bob's: refused too.
    await ok('admin', 'POST', '/device/editdevicelistproject', { ids: [rented.id], projectId: mine });
    expect(await call('admin', 'POST', '/project/editproject', { id: mine, ownerId: bobId })).toMatchObject({ code: 40900, data: { reason: 'packMovedOut' } });
    expect(await call('admin', 'DELETE', `/project/deleteproject?id=${mine}&moveTo=${bobs}`)).toMatchObject({ code: 40900, data: { reason: 'packMovedOut' } });
    expect(await placeOf(rented.id)).toEqual({ store_id: store, project_id: mine });
    expect(await unstockLogs(rented.sn)).toEqual([]);
  });

  it('project transfer and delete move idle packs out; moves inside the owner’s line keep them stocked', async () => {
    const bobs = await project(bobId);
    const given = await project(aliceId);
    const deleted = await project(aliceId);
    const kept = await project(aliceId);
    const [g, d, k] = [await pack({ projectId: given }), await pack({ projectId: deleted }), await pack({ projectId: kept })];
    await ok('admin', 'POST', '/project/editproject', { id: given, ownerId: bobId });
    await ok('admin', 'DELETE', `/project/deleteproject?id=${deleted}&moveTo=${bobs}`);
    expect(await placeOf(g.id)).toEqual({ store_id: null, project_id: given });
    expect(await placeOf(d.id)).toEqual({ store_id: null, project_id: bobs });
    // Alice moves her pack between her own projects and out of any: still at her store.
    await ok('alice', 'POST', '/device/editdevicelistproject', { ids: [k.id], projectId: await project(aliceId) });
    await ok('alice', 'POST', '/device/editdevicelistproject', { ids: [k.id], projectId: null });
    expect((await placeOf(k.id)).store_id).toBe(store);
    expect(await unstockLogs(k.sn)).toEqual([]);
  });
});
