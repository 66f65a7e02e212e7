import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readSheet, writeSheet } from '../src/lib/sheet.js';
import { CardJobs } from '../src/modules/card/card.jobs.js';
import { SimulatedPayments } from '../src/modules/card/payment.simulated.js';
import { apiAs, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const ICCID = (n: number) => `898604${String(n).padStart(14, '0')}`;

/** SIM cards, carrier data, whitelist, orders and payments, through the HTTP API on a real database. */
describe('SIM cards and card orders', () => {
  let t: TestApp;
  const payments = new SimulatedPayments('test-secret');
  const tokens: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tokens);
  let typeId: number;

  beforeAll(async () => {
    t = await buildTestApp({ CARD_WHITELIST_MAX: '2', CARRIER_CACHE_TTL: '60' }, { payments });
    tokens.admin = await t.login();
    for (const [name, role] of [['alice', 'ADMIN'], ['bob', 'ADMIN'], ['viewer', 'BATTERYMANAGEMENT']] as const) {
      await t.createUser({ username: name, password: 'secret-pass-1', role });
      tokens[name] = await t.login(name, 'secret-pass-1');
    }
    typeId = (await ok('alice', 'POST', '/devicetype/addtype', { code: 'SIMT', name: 'SIM test' })).id;
  }, 240_000);
  afterAll(async () => {
    await t.close();
  });

  const addCard = (who: string, fields: object) => ok(who, 'POST', '/card/addCard', fields).then((d) => d.id as number);
  const card = (who: string, id: number) => ok(who, 'GET', `/card/getSimItem?id=${id}`);
  /** A price list entry (set by the super administrator, who alone holds card:price), made once. */
  const prices = new Map<string, number>();
  const price = async (kind: 'renewal' | 'topup', plan: string, unitPriceCents: number, topupMb = 0) => {
    const key = `${kind}/${plan}`;
    if (!prices.has(key)) prices.set(key, (await ok('admin', 'POST', '/card/addPrice', { kind, plan, unitPriceCents, topupMb })).id);
    return prices.get(key)!;
  };

  it('adds, lists with filters and search, edits and deletes cards; refuses a taken ICCID', async () => {
    // An owner of its own: the cards other tests give alice are not in these lists.
    await t.createUser({ username: 'dana', password: 'secret-pass-1', role: 'ADMIN' });
    tokens.dana = await t.login('dana', 'secret-pass-1');
    const a = await addCard('dana', { iccid: ICCID(1), msisdn: '1440000000101', plan: 'IoT 1GB', expiresAt: '2030-01-15', status: 'active' });
    await addCard('dana', { iccid: ICCID(2), msisdn: '1440000000102', plan: 'IoT 5GB', status: 'suspended' });
    const list = await ok('dana', 'GET', '/card/getSimList?sort=iccid&order=asc');
    expect(list.items.map((c: any) => c.iccid)).toEqual([ICCID(1), ICCID(2)]);
    expect((await ok('dana', 'GET', '/card/getSimList?status=suspended')).total).toBe(1);
    expect((await ok('dana', 'GET', '/card/getSimList?q=5GB')).items[0].iccid).toBe(ICCID(2));
    const dup = await call('dana', 'POST', '/card/addCard', { iccid: ICCID(1) });
    expect(dup).toMatchObject({ code: 40900, data: { reason: 'iccidTaken', field: 'iccid' } });
    const bad = await call('dana', 'POST', '/card/addCard', { iccid: '12345' });
    expect(bad.code).toBe(40000);
    await ok('dana', 'POST', '/card/editCard', { id: a, plan: 'IoT 2GB' });
    expect(await card('dana', a)).toMatchObject({ plan: 'IoT 2GB', msisdn: '1440000000101', expiresAt: '2030-01-15' });
    // A phone number or IMSI is one card's, whoever owns it: the carrier's calls address a card by
    // them, so bob may not add a card that would reach dana's SIM through the shared account.
    const imsiCard = await addCard('dana', { iccid: ICCID(4), imsi: '460040000000104' });
    expect(await call('bob', 'POST', '/card/addCard', { iccid: ICCID(5), msisdn: '1440000000101' })).toMatchObject({
      code: 40900, data: { reason: 'duplicateValue', field: 'msisdn' },
    });
    expect(await call('bob', 'POST', '/card/addCard', { iccid: ICCID(5), imsi: '460040000000104' })).toMatchObject({
      code: 40900, data: { reason: 'duplicateValue', field: 'imsi' },
    });
    const bobs = await addCard('bob', { iccid: ICCID(5) });
    expect(await call('bob', 'POST', '/card/editCard', { id: bobs, msisdn: '1440000000102' })).toMatchObject({ code: 40900, data: { field: 'msisdn' } });
    // A card keeps its own number when edited.
    await ok('dana', 'POST', '/card/editCard', { id: imsiCard, imsi: '460040000000104', plan: 'Kept' });
    const c = await addCard('dana', { iccid: ICCID(3) });
    expect(await ok('dana', 'DELETE', `/card/deleteCard?id=${c}`)).toEqual({ count: 1 });
    expect((await call('dana', 'GET', `/card/getSimItem?id=${c}`)).code).toBe(40400);
  });

  it('deletes many cards at once; the operation log keeps the ids that fit its entity id', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await addCard('alice', { iccid: ICCID(900 + i) }));
    expect(await ok('alice', 'DELETE', `/card/deleteCard?id=${ids.join(',')}`)).toEqual({ count: 30 });
    const logs = (await ok('admin', 'GET', '/logs/list?action=card.delete&limit=5')).items as { entityId: string; entityName: string; result: string }[];
    const row = logs.find((l) => l.entityId.startsWith(`${ids[0]},`))!;
    expect(row.result).toBe('success');
    expect(row.entityId.length).toBeLessThanOrEqual(64);
    expect(row.entityId.endsWith('…')).toBe(true);
    expect(row.entityId.slice(0, -1).split(',').map(Number)).toEqual(ids.slice(0, row.entityId.split(',').length));
  });

  it('keeps the linked device and the device’s SIM number in sync both ways', async () => {
    const dev = await ok('alice', 'POST', '/device/add', { name: 'Cabinet 1', sn: 'SIM-DEV-1', typeId });
    const other = await ok('alice', 'POST', '/device/add', { name: 'Cabinet 2', sn: 'SIM-DEV-2', typeId, simNumber: '1440000000999' });
    // Card → device: linking writes the card's MSISDN into the device.
    const id = await addCard('alice', { iccid: ICCID(10), msisdn: '1440000000110', deviceId: dev.id });
    expect((await ok('alice', 'GET', `/device/basic?id=${dev.id}`)).simNumber).toBe('1440000000110');
    expect(await card('alice', id)).toMatchObject({ deviceId: dev.id, deviceName: 'Cabinet 1', deviceSn: 'SIM-DEV-1' });
    // A new MSISDN follows to the device.
    await ok('alice', 'POST', '/card/editCard', { id, msisdn: '1440000000111' });
    expect((await ok('alice', 'GET', `/device/basic?id=${dev.id}`)).simNumber).toBe('1440000000111');
    // The card list's search finds the card by its device's SN or name, whatever the case.
    for (const q of ['SIM-DEV-1', 'cabinet 1', '0000111']) {
      expect((await ok('alice', 'GET', `/card/getSimList?q=${encodeURIComponent(q)}`)).items.map((c: { id: number }) => c.id), q).toContain(id);
    }
    // Device → card: another device given the card's ICCID as SIM number is refused by the card side…
    const taken = await call('alice', 'POST', '/card/addCard', { iccid: ICCID(11), msisdn: '1440000000999', deviceId: dev.id });
    expect(taken).toMatchObject({ code: 40900, data: { reason: 'simInOtherDevice', params: { sn: 'SIM-DEV-2' } } });
    // Bob is refused the same number too, but not told which of alice's devices carries it; nor do
    // his card search and "linked" filter see alice's devices.
    const bmu = (await ok('bob', 'GET', '/devicetype/typeoptionslist')).find((x: { code: string }) => x.code === 'BMU').id;
    const bobsDevice = await ok('bob', 'POST', '/device/add', { name: 'Bob cabinet', sn: 'SIM-DEV-BOB', typeId: bmu });
    const hidden = await call('bob', 'POST', '/card/addCard', { iccid: ICCID(12), msisdn: '1440000000999', deviceId: bobsDevice.id });
    expect(hidden).toMatchObject({ code: 40900, data: { reason: 'simInOtherDevice', params: { sn: '—' } } });
    expect(JSON.stringify(hidden)).not.toContain('SIM-DEV-2');
    const bobsCard = await addCard('bob', { iccid: ICCID(13), msisdn: '1440000000888' });
    await ok('alice', 'POST', '/device/edit', { id: other.id, simNumber: '1440000000888' });
    expect((await ok('bob', 'GET', '/card/getSimList?q=SIM-DEV-2')).total).toBe(0);
    expect((await ok('bob', 'GET', '/card/getSimList?linked=true')).items.map((c: any) => c.id)).not.toContain(bobsCard);
    // To bob it is a card without a device (linked to one he does not see), on every page size.
    for (const limit of [10, 100]) {
      expect((await ok('bob', 'GET', `/card/getSimList?linked=false&limit=${limit}`)).items.map((c: any) => c.id)).toContain(bobsCard);
    }
    await ok('alice', 'POST', '/device/edit', { id: other.id, simNumber: '1440000000999' });
    // …and editing a device's SIM number moves the link.
    await ok('alice', 'POST', '/device/edit', { id: dev.id, simNumber: '' });
    await ok('alice', 'POST', '/device/edit', { id: other.id, simNumber: ICCID(10) });
    expect(await card('alice', id)).toMatchObject({ deviceId: other.id, deviceSn: 'SIM-DEV-2' });
    expect((await ok('alice', 'GET', '/card/getSimList?linked=false')).items.map((c: any) => c.id)).not.toContain(id);
    // Unlinking clears the device's SIM number.
    await ok('alice', 'POST', '/card/editCard', { id, deviceId: null });
    expect((await ok('alice', 'GET', `/device/basic?id=${other.id}`)).simNumber).toBe('');
    expect((await card('alice', id)).deviceId).toBeNull();
  });

  it('keeps the link whatever writes the tables: bulk device inserts, deletes, a card’s new ICCID; "linked" filters on it', async () => {
    const db = t.database.db;
    const ids = (r: { items: { id: number }[] }) => r.items.map((c) => c.id);
    const c1 = await addCard('alice', { iccid: ICCID(960), msisdn: '1440000009601' });
    const c2 = await addCard('alice', { iccid: ICCID(961) });
    expect((await card('alice', c1)).deviceId).toBeNull();
    // One statement inserting many devices (as an import or a script does) links both cards.
    const [owner] = rowsOf<{ path: string }>(await db.execute(sql`select path from users where username = 'alice'`));
    const inserted = rowsOf<{ id: number; sn: string }>(await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, sim_number)
      values ('LINK-1', 'Link 1', ${typeId}, ${owner!.path}, '1440000009601'), ('LINK-2', 'Link 2', ${typeId}, ${owner!.path}, ${ICCID(961)})
      returning id, sn`));
    const idOf = (sn: string) => inserted.find((d) => d.sn === sn)!.id;
    expect(await card('alice', c1)).toMatchObject({ deviceId: idOf('LINK-1'), deviceSn: 'LINK-1' });
    expect(await card('alice', c2)).toMatchObject({ deviceId: idOf('LINK-2') });
    // Every page of one card carries that card's own device and project (columns read for the
    // page's ids only), as the one-page list does.
    const whole = (await ok('alice', 'GET', '/card/getSimList?linked=true&sort=iccid&order=desc&limit=100')).items;
    expect(whole.map((c: { deviceSn: string }) => c.deviceSn)).toEqual(expect.arrayContaining(['LINK-1', 'LINK-2']));
    for (let i = 0; i < whole.length; i++) {
      const one = await ok('alice', 'GET', `/card/getSimList?linked=true&sort=iccid&order=desc&limit=1&page=${i + 1}`);
      expect(one.items, `page ${i + 1}`).toEqual([whole[i]]);
    }
    for (const who of ['admin', 'alice']) {
      expect(ids(await ok(who, 'GET', '/card/getSimList?linked=true&limit=100')), who).toEqual(expect.arrayContaining([c1, c2]));
      expect(ids(await ok(who, 'GET', '/card/getSimList?linked=false&sort=expiresAt&order=asc&limit=100')), who).not.toContain(c1);
    }
    // The console carries a card's new ICCID to its device; a script that changes only the card
    // leaves the device behind. Deleting a device unlinks its card.
    await ok('alice', 'POST', '/card/editCard', { id: c2, iccid: ICCID(962) });
    expect(await card('alice', c2)).toMatchObject({ deviceId: idOf('LINK-2') });
    expect((await ok('alice', 'GET', `/device/basic?id=${idOf('LINK-2')}`)).simNumber).toBe(ICCID(962));
    await db.execute(sql`update sim_cards set iccid = ${ICCID(963)} where id = ${c2}`);
    expect((await card('alice', c2)).deviceId).toBeNull();
    await ok('alice', 'DELETE', `/device/delete?id=${idOf('LINK-1')}`);
    expect((await card('alice', c1)).deviceId).toBeNull();
    expect(ids(await ok('admin', 'GET', '/card/getSimList?linked=false&limit=100'))).toEqual(expect.arrayContaining([c1, c2]));
  });

  it('shows live carrier data from a short cache, refreshes on demand, and answers a carrier error without failing', async () => {
    const id = await addCard('alice', { iccid: ICCID(20), msisdn: '1440000000120' });
    const first = await ok('alice', 'GET', `/card/sim_basic_info?id=${id}`);
    expect(first).toMatchObject({ ok: true, cached: false, carrier: 'simulated', error: null, data: { msisdn: '1440000000120', iccid: ICCID(20) } });
    expect(await ok('alice', 'GET', `/card/sim_basic_info?id=${id}`)).toMatchObject({ cached: true, fetchedAt: first.fetchedAt });
    expect(await ok('alice', 'GET', `/card/sim_basic_info?id=${id}&refresh=true`)).toMatchObject({ cached: false });
    const margin = await ok('alice', 'GET', `/card/sim_voice_margin?id=${id}`);
    expect(margin.data[0]).toMatchObject({ offeringName: expect.any(String), totalAmount: expect.any(Number) });
    // The simulated carrier does not know numbers ending in 0000.
    const unknown = await addCard('alice', { iccid: ICCID(21), msisdn: '1440000010000' });
    expect(await ok('alice', 'GET', `/card/sim_basic_info?id=${unknown}`)).toMatchObject({ ok: false, data: null, error: { code: '12006' } });
  });

  it('views, adds and removes voice whitelist numbers within the carrier’s limit', async () => {
    const id = await addCard('alice', { iccid: ICCID(30), msisdn: '1440000000130', groupId: 'G1' });
    const add = (n: string) => call('alice', 'POST', '/card/config_member_voice_whitelist', { id, operation: 'add', whiteNumber: n });
    expect((await add('13800138000')).code).toBe(20000);
    expect((await add('13800138000')).data).toMatchObject({ reason: 'whitelistHas' });
    expect((await add('13900139000')).code).toBe(20000);
    expect(await add('13700137000')).toMatchObject({ code: 40000, data: { reason: 'whitelistFull', params: { max: 2 } } });
    const list = await ok('alice', 'GET', `/card/member_voice_whitelist?id=${id}`);
    expect(list.data).toEqual({ totalCount: 2, max: 2, numbers: [{ whiteNumber: '13800138000', status: '1' }, { whiteNumber: '13900139000', status: '1' }] });
    await ok('alice', 'POST', '/card/config_member_voice_whitelist', { id, operation: 'delete', whiteNumber: '13800138000' });
    // The carrier's own refusal is shown with its code.
    const gone = await call('alice', 'POST', '/card/config_member_voice_whitelist', { id, operation: 'delete', whiteNumber: '13800138000' });
    expect(gone).toMatchObject({ code: 40900, data: { reason: 'carrierRefused', params: { code: '13020' } } });
    expect((await ok('alice', 'GET', `/card/member_voice_whitelist?id=${id}`)).data.totalCount).toBe(1);
    const log = await ok('admin', 'GET', '/logs/list?action=card.whitelist&limit=10');
    expect(log.items.length).toBeGreaterThanOrEqual(3);
  });

  it('lists expiring cards soonest first, exports them and mails their owner once per expiry date', async () => {
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    await addCard('bob', { iccid: ICCID(40), msisdn: '1440000000140', expiresAt: day(20) });
    await addCard('bob', { iccid: ICCID(41), msisdn: '1440000000141', expiresAt: day(3) });
    await addCard('bob', { iccid: ICCID(42), expiresAt: day(90) });
    const soon = await ok('bob', 'GET', '/card/getExpirationSimList?days=30');
    expect(soon.items.map((c: any) => [c.iccid, c.daysLeft])).toEqual([[ICCID(41), 3], [ICCID(40), 20]]);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/card/export?expiringWithin=30&sort=expiresAt&order=asc&lang=en', headers: bearer(tokens.bob!) });
    expect(res.statusCode).toBe(200);
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]).toContain('ICCID');
    expect(sheet.slice(1).map((r) => r[0])).toEqual([ICCID(41), ICCID(40)]);

    await ok('bob', 'POST', '/user/addemail', { email: 'bob@example.com' }).catch(() => undefined);
    const [bob] = rowsOf<{ id: number }>(await t.database.db.execute(sql`select id from users where username = 'bob'`));
    await t.database.db.execute(sql`insert into user_emails (user_id, email) values (${bob!.id}, 'bob@example.com') on conflict do nothing`);
    const mails: { to: string[]; subject: string; text: string }[] = [];
    const jobs = new CardJobs(t.database.db, t.app.log, { expireDue: async () => 0 }, { sendText: async (to, subject, text) => (mails.push({ to, subject, text }), true) }, { noticeDays: 30 });
    expect(await jobs.checkExpiry()).toBeGreaterThanOrEqual(1);
    const bobs = mails.filter((m) => m.to.includes('bob@example.com'));
    expect(bobs).toHaveLength(1);
    expect(bobs[0]!.subject).toBe('2 SIM card(s) expiring soon');
    expect(bobs[0]!.text).toContain(ICCID(41));
    mails.length = 0;
    await jobs.checkExpiry();
    expect(mails.filter((m) => m.to.includes('bob@example.com'))).toHaveLength(0);

    // A sub-user of a disabled line is disabled too (as at login): no mail for its cards.
    const [carol] = rowsOf<{ id: number }>(await t.database.db.execute(sql`
      insert into users (username, password_hash, role_id, type, parent_id)
      select 'carol', password_hash, role_id, 0, ${bob!.id} from users where id = ${bob!.id} returning id`));
    await t.database.db.execute(sql`update users set path = ${`/1/${bob!.id}/${carol!.id}/`} where id = ${carol!.id}`);
    await t.database.db.execute(sql`insert into user_emails (user_id, email) values (${carol!.id}, 'carol@example.com')`);
    await t.database.db.execute(sql`insert into sim_cards (iccid, expires_at, owner_path) values (${ICCID(43)}, current_date + 5, ${`/1/${bob!.id}/${carol!.id}/`})`);
    await t.database.db.execute(sql`update users set enabled = false where id = ${bob!.id}`);
    await jobs.checkExpiry();
    expect(mails.filter((m) => m.to.includes('carol@example.com'))).toHaveLength(0);
    await t.database.db.execute(sql`update users set enabled = true where id = ${bob!.id}`);
    await jobs.checkExpiry();
    expect(mails.filter((m) => m.to.includes('carol@example.com'))).toHaveLength(1);
  });

  it('two expiry checks at once (a leadership change) mail a card once; a mail that failed is sent by the next check', async () => {
    const id = await t.createUser({ username: 'erin', password: 'secret-pass-1', role: 'ADMIN' });
    await t.database.db.execute(sql`insert into user_emails (user_id, email) values (${id}, 'erin@example.com')`);
    await t.database.db.execute(sql`insert into sim_cards (iccid, expires_at, owner_path) values (${ICCID(80)}, current_date + 4, ${`/1/${id}/`})`);
    const erin: string[] = [];
    const jobs = (works: boolean) =>
      new CardJobs(t.database.db, t.app.log, { expireDue: async () => 0 }, {
        sendText: async (to, _subject, text) => {
          if (works && to.includes('erin@example.com')) erin.push(text);
          return works;
        },
      }, { noticeDays: 30 });
    await jobs(false).checkExpiry();
    expect(erin).toEqual([]);
    await Promise.all([jobs(true).checkExpiry(), jobs(true).checkExpiry(), jobs(true).checkExpiry()]);
    expect(erin).toHaveLength(1);
    expect(erin[0]).toContain(ICCID(80));
  });

  it('imports cards from .xlsx, reporting bad rows', async () => {
    const file = await writeSheet('cards', [
      ['ICCID', 'MSISDN', 'Plan', 'Expiry date', 'Status'],
      [ICCID(50), '1440000000150', 'Imported', '2031-03-01', 'active'],
      [ICCID(51), '', '', '2031/4/2', ''],
      ['123', '', '', '', ''],
      [ICCID(50), '', '', '', ''],
      [ICCID(52), '', '', '2031-02-30', ''],
      [ICCID(53), '', '', 1e9, ''],
      [ICCID(54), '1440000000150', '', '', ''],
      [ICCID(55), '1440000000158', '', '', ''],
    ]);
    await addCard('bob', { iccid: ICCID(58), msisdn: '1440000000158' });
    const up = multipart('cards.xlsx', file);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/card/import?mode=valid', headers: { ...bearer(tokens.alice!), ...up.headers }, payload: up.payload });
    const report = res.json().data;
    expect(report).toMatchObject({ total: 8, valid: 2, imported: 2 });
    // An impossible day and a number no spreadsheet date has are refused in their row, not a 500.
    expect(report.errors.map((e: any) => [e.row, e.column, e.reason])).toEqual([
      [4, 'iccid', 'invalidValue'], [5, 'iccid', 'duplicateIccidRow'], [6, 'expiresAt', 'dateRequired'], [7, 'expiresAt', 'dateRequired'],
      // A number twice in the sheet, and a number another card (bob's) already has.
      [8, 'msisdn', 'duplicateValue'], [9, 'msisdn', 'duplicateValue'],
    ]);
    const found = await ok('alice', 'GET', `/card/getSimList?q=${ICCID(51)}`);
    expect(found.items[0]).toMatchObject({ expiresAt: '2031-04-02', status: 'active' });
    const txt = multipart('cards.csv', Buffer.from('a,b'));
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/card/import', headers: { ...bearer(tokens.alice!), ...txt.headers }, payload: txt.payload });
    expect(refused.json().data.reason).toBe('importFormat');
  });

  describe('orders and payment notifications', () => {
    let cardA: number;
    const notify = (n: { body: string; headers: Record<string, string> }) =>
      t.app.inject({ method: 'POST', url: '/api/v1/wechat/notify', headers: { ...n.headers, 'content-type': 'application/json' }, payload: n.body });
    const events = async (orderNo: string) =>
      rowsOf<{ outcome: string }>(await t.database.db.execute(sql`select outcome from card_payment_events where order_no = ${orderNo} order by id`)).map((r) => r.outcome);

    beforeAll(async () => {
      cardA = await addCard('alice', { iccid: ICCID(60), msisdn: '1440000000160', expiresAt: '2030-01-15', plan: 'IoT 1GB' });
    });

    it('creates an order with its amount and a QR code; a signed notification pays it once and extends expiry by the months bought', async () => {
      // Cards of its own: the other tests renew the shared ones.
      const cardA = await addCard('alice', { iccid: ICCID(64), msisdn: '1440000000164', expiresAt: '2030-01-15', plan: 'IoT 1GB' });
      const cardB = await addCard('alice', { iccid: ICCID(65), expiresAt: '2020-01-01' });
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 5GB', 500), months: 3, cardIds: [cardA, cardB] });
      expect(order.amountCents).toBe(3000);
      const qr = await ok('alice', 'GET', `/wechat/getPayQRCode?id=${order.id}`);
      expect(qr).toMatchObject({ orderNo: order.orderNo, amountCents: 3000, provider: 'simulated' });
      expect(qr.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
      // The order list finds it by a piece of its number (any case), of a card's ICCID or of its MSISDN.
      const search = async (q: string) =>
        ((await ok('alice', 'GET', `/card/getCardOrderList?q=${encodeURIComponent(q)}`)).items as { id: number }[]).map((o) => o.id);
      expect(await search(order.orderNo.slice(2).toLowerCase())).toEqual([order.id]);
      expect(await search(ICCID(65).slice(-6))).toEqual([order.id]);
      expect(await search('0000000164')).toEqual([order.id]);
      expect(await search('no-such-order')).toEqual([]);

      const paid = payments.pay(order.orderNo, 3000);
      const res = await notify(paid);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 'SUCCESS', message: 'OK' });
      const today = new Date();
      const fromToday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 3, today.getUTCDate())).toISOString().slice(0, 10);
      expect((await card('alice', cardA)).expiresAt).toBe('2030-04-15');
      // The cards are on the plan they were renewed onto.
      expect((await card('alice', cardA)).plan).toBe('IoT 5GB');
      // An expired card is renewed from today.
      expect((await card('alice', cardB)).expiresAt).toBe(fromToday);
      const detail = await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`);
      expect(detail).toMatchObject({ status: 'paid', transactionId: expect.any(String) });
      expect(detail.items.find((i: any) => i.cardId === cardA)).toMatchObject({ expiresBefore: '2030-01-15', expiresAfter: '2030-04-15' });

      // A replay of the same notification, and a second payment, change nothing.
      expect((await notify(paid)).json()).toEqual({ code: 'SUCCESS', message: 'OK' });
      expect((await notify(payments.pay(order.orderNo, 3000))).statusCode).toBe(200);
      expect((await card('alice', cardA)).expiresAt).toBe('2030-04-15');
      expect(await events(order.orderNo)).toEqual(['paid', 'replay', 'replay']);
      expect((await call('alice', 'GET', `/wechat/getPayQRCode?id=${order.id}`)).data.reason).toBe('orderNotUnpaid');
      expect((await call('alice', 'DELETE', `/card/deleteCardOrder?id=${order.id}`)).data.reason).toBe('orderKeepsRecord');
    });

    it('refuses and logs a wrong signature or a wrong amount, leaving the order unpaid', async () => {
      const cardA = await addCard('alice', { iccid: ICCID(66), expiresAt: '2030-04-15' });
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 800', 800), months: 1, cardIds: [cardA] });
      const forged = new SimulatedPayments('another-secret').pay(order.orderNo, 800);
      const r1 = await notify(forged);
      expect(r1.statusCode).toBe(400);
      expect(r1.json().code).toBe('FAIL');
      const tampered = payments.pay(order.orderNo, 800);
      const r2 = await notify({ ...tampered, body: tampered.body.replace('"total":800', '"total":1') });
      expect(r2.statusCode).toBe(400);
      const r3 = await notify(payments.pay(order.orderNo, 799));
      expect(r3.statusCode).toBe(400);
      expect(await events(order.orderNo)).toEqual(['badAmount']);
      const signatures = rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from card_payment_events where outcome = 'badSignature'`));
      expect(signatures[0]!.n).toBeGreaterThanOrEqual(2);
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).status).toBe('unpaid');
      expect((await card('alice', cardA)).expiresAt).toBe('2030-04-15');
      // The simulated provider's button pays it for real.
      expect(await ok('alice', 'POST', '/wechat/simulatePay', { id: order.id })).toEqual({ outcome: 'paid' });
      expect((await card('alice', cardA)).expiresAt).toBe('2030-05-15');
    });

    it('answers a signed but malformed notification with WeChat’s failure shape, never a 500, and leaves the order unpaid', async () => {
      const cardA = await addCard('alice', { iccid: ICCID(67), expiresAt: '2030-04-15' });
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 900', 900), months: 1, cardIds: [cardA] });
      /** A notification the provider really signed, of any body and timestamp. */
      const signed = (body: string, timestamp = String(Math.floor(Date.now() / 1000))) => {
        const nonce = 'n0nce';
        return { body, headers: { 'wechatpay-timestamp': timestamp, 'wechatpay-nonce': nonce, 'wechatpay-signature': payments.sign(timestamp, nonce, body), 'wechatpay-serial': 'SIMULATED' } };
      };
      const good = JSON.parse(payments.pay(order.orderNo, 900).body);
      // Not an object at all: the API's 40000 envelope, as documented for a body that is not one.
      for (const body of ['null', '[]', '"paid"']) {
        const res = await notify(signed(body));
        expect(res.statusCode, body).toBe(400);
        expect(res.json()).toMatchObject({ code: 40000, data: { field: 'body' } });
      }
      for (const n of [
        signed(JSON.stringify({ ...good, amount: { total: '900', currency: 'CNY' } })),
        signed(JSON.stringify({ ...good, amount: null })),
        signed(JSON.stringify({ ...good, out_trade_no: null })),
        signed(JSON.stringify(good), 'abc'),
      ]) {
        const res = await notify(n);
        expect(res.statusCode, `${n.headers['wechatpay-timestamp']} ${n.body}`).toBe(400);
        expect(res.json()).toEqual({ code: 'FAIL', message: expect.any(String) });
      }
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).status).toBe('unpaid');
      // The same transaction, well formed, pays it.
      expect((await notify(signed(JSON.stringify(good)))).statusCode).toBe(200);
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).status).toBe('paid');
    });

    it('closes a QR code already shown before its order changes or is cancelled; a payment made before the deadline counts when its notice comes late', async () => {
      // New terms after the QR code was shown: the old code is closed at the provider and the
      // order gets a new number (WeChat Pay refuses new terms under an out_trade_no it has seen).
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 200', 200), months: 1, cardIds: [cardA] });
      const shown = await ok('alice', 'GET', `/wechat/getPayQRCode?id=${order.id}`);
      // New remarks leave the code shown payable, under the same number.
      await ok('alice', 'POST', '/card/editCardOrder', { id: order.id, remarks: 'for the north site' });
      expect(await ok('alice', 'GET', `/wechat/getPayQRCode?id=${order.id}`)).toMatchObject({ orderNo: order.orderNo, codeUrl: shown.codeUrl });
      expect(payments.payable(order.orderNo)).toBe(true);
      await ok('alice', 'POST', '/card/editCardOrder', { id: order.id, priceId: await price('renewal', 'IoT 300', 300) });
      const changed = await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`);
      expect(changed).toMatchObject({ amountCents: 300, status: 'unpaid' });
      expect(changed.orderNo).not.toBe(order.orderNo);
      expect(payments.payable(order.orderNo)).toBe(false);
      expect((await notify(payments.pay(order.orderNo, 200))).statusCode).toBe(400); // the old number is no order of ours now
      expect((await notify(payments.pay(changed.orderNo, 300))).statusCode).toBe(200);
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).status).toBe('paid');

      // Cancelled after its QR code was shown: closed first, so the customer can no longer pay it.
      const second = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 200', 200), months: 1, cardIds: [cardA] });
      await ok('alice', 'GET', `/wechat/getPayQRCode?id=${second.id}`);
      await ok('alice', 'POST', '/card/editCardOrder', { id: second.id, status: 'cancelled' });
      expect(payments.payable(second.orderNo)).toBe(false);
      expect((await call('alice', 'POST', '/wechat/simulatePay', { id: second.id })).data.reason).toBe('orderNotUnpaid');

      // Paid two minutes ago, before the deadline the provider was given; the notice arrives after
      // the order expired by our clock: the money was taken in time, so the order is paid.
      const third = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 100', 100), months: 1, cardIds: [cardA] });
      await t.database.db.execute(sql`update card_orders set pay_before = now() - interval '1 minute' where id = ${third.id}`);
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${third.id}`)).status).toBe('expired');
      expect((await notify(payments.pay(third.orderNo, 100, Date.now() - 120_000))).statusCode).toBe(200);
      const late = await ok('alice', 'GET', `/card/getCardOrderItem?id=${third.id}`);
      expect(late.status).toBe('paid');
      expect(late.items[0].expiresAfter > late.items[0].expiresBefore).toBe(true);
      expect(await events(third.orderNo)).toEqual(['paid']);
    });

    it('names the field of an impossible date or an order amount past the limit, instead of failing', async () => {
      const date = await call('alice', 'POST', '/card/addCard', { iccid: ICCID(62), expiresAt: '2031-02-30' });
      expect(date).toMatchObject({ code: 40000, data: { field: 'expiresAt' } });
      // ¥10,000 a card and month, 12 months, 100 cards: ¥12,000,000, past the ¥10,000,000 an order may total.
      const big = await call('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 10000', 1_000_000), months: 12, cardIds: Array.from({ length: 100 }, () => cardA) });
      expect(big.code).toBe(20000); // the same card 100 times is one card: ¥120,000
      const many = await Promise.all(Array.from({ length: 99 }, (_, i) => addCard('alice', { iccid: ICCID(700 + i) })));
      const tooBig = await call('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 10000', 1_000_000), months: 12, cardIds: [cardA, ...many] });
      expect(tooBig).toMatchObject({ code: 40000, data: { field: 'cardIds' } });
    });

    it('expires unpaid orders past their deadline; cancels and deletes unpaid ones; tops up data', async () => {
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 100', 100), months: 1, cardIds: [cardA] });
      await t.database.db.execute(sql`update card_orders set pay_before = now() - interval '1 minute' where id = ${order.id}`);
      const list = await ok('alice', 'GET', '/card/getCardOrderList?status=expired');
      expect(list.items.map((o: any) => o.id)).toContain(order.id);
      expect((await notify(payments.pay(order.orderNo, 100))).statusCode).toBe(200);
      expect(await events(order.orderNo)).toEqual(['notPayable']);
      const other = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('topup', '512 MB', 300, 512), cardIds: [cardA] });
      // Another price of the same kind re-prices it; a renewal price is refused for a top-up.
      expect(await call('alice', 'POST', '/card/editCardOrder', { id: other.id, priceId: await price('renewal', 'IoT 100', 100) })).toMatchObject({
        code: 40000,
        data: { field: 'priceId', reason: 'priceKindMismatch' },
      });
      await ok('alice', 'POST', '/card/editCardOrder', { id: other.id, priceId: await price('topup', '512 MB plus', 400, 512) });
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${other.id}`)).amountCents).toBe(400);
      const before = (await card('alice', cardA)).dataAllowanceMb;
      await ok('alice', 'POST', '/wechat/simulatePay', { id: other.id });
      expect((await card('alice', cardA)).dataAllowanceMb).toBe(before + 512);
      const third = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 100', 100), months: 2, cardIds: [cardA] });
      await ok('alice', 'POST', '/card/editCardOrder', { id: third.id, status: 'cancelled' });
      expect(await ok('alice', 'DELETE', `/card/deleteCardOrder?id=${third.id},${order.id}`)).toEqual({ count: 2 });
      // §8: the console suppresses this message.
      expect(await call('alice', 'GET', `/card/getCardOrderItem?id=${third.id}`)).toMatchObject({ code: 40400, message: 'no card order data' });
    });
    it('takes an order’s price from the price list, which only card:price holders set; a price change leaves orders made', async () => {
      // ADMIN lacks card:price (a SUPERADMIN permission unless granted on): alice may order, not price.
      expect(await call('alice', 'POST', '/card/addPrice', { kind: 'renewal', plan: 'Cheap', unitPriceCents: 1 })).toMatchObject({
        code: 40300,
        data: { reason: 'missingPermission' },
      });
      expect((await call('alice', 'GET', '/card/getPriceList')).code).toBe(40300);
      const yearly = await price('renewal', 'IoT yearly', 1200);
      const off = await price('renewal', 'IoT retired', 900);
      await ok('admin', 'POST', '/card/editPrice', { id: off, enabled: false });
      const options = await ok('alice', 'GET', '/card/priceOptions');
      expect(options.map((p: any) => p.id)).toContain(yearly);
      expect(options.map((p: any) => p.id)).not.toContain(off);

      // A price sent by the caller is not a term of the order: the list's price is.
      const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: yearly, months: 2, unitPriceCents: 1, cardIds: [cardA] });
      expect(order.amountCents).toBe(2400);
      expect(await call('alice', 'POST', '/card/addCardOrder', { priceId: off, months: 1, cardIds: [cardA] })).toMatchObject({
        code: 40000,
        data: { field: 'priceId', reason: 'priceDisabled' },
      });
      expect(await call('alice', 'POST', '/card/addCardOrder', { priceId: 999_999, months: 1, cardIds: [cardA] })).toMatchObject({
        code: 40000,
        data: { field: 'priceId', reason: 'priceNotFound' },
      });
      expect(await call('admin', 'POST', '/card/addPrice', { kind: 'renewal', plan: 'IoT yearly', unitPriceCents: 5 })).toMatchObject({
        code: 40900,
        data: { field: 'plan', reason: 'priceTaken' },
      });
      expect(await call('admin', 'POST', '/card/addPrice', { kind: 'topup', plan: 'Nothing', unitPriceCents: 5 })).toMatchObject({
        code: 40000,
        data: { field: 'topupMb' },
      });

      // A new price applies to orders made from now on; the order already made keeps its amount,
      // also when its months change; deleting the price keeps the order and its terms.
      await ok('admin', 'POST', '/card/editPrice', { id: yearly, unitPriceCents: 1500 });
      expect((await ok('alice', 'POST', '/card/addCardOrder', { priceId: yearly, months: 2, cardIds: [cardA] })).amountCents).toBe(3000);
      await ok('alice', 'POST', '/card/editCardOrder', { id: order.id, months: 3 });
      expect(await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).toMatchObject({ amountCents: 3600, unitPriceCents: 1200, priceId: yearly });
      const list = await ok('admin', 'GET', '/card/getPriceList?kind=renewal&q=yearly');
      expect(list).toMatchObject({ total: 1, items: [{ id: yearly, plan: 'IoT yearly', unitPriceCents: 1500, enabled: true }] });
      expect(await ok('admin', 'DELETE', `/card/deletePrice?id=${yearly}`)).toEqual({ count: 1 });
      prices.delete('renewal/IoT yearly');
      expect(await ok('alice', 'GET', `/card/getCardOrderItem?id=${order.id}`)).toMatchObject({ amountCents: 3600, plan: 'IoT yearly', priceId: null });
      const log = await ok('admin', 'GET', '/logs/list?action=cardprice.edit&limit=5');
      expect(log.items[0]).toMatchObject({ username: 'admin', result: 'success' });
    });

    it('a refund takes back what the order gave: expiry and plan, or the data of a top-up', async () => {
      const c = await addCard('alice', { iccid: ICCID(63), expiresAt: '2031-06-30', plan: 'Old plan', dataAllowanceMb: 100 });
      const first = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT refund', 100), months: 2, cardIds: [c] });
      expect(await call('alice', 'POST', '/card/editCardOrder', { id: first.id, status: 'refunded' })).toMatchObject({ data: { reason: 'orderNotPaid' } });
      await ok('alice', 'POST', '/wechat/simulatePay', { id: first.id });
      expect(await card('alice', c)).toMatchObject({ expiresAt: '2031-08-30', plan: 'IoT refund' });
      await ok('alice', 'POST', '/card/editCardOrder', { id: first.id, status: 'refunded' });
      expect(await card('alice', c)).toMatchObject({ expiresAt: '2031-06-30', plan: 'Old plan' });
      expect((await ok('alice', 'GET', `/card/getCardOrderItem?id=${first.id}`)).status).toBe('refunded');
      // Refunded once: a second refund is refused and changes nothing.
      expect(await call('alice', 'POST', '/card/editCardOrder', { id: first.id, status: 'refunded' })).toMatchObject({ data: { reason: 'orderNotPaid' } });
      expect((await card('alice', c)).expiresAt).toBe('2031-06-30');

      // Renewed twice, the first refunded: the card keeps the second's months only.
      const a = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT refund', 100), months: 1, cardIds: [c] });
      await ok('alice', 'POST', '/wechat/simulatePay', { id: a.id });
      const b = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT refund', 100), months: 3, cardIds: [c] });
      await ok('alice', 'POST', '/wechat/simulatePay', { id: b.id });
      expect((await card('alice', c)).expiresAt).toBe('2031-10-30');
      await ok('alice', 'POST', '/card/editCardOrder', { id: a.id, status: 'refunded' });
      expect((await card('alice', c)).expiresAt).toBe('2031-09-30');

      const topup = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('topup', '1 GB', 500, 1024), cardIds: [c] });
      await ok('alice', 'POST', '/wechat/simulatePay', { id: topup.id });
      expect((await card('alice', c)).dataAllowanceMb).toBe(1124);
      await ok('alice', 'POST', '/card/editCardOrder', { id: topup.id, status: 'refunded' });
      expect((await card('alice', c)).dataAllowanceMb).toBe(100);
    });
  });

  it('refuses users outside the subtree and users without the permission', async () => {
    const id = await addCard('alice', { iccid: ICCID(70), msisdn: '1440000000170' });
    const order = await ok('alice', 'POST', '/card/addCardOrder', { priceId: await price('renewal', 'IoT 100', 100), months: 1, cardIds: [id] });
    expect((await call('bob', 'GET', `/card/getSimItem?id=${id}`)).code).toBe(40400);
    expect((await call('bob', 'POST', '/card/editCard', { id, plan: 'x' })).code).toBe(40400);
    expect((await call('bob', 'GET', `/card/sim_basic_info?id=${id}`)).code).toBe(40400);
    expect((await call('bob', 'POST', '/card/config_member_voice_whitelist', { id, operation: 'add', whiteNumber: '1' })).code).toBe(40400);
    expect((await call('bob', 'POST', '/card/addCardOrder', { months: 1, priceId: await price('renewal', 'IoT 100', 100), cardIds: [id] })).code).toBe(40400);
    expect((await call('bob', 'GET', `/card/getCardOrderItem?id=${order.id}`)).code).toBe(40400);
    expect((await call('bob', 'POST', '/wechat/simulatePay', { id: order.id })).code).toBe(40400);
    expect((await ok('bob', 'GET', '/card/getSimList?limit=200')).items.map((c: any) => c.id)).not.toContain(id);
    // BATTERYMANAGEMENT holds card:list only.
    expect((await call('viewer', 'GET', '/card/getSimList')).code).toBe(20000);
    expect(await call('viewer', 'POST', '/card/addCard', { iccid: ICCID(71) })).toMatchObject({ code: 40300, data: { reason: 'missingPermission' } });
    expect((await call('viewer', 'GET', '/card/getCardOrderList')).code).toBe(40300);
    expect((await call('viewer', 'POST', '/wechat/simulatePay', { id: order.id })).code).toBe(40300);
    const log = await ok('admin', 'GET', '/logs/list?action=card.add&limit=50');
    expect(log.items.some((r: any) => r.username === 'viewer' && r.result === 'failure')).toBe(true);
  });

  it('gives a video H5 URL for devices with a camera only', async () => {
    const plain = await ok('alice', 'POST', '/device/add', { name: 'No cam', sn: 'VID-1', typeId });
    const cam = await ok('alice', 'POST', '/device/add', { name: 'Cam', sn: 'VID-2', typeId, camera: true });
    expect((await call('alice', 'POST', '/getVideoH5Url', { deviceId: plain.id })).data.reason).toBe('noCamera');
    const v = await ok('alice', 'POST', '/getVideoH5Url', { deviceId: cam.id });
    expect(v.url).toMatch(/^\/sim-video\.html\?sn=VID-2&/);
    expect(v.provider).toBe('simulated');
    expect((await call('bob', 'POST', '/getVideoH5Url', { deviceId: cam.id })).code).toBe(40400);
  });
});
