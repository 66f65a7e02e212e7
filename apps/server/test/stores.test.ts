import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readSheet, writeSheet } from '../src/lib/sheet.js';
import { apiAs, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const DAY = 86_400_000;

/**
 * Stores, their stock computed from live data, and rentals and sales with their state machine
 * (issue #38), through the HTTP API on a real database. Live data (online, battery summary,
 * alarms) is written as ingestion would leave it.
 */
describe('stores and rentals', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tokens);
  let typeId: number;
  let aliceShopId: number;
  let seq = 0;

  beforeAll(async () => {
    // The overdue job runs at the test's own clocks only.
    t = await buildTestApp({}, { rentalTimer: false });
    tokens.admin = await t.login();
    for (const name of ['alice', 'bob']) {
      await t.createUser({ username: name, password: 'secret-pass-1', role: 'ADMIN' });
      tokens[name] = await t.login(name, 'secret-pass-1');
    }
    const roles = await ok('alice', 'GET', '/role/getoptionslist');
    const adminRole = (roles as { id: number; identification: string }[]).find((r) => r.identification === 'ADMIN')!.id;
    aliceShopId = (await ok('alice', 'POST', '/user/add', { username: 'alice-shop', password: 'secret-pass-1', type: 1, roleId: adminRole })).id;
    tokens.aliceShop = await t.login('alice-shop', 'secret-pass-1');
    // Packs are of the built-in battery type, which every user sees.
    typeId = ((await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.database.db;
  const newStore = async (who: string, extra: object = {}) =>
    (await ok(who, 'POST', '/store/add', { name: `Store ${++seq}`, code: `S${seq}`, ...extra })).id as number;
  /** A pack of `who`, stocked at `storeId`, with live data as ingestion leaves it. */
  const newPack = async (
    who: string,
    storeId: number | null,
    live: { online?: boolean; soc?: number | null; state?: 'charging' | 'idle' | 'discharging'; delta?: number; temp?: number; alarm?: number } = {},
  ) => {
    const sn = `PK-${++seq}`;
    const id = (await ok(who, 'POST', '/device/add', { name: sn, sn, typeId })).id as number;
    if (storeId) await ok(who, 'POST', '/store/stockdevices', { storeId, deviceIds: [id] });
    await setLive(id, live);
    return { id, sn };
  };
  const setLive = async (id: number, live: { online?: boolean; soc?: number | null; state?: string; delta?: number; temp?: number; alarm?: number }) => {
    await db().execute(sql`update devices set online = ${live.online ?? true} where id = ${id}`);
    await db().execute(sql`insert into device_battery (device_id, soc, state, cell_delta_mv, max_cell_temp, updated_at)
      values (${id}, ${live.soc === undefined ? 90 : live.soc}, ${live.state ?? 'idle'}, ${live.delta ?? 20}, ${live.temp ?? 25}, now())
      on conflict (device_id) do update set soc = excluded.soc, state = excluded.state, cell_delta_mv = excluded.cell_delta_mv, max_cell_temp = excluded.max_cell_temp`);
    if (live.alarm) {
      await db().execute(sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, message, message_en, started_at)
        values (${id}, ${`d${seq}`}, 'device', '01111001', ${live.alarm}, '过压', 'Over-voltage', now())`);
      await db().execute(sql`update devices set warning_level = ${live.alarm} where id = ${id}`);
    }
  };
  const rent = (who: string, storeId: number, deviceId: number, extra: object = {}) =>
    call(who, 'POST', '/rent/add', {
      storeId,
      deviceId,
      customerName: 'Li Lei',
      customerPhone: '13800000001',
      idCard: '110101199003071234',
      depositCents: 50000,
      pricePerDayCents: 1250,
      dueAt: new Date(Date.now() + 3 * DAY).toISOString(),
      ...extra,
    });
  const rentOk = async (who: string, storeId: number, deviceId: number, extra: object = {}) => {
    const r = await rent(who, storeId, deviceId, extra);
    if (r.code !== 20000) throw new Error(JSON.stringify(r));
    return r.data.id as number;
  };
  const stockOf = async (who: string, storeId: number) => (await ok(who, 'GET', `/store/item?id=${storeId}`)).stock;

  it('creates, lists with filters and sorts, edits and deletes stores; codes are unique', async () => {
    await t.createUser({ username: 'carol', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.carol = await t.login('carol', 'secret-pass-1');
    const a = await ok('carol', 'POST', '/store/add', { name: 'Harbour outlet', code: 'HARBOUR', address: '1 Quay Rd', lng: 121.5, lat: 31.2, phone: '021-5550100', openingHours: '09:00-21:00' });
    await ok('carol', 'POST', '/store/add', { name: 'Airport kiosk', code: 'AIRPORT', status: 'suspended' });
    const list = await ok('carol', 'GET', '/store/list?sort=name&order=asc');
    expect(list.items.map((s: { code: string }) => s.code)).toEqual(['AIRPORT', 'HARBOUR']);
    expect(list.items[1]).toMatchObject({ lng: 121.5, lat: 31.2, status: 'open', ownerName: 'carol', stock: { total: 0 }, can: { edit: true, delete: true } });
    expect((await ok('carol', 'GET', '/store/list?status=suspended')).items.map((s: { code: string }) => s.code)).toEqual(['AIRPORT']);
    expect((await ok('carol', 'GET', '/store/list?q=quay')).items.map((s: { code: string }) => s.code)).toEqual(['HARBOUR']);
    expect(await call('alice', 'POST', '/store/add', { name: 'x', code: 'HARBOUR' })).toMatchObject({ code: 40900, data: { reason: 'storeCodeTaken', field: 'code' } });
    await ok('carol', 'POST', '/store/edit', { id: a.id, status: 'closed', minSoc: 70 });
    expect(await ok('carol', 'GET', `/store/item?id=${a.id}`)).toMatchObject({ status: 'closed', minSoc: 70, address: '1 Quay Rd' });
    expect((await ok('carol', 'DELETE', `/store/delete?id=${a.id}`)).count).toBe(1);
    expect((await ok('carol', 'GET', '/store/list')).total).toBe(1);
  });

  it('scopes stores, stock and rentals to the agent’s subtree; another agent’s ids are refused', async () => {
    const mine = await newStore('alice');
    const shop = await newStore('alice', { ownerId: aliceShopId });
    const subStore = await newStore('aliceShop');
    const bobs = await newStore('bob');
    const bobPack = await newPack('bob', bobs);
    // Alice sees her own and her sub-user's stores; the sub-user only its own; bob none of them.
    const seen = (await ok('alice', 'GET', '/store/list?limit=200')).items.map((s: { id: number }) => s.id);
    expect(seen).toEqual(expect.arrayContaining([mine, shop, subStore]));
    expect(seen).not.toContain(bobs);
    expect((await ok('aliceShop', 'GET', '/store/list?limit=200')).items.map((s: { id: number }) => s.id).sort()).toEqual([shop, subStore].sort());
    // A store's owner is a user of the caller's subtree.
    expect(await call('aliceShop', 'POST', '/store/add', { name: 'x', code: `X${++seq}`, ownerId: (await ok('admin', 'GET', '/user/info')).id ?? 1 })).toMatchObject({ code: 40000, data: { field: 'ownerId' } });
    for (const [method, url, body] of [
      ['GET', `/store/item?id=${bobs}`],
      ['GET', `/store/stock?storeId=${bobs}`],
      ['POST', '/store/edit', { id: bobs, name: 'Mine' }],
      ['DELETE', `/store/delete?id=${bobs}`],
    ] as const) {
      expect((await call('alice', method, url, body)).code).toBe(40400);
    }
    // Bob's pack cannot be stocked at alice's store, nor rented from it; alice's pack not at bob's.
    expect((await call('alice', 'POST', '/store/stockdevices', { storeId: mine, deviceIds: [bobPack.id] })).code).toBe(40400);
    const alicePack = await newPack('alice', mine);
    expect((await call('alice', 'POST', '/store/stockdevices', { storeId: bobs, deviceIds: [alicePack.id] })).code).toBe(40400);
    expect((await rent('alice', bobs, bobPack.id)).code).toBe(40400);
    const bobRental = await rentOk('bob', bobs, bobPack.id);
    expect((await call('alice', 'GET', `/rent/item?id=${bobRental}`)).code).toBe(40400);
    expect((await call('alice', 'POST', '/rent/cancel', { id: bobRental })).code).toBe(40400);
    expect((await call('alice', 'GET', `/rent/returncheck?id=${bobRental}`)).code).toBe(40400);
    expect((await ok('alice', 'GET', '/rent/list?limit=200')).items.map((r: { id: number }) => r.id)).not.toContain(bobRental);
    // The sub-user's rentals are its agent's too.
    const subPack = await newPack('aliceShop', subStore);
    const subRental = await rentOk('aliceShop', subStore, subPack.id);
    expect((await ok('alice', 'GET', `/rent/item?id=${subRental}`)).storeId).toBe(subStore);
  });

  it('counts stock by state exactly from live data and the store’s SOC threshold', async () => {
    const store = await newStore('alice', { minSoc: 60 });
    await newPack('alice', store, { soc: 95 }); // available
    await newPack('alice', store, { soc: 60 }); // available (at the threshold)
    await newPack('alice', store, { soc: 59 }); // low
    await newPack('alice', store, { soc: null }); // low: SOC unknown
    await newPack('alice', store, { soc: 30, state: 'charging' }); // charging
    await newPack('alice', store, { online: false, soc: 95 }); // offline
    await newPack('alice', store, { soc: 95, alarm: 3 }); // faulty (level 3)
    await newPack('alice', store, { soc: 95, alarm: 2 }); // available: a level-2 alarm is not a fault
    const out = await newPack('alice', store, { soc: 95 });
    await rentOk('alice', store, out.id); // rented
    expect(await stockOf('alice', store)).toEqual({ available: 3, charging: 1, low: 2, rented: 1, faulty: 1, offline: 1, total: 9 });
    const listed = (await ok('alice', 'GET', `/store/list?q=${encodeURIComponent((await ok('alice', 'GET', `/store/item?id=${store}`)).code)}`)).items[0];
    expect(listed.stock.total).toBe(9);
    const faulty = await ok('alice', 'GET', `/store/stock?storeId=${store}&state=faulty`);
    expect(faulty).toMatchObject({ total: 1, items: [{ state: 'faulty', warningLevel: 3 }] });
    const rented = await ok('alice', 'GET', `/store/stock?storeId=${store}&state=rented`);
    expect(rented.items[0]).toMatchObject({ deviceId: out.id, rentalId: expect.any(Number) });
    // A rented pack cannot leave the store or move to another.
    expect(await call('alice', 'POST', '/store/unstockdevices', { deviceIds: [out.id] })).toMatchObject({ code: 40900, data: { reason: 'packRented' } });
  });

  it('runs the state machine: each transition once, the others refused by name', async () => {
    const store = await newStore('alice');
    const pack = await newPack('alice', store);
    const id = await rentOk('alice', store, pack.id, { reserve: true });
    expect((await ok('alice', 'GET', `/rent/item?id=${id}`)).actions).toEqual(['activate', 'cancel']);
    expect(await call('alice', 'POST', '/rent/return', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotOut' } });
    expect(await call('alice', 'POST', '/rent/lose', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotOverdue' } });
    await ok('alice', 'POST', '/rent/activate', { id });
    expect(await call('alice', 'POST', '/rent/activate', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotReserved' } });
    expect(await call('alice', 'POST', '/rent/cancel', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotReserved' } });
    const back = await ok('alice', 'POST', '/rent/return', { id });
    expect(back).toMatchObject({ state: 'returned', chargedCents: 1250, check: { passed: true } });
    // Double return: refused, nothing changes twice.
    expect(await call('alice', 'POST', '/rent/return', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotOut' } });
    const item = await ok('alice', 'GET', `/rent/item?id=${id}`);
    expect(item.events.map((e: { from: string | null; to: string }) => `${e.from}>${e.to}`)).toEqual(['null>reserved', 'reserved>active', 'active>returned']);
    expect(item.actions).toEqual([]);
    // Reserved → cancelled; a cancelled rental frees the pack.
    const second = await rentOk('alice', store, pack.id, { reserve: true });
    await ok('alice', 'POST', '/rent/cancel', { id: second });
    expect((await ok('alice', 'GET', `/rent/item?id=${second}`)).state).toBe('cancelled');
    // A sale: sold at once, the pack leaves the store; returning it is refused.
    const sale = await rentOk('alice', store, pack.id, { kind: 'sale', totalPriceCents: 399900, pricePerDayCents: null, dueAt: undefined });
    expect(await ok('alice', 'GET', `/rent/item?id=${sale}`)).toMatchObject({ state: 'sold', chargedCents: 399900, dueAt: null });
    expect(await call('alice', 'POST', '/rent/return', { id: sale })).toMatchObject({ code: 40900, data: { reason: 'rentalNotOut' } });
    expect(await rent('alice', store, pack.id)).toMatchObject({ code: 40900, data: { reason: 'packNotInStore' } });
    // Each change is in the operation log.
    const logs = rowsOf<{ action: string }>(await db().execute(sql`select action from operation_logs where entity_id in (${String(id)}, ${String(second)}, ${String(sale)}) and action like 'rent.%' and result = 'success' order by id`));
    expect(logs.map((l) => l.action)).toEqual(['rent.add', 'rent.activate', 'rent.return', 'rent.add', 'rent.cancel', 'rent.add']);
  });

  it('lets exactly one of two concurrent rentals of a pack in', async () => {
    const store = await newStore('alice');
    const pack = await newPack('alice', store);
    const answers = await Promise.all([rent('alice', store, pack.id), rent('alice', store, pack.id), rent('alice', store, pack.id)]);
    expect(answers.filter((a) => a.code === 20000)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 20000)) expect(a).toMatchObject({ code: 40900, data: { reason: 'packRented' } });
  });

  it('keeps money in integer cents and the ID-card number masked', async () => {
    const store = await newStore('alice');
    const pack = await newPack('alice', store);
    expect((await rent('alice', store, pack.id, { depositCents: 10.5 })).code).toBe(40000);
    expect((await rent('alice', store, pack.id, { pricePerDayCents: 100, totalPriceCents: 900 })).data.field).toBe('pricePerDayCents');
    const id = await rentOk('alice', store, pack.id, { currency: 'USD', pricePerDayCents: 333, startAt: new Date(Date.now() - 2.5 * DAY).toISOString() });
    const r = await ok('alice', 'GET', `/rent/item?id=${id}`);
    expect(r).toMatchObject({ currency: 'USD', depositCents: 50000, pricePerDayCents: 333, idCardMasked: '**************1234' });
    const stored = rowsOf<Record<string, unknown>>(await db().execute(sql`select * from rentals where id = ${id}`))[0]!;
    expect(JSON.stringify(stored)).not.toContain('110101199003071234');
    const logged = rowsOf<{ summary: string }>(await db().execute(sql`select summary from operation_logs where action = 'rent.add' and entity_id = ${String(id)}`))[0]!;
    expect(logged.summary).not.toContain('110101199003071234');
    // Three days started: 3 × 333.
    expect((await ok('alice', 'POST', '/rent/return', { id })).chargedCents).toBe(999);
  });

  it('sends a pack failing the return check to faulty, not available', async () => {
    const store = await newStore('alice', { maxCellDeltaMv: 80, maxTempC: 50 });
    const pack = await newPack('alice', store);
    const id = await rentOk('alice', store, pack.id);
    await setLive(pack.id, { soc: 70, delta: 120, temp: 41, alarm: 3 });
    const check = await ok('alice', 'GET', `/rent/returncheck?id=${id}`);
    expect(check).toMatchObject({ soc: 70, cellDeltaMv: 120, maxTempC: 41, faults: ['cellSpread', 'alarm'], passed: false, thresholds: { maxCellDeltaMv: 80, maxTempC: 50, alarmLevel: 3 } });
    expect(check.alarms[0]).toMatchObject({ level: 3, message: 'Over-voltage' });
    const back = await ok('alice', 'POST', '/rent/return', { id });
    expect(back.check.passed).toBe(false);
    expect(await stockOf('alice', store)).toMatchObject({ faulty: 1, available: 0, rented: 0 });
    const [item] = (await ok('alice', 'GET', `/store/stock?storeId=${store}`)).items;
    expect(item).toMatchObject({ state: 'faulty', fault: 'returnCheck' });
    expect((await ok('alice', 'GET', `/rent/item?id=${id}`)).returnCheck.faults).toEqual(['cellSpread', 'alarm']);
    // A faulty pack is not rented out; once repaired and cleared it is available again.
    expect(await rent('alice', store, pack.id)).toMatchObject({ code: 40900, data: { reason: 'packFaulty' } });
    await db().execute(sql`update alarms set ended_at = now() where device_id = ${pack.id}`);
    await db().execute(sql`update devices set warning_level = 0 where id = ${pack.id}`);
    await setLive(pack.id, { soc: 95, delta: 20, temp: 25 });
    await ok('alice', 'POST', '/store/clearfault', { deviceIds: [pack.id] });
    expect(await stockOf('alice', store)).toMatchObject({ faulty: 0, available: 1 });
    // A temperature over the store's limit fails too.
    const hot = await rentOk('alice', store, pack.id);
    await setLive(pack.id, { temp: 51 });
    expect((await ok('alice', 'GET', `/rent/returncheck?id=${hot}`)).faults).toEqual(['temperature']);
  });

  it('marks active rentals past due overdue, once, across midnight and time zones; lost from overdue', async () => {
    const store = await newStore('alice');
    // Due at 00:30 in Shanghai (UTC+8) on 2 March: 16:30 UTC on 1 March. Years long past, so that
    // these clocks make no other test's rental overdue.
    const due = '2001-03-02T00:30:00+08:00';
    const p1 = await newPack('alice', store);
    const p2 = await newPack('alice', store);
    const early = await rentOk('alice', store, p1.id, { startAt: '2001-02-25T10:00:00+08:00', dueAt: due });
    const later = await rentOk('alice', store, p2.id, { startAt: '2001-02-25T10:00:00+08:00', dueAt: '2001-03-02T23:59:00+08:00' });
    // 16:29 UTC on 1 March (00:29 in Shanghai): nothing is due yet.
    expect(await t.app.rentals.markOverdue(new Date('2001-03-01T16:29:00Z'))).not.toContain(early);
    // 16:31 UTC, still 1 March in UTC, past midnight in Shanghai: overdue; two instances at once change it once.
    const [a, b] = await Promise.all([t.app.rentals.markOverdue(new Date('2001-03-01T16:31:00Z')), t.app.rentals.markOverdue(new Date('2001-03-01T16:31:00Z'))]);
    expect([...a, ...b].filter((id) => id === early)).toHaveLength(1);
    expect([...a, ...b]).not.toContain(later);
    const item = await ok('alice', 'GET', `/rent/item?id=${early}`);
    expect(item).toMatchObject({ state: 'overdue', actions: ['return', 'lose'] });
    expect(item.events.at(-1)).toMatchObject({ from: 'active', to: 'overdue', by: 'system' });
    const logged = rowsOf<{ user_path: string }>(await db().execute(sql`select user_path from operation_logs where action = 'rent.overdue' and entity_id = ${String(early)}`));
    expect(logged).toHaveLength(1);
    expect((await ok('alice', 'GET', `/rent/list?state=overdue&limit=200`)).items.map((r: { id: number }) => r.id)).toContain(early);
    // overdue → lost: the pack is recorded lost (faulty) at its store; lost is final.
    await ok('alice', 'POST', '/rent/lose', { id: early });
    expect(await call('alice', 'POST', '/rent/return', { id: early })).toMatchObject({ code: 40900, data: { reason: 'rentalNotOut' } });
    // The lost pack's alarms stay visible to its store.
    await setLive(p1.id, { alarm: 2 });
    expect((await ok('alice', 'GET', `/rent/item?id=${early}`)).alarms).toMatchObject([{ level: 2, message: 'Over-voltage' }]);
    const [lost] = (await ok('alice', 'GET', `/store/stock?storeId=${store}&state=faulty`)).items;
    expect(lost).toMatchObject({ deviceId: p1.id, fault: 'lost' });
    // An overdue rental can still be returned.
    await t.app.rentals.markOverdue(new Date('2001-03-02T16:00:00Z'));
    expect((await ok('alice', 'POST', '/rent/return', { id: later })).state).toBe('returned');
  });

  it('filters the rental list by store, state, phone, SN and start range, server-paged', async () => {
    await t.createUser({ username: 'dave', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.dave = await t.login('dave', 'secret-pass-1');
    const s1 = await newStore('dave');
    const s2 = await newStore('dave');
    const mk = async (store: number, sn: string) => {
      const id = (await ok('dave', 'POST', '/device/add', { name: sn, sn, typeId })).id as number;
      await ok('dave', 'POST', '/store/stockdevices', { storeId: store, deviceIds: [id] });
      await setLive(id, {});
      return id;
    };
    const r1 = await rentOk('dave', s1, await mk(s1, 'DV-AAA-1'), { customerPhone: '13911112222', startAt: '2030-01-05T00:00:00Z', dueAt: '2030-01-09T00:00:00Z' });
    const r2 = await rentOk('dave', s2, await mk(s2, 'DV-BBB-2'), { customerPhone: '13722223333', startAt: '2030-02-05T00:00:00Z', dueAt: '2030-02-09T00:00:00Z' });
    const ids = async (q: string) => (await ok('dave', 'GET', `/rent/list?${q}`)).items.map((r: { id: number }) => r.id);
    expect(await ids('sort=startAt&order=asc')).toEqual([r1, r2]);
    expect(await ids(`storeId=${s2}`)).toEqual([r2]);
    expect(await ids('phone=1391')).toEqual([r1]);
    expect(await ids('sn=bbb')).toEqual([r2]);
    expect(await ids('from=2030-02-01T00:00:00Z&to=2030-03-01T00:00:00Z')).toEqual([r2]);
    expect(await ids('state=active&kind=rent&sort=startAt&order=asc')).toEqual([r1, r2]);
    expect(await ok('dave', 'GET', '/rent/list?limit=1&sort=startAt&order=asc')).toMatchObject({ total: 2, items: [{ id: r1 }] });
  });

  it('sums the agent view: stores, stock, open rentals and revenue per day, week and month in a time zone', async () => {
    await t.createUser({ username: 'erin', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.erin = await t.login('erin', 'secret-pass-1');
    const open = await newStore('erin');
    await newStore('erin', { status: 'closed' });
    const packs = [await newPack('erin', open), await newPack('erin', open), await newPack('erin', open, { online: false })];
    const a = await rentOk('erin', open, packs[0]!.id);
    const b = await rentOk('erin', open, packs[1]!.id);
    await ok('erin', 'POST', '/rent/return', { id: b });
    const c = await rentOk('erin', open, packs[1]!.id, { kind: 'sale', totalPriceCents: 9900, currency: 'USD', pricePerDayCents: null, dueAt: undefined });
    // Settled at 23:30 UTC on 1 March (7:30 on 2 March in Shanghai) and at 10:00 UTC on 2 March.
    await db().execute(sql`update rentals set settled_at = '2030-03-01T23:30:00Z', charged_cents = 500 where id = ${b}`);
    await db().execute(sql`update rentals set settled_at = '2030-03-02T10:00:00Z' where id = ${c}`);
    const range = 'from=2030-02-01T00:00:00Z&to=2030-04-01T00:00:00Z';
    const utc = await ok('erin', 'GET', `/rent/summary?period=day&${range}`);
    expect(utc).toMatchObject({
      stores: { total: 2, open: 1 },
      stock: { rented: 1, available: 0, offline: 1, total: 2 },
      rentals: { active: 1, overdue: 0, reserved: 0 },
      revenue: [
        { bucket: '2030-03-01', currency: 'CNY', chargedCents: 500, count: 1 },
        { bucket: '2030-03-02', currency: 'USD', chargedCents: 9900, count: 1 },
      ],
    });
    const shanghai = await ok('erin', 'GET', `/rent/summary?period=day&tz=Asia/Shanghai&${range}`);
    expect(shanghai.revenue.map((r: { bucket: string }) => r.bucket)).toEqual(['2030-03-02', '2030-03-02']);
    const month = await ok('erin', 'GET', `/rent/summary?period=month&${range}`);
    expect(month.revenue).toEqual([
      { bucket: '2030-03-01', currency: 'CNY', chargedCents: 500, count: 1 },
      { bucket: '2030-03-01', currency: 'USD', chargedCents: 9900, count: 1 },
    ]);
    // Weeks start on Monday: 1 March 2030 is a Friday.
    expect((await ok('erin', 'GET', `/rent/summary?period=week&${range}`)).revenue[0].bucket).toBe('2030-02-25');
    expect((await ok('erin', 'GET', `/rent/summary?storeId=${open}&${range}`)).rentals.active).toBe(1);
    // Scoped: another agent sees none of it, and not this store.
    expect((await ok('bob', 'GET', `/rent/summary?${range}`)).revenue).toEqual([]);
    expect((await call('bob', 'GET', `/rent/summary?storeId=${open}`)).code).toBe(40400);
    expect(a).toBeGreaterThan(0);
  });

  it('imports stores from a sheet with row reasons, and exports stores and rentals', async () => {
    await t.createUser({ username: 'fay', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.fay = await t.login('fay', 'secret-pass-1');
    const upload = async (rows: unknown[][], query = '') => {
      const form = multipart('stores.xlsx', await writeSheet('stores', rows));
      return (await t.app.inject({ method: 'POST', url: `/api/v1/store/import${query}`, headers: { ...bearer(tokens.fay!), ...form.headers }, payload: form.payload })).json();
    };
    const taken = `S${++seq}`;
    await newStore('alice', { code: taken });
    const sheet = [
      ['门店名称', 'Code', 'Status', 'Longitude', 'Latitude', 'Available from SOC (%)'],
      ['North', `FN${seq}`, 'open', 121.4, 31.2, 70],
      ['South', `FS${seq}`, 'suspended', '', '', ''],
      ['Dup', `FN${seq}`, '', '', '', ''],
      ['Taken', taken, '', '', '', ''],
      ['Bad', `FB${seq}`, 'sleeping', 500, '', 101],
    ];
    const all = await upload(sheet);
    expect(all.data).toMatchObject({ total: 5, valid: 2, imported: 0, mode: 'all' });
    expect(all.data.errors.map((e: { row: number; column: string; reason: string }) => `${e.row}:${e.column}:${e.reason}`)).toEqual(
      expect.arrayContaining(['4:code:duplicateStoreCodeRow', '5:code:storeCodeTaken', '6:status:invalidValue', '6:lng:invalidValue', '6:minSoc:invalidValue']),
    );
    const some = await upload(sheet, '?mode=valid');
    expect(some.data.imported).toBe(2);
    const mine = await ok('fay', 'GET', '/store/list?sort=code&order=asc');
    expect(mine.items.map((x: { code: string; minSoc: number; status: string; ownerName: string }) => [x.code, x.minSoc, x.status, x.ownerName])).toEqual([
      [`FN${seq}`, 70, 'open', 'fay'],
      [`FS${seq}`, 80, 'suspended', 'fay'],
    ]);
    const exported = await t.app.inject({ method: 'GET', url: '/api/v1/store/export?lang=en&sort=code&order=asc', headers: bearer(tokens.fay!) });
    const out = await readSheet(exported.rawPayload);
    expect(out[0]).toEqual(expect.arrayContaining(['Name', 'Code', 'Owner', 'Available', 'Rented']));
    expect(out.slice(1).map((r) => r[1])).toEqual([`FN${seq}`, `FS${seq}`]);
    // The rental export: amounts in the major unit, the ID-card number masked, other agents' absent.
    const north = mine.items[0].id as number;
    const pack = await newPack('fay', north);
    await rentOk('fay', north, pack.id, { currency: 'JPY', pricePerDayCents: 800, depositCents: 5000 });
    const rentals = await readSheet((await t.app.inject({ method: 'GET', url: '/api/v1/rent/export?lang=zh', headers: bearer(tokens.fay!) })).rawPayload);
    expect(rentals).toHaveLength(2);
    const [head, row] = rentals;
    const col = (name: string) => row![head!.indexOf(name)];
    expect([col('电池包SN'), col('币种'), col('押金'), col('日租金'), col('身份证号'), col('状态')]).toEqual([pack.sn, 'JPY', 5000, 800, '**************1234', 'active']);
  });

  it('turns a lost pack’s discharge off through the command channel, only for a lost pack with a switch', async () => {
    const store = await newStore('alice');
    const pack = await newPack('alice', store, { online: false });
    const id = await rentOk('alice', store, pack.id, { startAt: '2001-01-01T00:00:00Z', dueAt: '2001-01-02T00:00:00Z' });
    expect(await call('alice', 'POST', '/rent/dischargeoff', { id })).toMatchObject({ code: 40900, data: { reason: 'rentalNotLost' } });
    await db().execute(sql`update rentals set state = 'overdue' where id = ${id}`);
    await ok('alice', 'POST', '/rent/lose', { id });
    const sent = await ok('alice', 'POST', '/rent/dischargeoff', { id });
    expect(sent).toMatchObject({ commandId: expect.any(String), status: 'pending' });
    const [command] = rowsOf<{ kind: string; payload: Record<string, unknown> }>(await db().execute(sql`select kind, payload from device_commands where id = ${sent.commandId}`));
    expect(command).toEqual({ kind: 'setParams', payload: { '10000031': false } });
    const logged = rowsOf<{ summary: string }>(await db().execute(sql`select summary from operation_logs where action = 'rent.dischargeoff' and entity_id = ${String(id)} and result = 'success'`));
    expect(logged).toHaveLength(1);
    // Another agent cannot; a pack whose type has no switch is refused by name.
    expect((await call('bob', 'POST', '/rent/dischargeoff', { id })).code).toBe(40400);
    const typeId = (await ok('alice', 'POST', '/devicetype/addtype', { code: `NOSW${++seq}`, name: 'No switch' })).id;
    const plain = (await ok('alice', 'POST', '/device/add', { name: 'plain', sn: `PL-${seq}`, typeId })).id as number;
    await ok('alice', 'POST', '/store/stockdevices', { storeId: store, deviceIds: [plain] });
    const other = await rentOk('alice', store, plain, { startAt: '2001-01-01T00:00:00Z', dueAt: '2001-01-02T00:00:00Z' });
    await db().execute(sql`update rentals set state = 'lost' where id = ${other}`);
    expect(await call('alice', 'POST', '/rent/dischargeoff', { id: other })).toMatchObject({ code: 40900, data: { reason: 'noDischargeSwitch' } });
  });
});
