import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readSheet, writeSheet } from '../src/lib/sheet.js';
import { apiAs, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const DAY = 86_400_000;
const HEADER = ['Store code', 'Pack SN', 'Customer', 'Customer phone', 'ID-card number', 'Type', 'State', 'Currency', 'Deposit', 'Price per day', 'Total price', 'Start', 'Due back'];

/**
 * The rental import (issue #38): rentals and sales of packs stocked at the caller's stores from
 * a sheet, with a reason for each refused row, one transaction, and the open-rental index that
 * lets an import and a concurrent API rental of one pack never both win.
 */
describe('rental import', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tokens);
  let typeId: number;
  let seq = 0;

  beforeAll(async () => {
    t = await buildTestApp({}, { rentalTimer: false });
    tokens.admin = await t.login();
    for (const name of ['ann', 'ben']) {
      await t.createUser({ username: name, password: 'secret-pass-1', role: 'ADMIN' });
      tokens[name] = await t.login(name, 'secret-pass-1');
    }
    typeId = ((await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  const newStore = async (who: string, extra: object = {}) => {
    const code = `RS${++seq}`;
    return { id: (await ok(who, 'POST', '/store/add', { name: `Store ${seq}`, code, ...extra })).id as number, code };
  };
  const newPack = async (who: string, storeId: number | null) => {
    const sn = `RP-${++seq}`;
    const id = (await ok(who, 'POST', '/device/add', { name: sn, sn, typeId })).id as number;
    if (storeId) await ok(who, 'POST', '/store/stockdevices', { storeId, deviceIds: [id] });
    return { id, sn };
  };
  const upload = async (who: string, rows: unknown[][], query = '') => {
    const form = multipart('rentals.xlsx', await writeSheet('rentals', [HEADER, ...rows]));
    return (await t.app.inject({ method: 'POST', url: `/api/v1/rent/import${query}`, headers: { ...bearer(tokens[who]!), ...form.headers }, payload: form.payload })).json();
  };
  const reasons = (report: { errors: { row: number; column: string; reason: string }[] }) => report.errors.map((e) => `${e.row}:${e.column}:${e.reason}`);
  const due = new Date(Date.now() + 7 * DAY).toISOString();

  it('downloads a template and imports rentals (active) and sales (sold) with their events and log', async () => {
    const template = await readSheet((await t.app.inject({ method: 'GET', url: '/api/v1/rent/importtemplate?lang=zh', headers: bearer(tokens.ann!) })).rawPayload);
    expect(template[0]).toEqual(expect.arrayContaining(['门店编码', '电池包SN', '客户', '客户电话', '押金', '应还时间']));

    const store = await newStore('ann');
    const [a, b] = [await newPack('ann', store.id), await newPack('ann', store.id)];
    const res = await upload('ann', [
      [store.code, a.sn, 'Han Mei', '+86 138-0000-0002', '110101199003071234', 'rent', 'active', 'CNY', 500, 12.5, '', '2025-03-01 09:00', due],
      [store.code, b.sn, 'Li Lei', '13800000003', '', 'sale', '', 'JPY', '', '', 98000, '', ''],
    ]);
    expect(res).toMatchObject({ code: 20000, data: { total: 2, valid: 2, imported: 2, errors: [] } });

    const list = await ok('ann', 'GET', `/rent/list?storeId=${store.id}&sort=createdAt&order=asc`);
    expect(list.items.map((r: Record<string, unknown>) => [r.deviceSn, r.kind, r.state, r.currency, r.depositCents, r.pricePerDayCents, r.totalPriceCents, r.chargedCents, r.idCardMasked])).toEqual([
      [a.sn, 'rent', 'active', 'CNY', 50000, 1250, null, null, '**************1234'],
      [b.sn, 'sale', 'sold', 'JPY', 0, null, 98000, 98000, ''],
    ]);
    expect(list.items[0]).toMatchObject({ startAt: '2025-03-01T09:00:00.000Z', dueAt: due });
    // Each rental has its first state change; the sold pack left the store's stock.
    const detail = await ok('ann', 'GET', `/rent/item?id=${list.items[0].id}`);
    expect(detail.events.map((e: { from: string | null; to: string; by: string }) => [e.from, e.to, e.by])).toEqual([[null, 'active', 'ann']]);
    expect((await ok('ann', 'GET', `/store/item?id=${store.id}`)).stock).toMatchObject({ total: 1, rented: 1 });
    const log = rowsOf<{ action: string; summary: string }>(
      await t.database.db.execute(sql`select action, summary from operation_logs where username = 'ann' and action = 'rent.import' order by id desc limit 1`),
    );
    expect(log[0]?.action).toBe('rent.import');
    expect(JSON.parse(log[0]!.summary)).toMatchObject({ imported: 2, rejected: 0 });
    // The full ID-card number is kept nowhere.
    const found = await t.database.db.execute(sql`select count(*)::int as n from operation_logs where summary like '%199003071234%'`);
    expect(rowsOf<{ n: number }>(found)[0]!.n).toBe(0);
  });

  it('refuses each wrong row by name: store and pack outside the caller, taken packs, duplicates, dates, amounts, phone, state', async () => {
    const store = await newStore('ann');
    const other = await newStore('ann');
    const closed = await newStore('ann', { status: 'closed' });
    const bens = await newStore('ben');
    const bensPack = await newPack('ben', bens.id);
    const p = await Promise.all(Array.from({ length: 12 }, () => newPack('ann', store.id)));
    const elsewhere = await newPack('ann', other.id);
    // One pack out on rent, one sold, through the API.
    await ok('ann', 'POST', '/rent/add', { storeId: store.id, deviceId: p[0]!.id, customerName: 'X', customerPhone: '123', pricePerDayCents: 100, dueAt: due });
    await ok('ann', 'POST', '/rent/add', { storeId: store.id, deviceId: p[1]!.id, customerName: 'X', customerPhone: '123', kind: 'sale', totalPriceCents: 100 });
    const row = (code: string, sn: string, over: Partial<Record<'phone' | 'kind' | 'state' | 'currency' | 'deposit' | 'perDay' | 'total' | 'start' | 'due', unknown>> = {}) => [
      code, sn, 'Zhang San', over.phone ?? '13800000009', '', over.kind ?? 'rent', over.state ?? '', over.currency ?? 'CNY', over.deposit ?? 100,
      over.perDay ?? 10, over.total ?? '', over.start ?? '', over.due ?? due,
    ];
    const res = await upload('ann', [
      row('NOPE', p[2]!.sn), // 2 unknown store
      row(bens.code, p[3]!.sn), // 3 another agent's store
      row(store.code, bensPack.sn), // 4 another agent's pack
      row(store.code, p[0]!.sn), // 5 rented
      row(store.code, p[1]!.sn), // 6 sold
      row(store.code, p[4]!.sn), // 7 fine
      row(store.code, p[4]!.sn), // 8 same pack as row 7
      row(store.code, p[5]!.sn, { start: '2025-05-10', due: '2025-05-01' }), // 9 due before start
      row(store.code, p[6]!.sn, { deposit: -5, perDay: '1.234' }), // 10 bad amounts
      row(store.code, p[7]!.sn, { phone: 'call me' }), // 11 bad phone
      row(store.code, p[8]!.sn, { state: 'returned' }), // 12 not importable state
      row(store.code, elsewhere.sn), // 13 stocked at another store
      row(closed.code, p[9]!.sn), // 14 closed store (and the pack is not stocked there)
      row(store.code, p[10]!.sn, { total: 99 }), // 15 both prices
      row(store.code, p[11]!.sn, { due: 'tomorrow' }), // 16 not a time
    ]);
    expect(res.data).toMatchObject({ total: 15, valid: 1, imported: 0, mode: 'all' });
    expect(reasons(res.data)).toEqual([
      '2:store:unknownStoreCode',
      '3:store:unknownStoreCode',
      '4:deviceSn:unknownPackSn',
      '5:deviceSn:packRented',
      '6:deviceSn:packSold',
      '8:deviceSn:duplicatePackRow',
      '9:dueAt:dueBeforeStart',
      '10:deposit:amountInvalid',
      '10:pricePerDay:amountInvalid',
      '11:customerPhone:phonePattern',
      '12:state:rentalImportState',
      '13:deviceSn:packNotInStore',
      '14:store:storeNotOpen',
      '14:deviceSn:packNotInStore',
      '15:pricePerDay:pricePerDayOrTotal',
      '16:dueAt:dateTimeRequired',
    ]);
    expect(res.data.errors.find((e: { row: number }) => e.row === 10).params).toEqual({ digits: 2 });
    // Mode valid writes the one valid row; nothing of the others.
    const some = await upload('ann', [row(store.code, p[4]!.sn), row(store.code, p[4]!.sn), row('NOPE', p[2]!.sn)], '?mode=valid');
    expect(some.data).toMatchObject({ valid: 1, imported: 1 });
    expect((await ok('ann', 'GET', `/rent/list?storeId=${store.id}&state=active`)).items.map((r: { deviceSn: string }) => r.deviceSn).sort()).toEqual([p[0]!.sn, p[4]!.sn].sort());
    // Ben's store and pack stay Ben's: nothing written there, and a dry run writes nothing either.
    expect((await ok('ben', 'GET', `/rent/list?storeId=${bens.id}`)).total).toBe(0);
    const dry = await upload('ann', [row(store.code, p[5]!.sn)], '?dryRun=true');
    expect(dry.data).toMatchObject({ valid: 1, imported: 0, dryRun: true });
  });

  it('lets exactly one of an import and a concurrent API rental of the same pack win', async () => {
    const store = await newStore('ann');
    for (let round = 0; round < 6; round++) {
      const pack = await newPack('ann', store.id);
      const [imported, rented] = await Promise.all([
        upload('ann', [[store.code, pack.sn, 'Race', '123', '', 'rent', '', 'CNY', 0, 1, '', '', due]]),
        call('ann', 'POST', '/rent/add', { storeId: store.id, deviceId: pack.id, customerName: 'API', customerPhone: '456', pricePerDayCents: 100, dueAt: due }),
      ]);
      const importWon = imported.code === 20000 && imported.data.imported === 1;
      const apiWon = rented.code === 20000;
      expect(importWon !== apiWon, JSON.stringify({ imported, rented })).toBe(true);
      // The loser is told why: the import by its row or importRace, the API by packRented.
      if (!importWon) expect(imported.code === 40900 ? imported.data.reason : reasons(imported.data)[0]).toMatch(/importRace|packRented/);
      else expect(rented).toMatchObject({ code: 40900, data: { reason: 'packRented' } });
      const open = await t.database.db.execute(sql`select count(*)::int as n from rentals where device_id = ${pack.id} and state in ('reserved', 'active', 'overdue')`);
      expect(rowsOf<{ n: number }>(open)[0]!.n).toBe(1);
    }
  });
});
