import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createPartition, writeBatch } from '../../telemetry/ingest.repo.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const SOC = '02109001';
const CURRENT = '01112001';
const cell = (i: number) => `01117${String(i).padStart(3, '0')}`;
const temp = (i: number) => `01119${String(i).padStart(3, '0')}`;
const V = '01111001';
const CHG = '02117001';
const DIS = '02116001';

interface Dev {
  id: number;
  sn: string;
  secret: string;
}

/**
 * GET /home/battery over a hand-built fleet fed through the real HTTP ingestion path (and the
 * history rollups for the energy): exact histogram, states, top-5 lists and energy per local day,
 * the sub-user's subtree, the refusal without the permission.
 */
describe('home dashboard: battery style', () => {
  let t: TestApp;
  let admin: string;
  let sub: string;
  let typeId: number;
  const devs: Record<string, Dev> = {};
  const today = Math.floor(Date.now() / DAY) * DAY;
  const twoDaysAgo = today - 2 * DAY;

  const call = async (url: string, who = admin) => (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(who) })).json();
  const battery = async (who = admin, q = 'days=7&tz=UTC') => {
    const r = await call(`/home/battery?${q}`, who);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return r.data;
  };

  const addDevice = async (sn: string, who = admin, type = typeId): Promise<Dev> => {
    const r = (await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(who), payload: { name: `Pack ${sn}`, sn, typeId: type } })).json();
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return (devs[sn] = { id: r.data.id, sn, secret: r.data.secret });
  };

  /** One message through the device's HTTP uplink (paced: retried on 42900); answers the envelope. */
  const uplink = async (d: Dev, values: Record<string, unknown>, ts = Date.now()) => {
    const headers = { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` };
    for (;;) {
      const r = (await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers, payload: { ts, values } })).json();
      if (r.code !== 42900) return r;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const send = async (d: Dev, values: Record<string, unknown>, ts?: number) => {
    const r = await uplink(d, values, ts);
    expect(r.code, JSON.stringify(r)).toBe(20000);
  };

  beforeAll(async () => {
    t = await buildTestApp({ TELEMETRY_RETENTION_DAYS: '5', DEVICE_RATE_LIMIT: '1000' }, { ingest: { writer: { maxRows: 500, flushMs: 10, maxQueued: 5000 } } });
    for (let d = today - 3 * DAY; d <= today + DAY; d += DAY) await createPartition(t.database.db, new Date(d));
    admin = await t.login();
    typeId = (await call('/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
    await t.createUser({ username: 'bat-sub', password: 'bat-sub-pass-1', role: 'ADMIN' });
    sub = await t.login('bat-sub', 'bat-sub-pass-1');

    // The administrator's fleet.
    await send(await addDevice('BAT-1'), { [SOC]: 5, [CURRENT]: 10, [cell(1)]: 3.3, [cell(2)]: 3.35, [temp(1)]: 30, [temp(2)]: 42 });
    await send(await addDevice('BAT-2'), { [SOC]: 15.5, [CURRENT]: -20, [cell(1)]: 3.2, [cell(2)]: 3.2, [cell(3)]: 3.21, [temp(1)]: 25 });
    // A later message with one cell only: the spread is of every cell's newest voltage (3.2 … 3.25).
    await send(devs['BAT-2']!, { [cell(3)]: 3.25 }, Date.now() + 1000);
    // One cell: no spread.
    await send(await addDevice('BAT-3'), { [SOC]: 100, [CURRENT]: 0.1, [cell(1)]: 3.3, [temp(1)]: 50 });
    await send(await addDevice('BAT-4'), { [SOC]: 95, [CURRENT]: -0.2, [cell(1)]: 3.1, [cell(2)]: 3.4, [temp(1)]: 20 });
    // No current: state unknown.
    await send(await addDevice('BAT-5'), { [SOC]: 45, [temp(1)]: 35 });
    // Never reported: SOC and state unknown.
    await addDevice('BAT-6');
    // A SOC that is text is dropped alone (its reason in the device log); the rest of the message counts.
    await send(await addDevice('BAT-7'), { [SOC]: 'abc', [CURRENT]: 5 });
    await send(await addDevice('BAT-8'), { [SOC]: 60, [CURRENT]: -5 });
    // A device of a type without battery figures is not a battery at all.
    const plain = (await t.app.inject({ method: 'POST', url: '/api/v1/devicetype/addtype', headers: bearer(admin), payload: { code: 'PLAIN', name: 'Plain' } })).json();
    expect(plain.code, JSON.stringify(plain)).toBe(20000);
    await addDevice('PLAIN-1', admin, plain.data.id);
    // The energy pack, two days ago (UTC): 10 Ah charged 13:00–14:00, 20 Ah discharged 16:00–17:00, at 100 V.
    const e = await addDevice('BAT-E');
    await send(e, { [V]: 100, [CHG]: 0, [DIS]: 0 }, twoDaysAgo + 13 * HOUR);
    await send(e, { [V]: 100, [CHG]: 10, [DIS]: 0 }, twoDaysAgo + 14 * HOUR);
    await send(e, { [V]: 100, [CHG]: 10, [DIS]: 0 }, twoDaysAgo + 16 * HOUR);
    await send(e, { [V]: 100, [CHG]: 10, [DIS]: 20, [SOC]: 70, [CURRENT]: 0 }, twoDaysAgo + 17 * HOUR);
    // The sub-user's own pack: the lowest, hottest and least balanced of all.
    await send(await addDevice('SUB-1', sub), { [SOC]: 1, [CURRENT]: 3, [cell(1)]: 3.0, [cell(2)]: 3.5, [temp(1)]: 80 });
    // A batch with malformed battery values (text, NaN, an object), straight to the batch
    // transaction past the decoder: what a type without limits or a decoder bug could let through
    // is skipped alone and does not fail the batch.
    const m1 = await addDevice('BAT-M1');
    const m2 = await addDevice('BAT-M2');
    const ts = new Date().toISOString();
    await writeBatch(t.database.db, {
      telemetry: [
        { deviceId: m1.id, ts, vals: { [SOC]: 'abc', [CURRENT]: Number.NaN, [cell(1)]: '3.3', [cell(2)]: { x: 1 }, [temp(1)]: true } },
        { deviceId: m2.id, ts, vals: { [SOC]: 33, [CURRENT]: -2, [cell(1)]: 3.3, [cell(2)]: 3.31, [temp(1)]: 31 } },
      ],
      positions: [],
      logs: [],
      seen: [],
    });
    // The past days rolled up (and their energy with them): five, the retention.
    await t.app.rollups.run();
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const ranked = (list: { sn: string }[]) => list.map((x) => x.sn);

  it('counts the SOC histogram and the states exactly, unknown where a battery has no value', async () => {
    const b = await battery();
    expect(b.soc).toEqual({ buckets: [2, 1, 0, 1, 1, 0, 1, 1, 0, 2], unknown: 3 });
    expect(b.states).toEqual({ charging: 3, discharging: 3, idle: 3, unknown: 3 });
  });

  it('ranks the lowest-SOC, hottest and least balanced packs, five at most', async () => {
    const b = await battery();
    expect(b.lowestSoc).toEqual([
      { id: devs['SUB-1']!.id, name: 'Pack SUB-1', sn: 'SUB-1', soc: 1 },
      { id: devs['BAT-1']!.id, name: 'Pack BAT-1', sn: 'BAT-1', soc: 5 },
      { id: devs['BAT-2']!.id, name: 'Pack BAT-2', sn: 'BAT-2', soc: 15.5 },
      { id: devs['BAT-M2']!.id, name: 'Pack BAT-M2', sn: 'BAT-M2', soc: 33 },
      { id: devs['BAT-5']!.id, name: 'Pack BAT-5', sn: 'BAT-5', soc: 45 },
    ]);
    expect(b.hottest.map((x: { sn: string; temperature: number }) => [x.sn, x.temperature])).toEqual([
      ['SUB-1', 80], ['BAT-3', 50], ['BAT-1', 42], ['BAT-5', 35], ['BAT-M2', 31],
    ]);
    // Largest cell-voltage spread in mV; BAT-1 and BAT-2 tie at 50 mV (id order).
    expect(b.imbalance.map((x: { sn: string; deltaMv: number }) => [x.sn, x.deltaMv])).toEqual([
      ['SUB-1', 500], ['BAT-4', 300], ['BAT-1', 50], ['BAT-2', 50], ['BAT-M2', 10],
    ]);
  });

  it('sums energy per local day from the rollups, split at the time zone’s midnight; today unknown', async () => {
    const utc = (await battery(admin, 'days=7&tz=UTC')).energy as { date: string; chargedKwh: number | null; dischargedKwh: number | null }[];
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(utc.map((d) => d.date)).toEqual(Array.from({ length: 7 }, (_, i) => day(today - (6 - i) * DAY)));
    expect(utc.at(-1)).toEqual({ date: day(today), chargedKwh: null, dischargedKwh: null });
    expect(utc.find((d) => d.date === day(twoDaysAgo))).toEqual({ date: day(twoDaysAgo), chargedKwh: 1, dischargedKwh: 2 });
    // Rolled up, but no battery reported its counters: unknown, not zero.
    expect(utc.find((d) => d.date === day(today - DAY))).toEqual({ date: day(today - DAY), chargedKwh: null, dischargedKwh: null });

    // Tokyo (UTC+9): 13:00 UTC is 22:00 the same day, 16:00 UTC is 01:00 the next.
    const tokyo = (await battery(admin, 'days=30&tz=Asia%2FTokyo')).energy as typeof utc;
    expect(tokyo).toHaveLength(30);
    const tokyoToday = new Date(Date.now() + 9 * HOUR).toISOString().slice(0, 10);
    expect(tokyo.at(-1)).toEqual({ date: tokyoToday, chargedKwh: null, dischargedKwh: null });
    expect(tokyo.find((d) => d.date === day(twoDaysAgo))).toEqual({ date: day(twoDaysAgo), chargedKwh: 1, dischargedKwh: 0 });
    expect(tokyo.find((d) => d.date === day(twoDaysAgo + DAY))).toEqual({ date: day(twoDaysAgo + DAY), chargedKwh: 0, dischargedKwh: 2 });
    expect(tokyo.filter((d) => d.chargedKwh !== null)).toHaveLength(2);
  });

  it('shows a sub-user only its subtree', async () => {
    const b = await battery(sub);
    expect(b.soc).toEqual({ buckets: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0], unknown: 0 });
    expect(b.states).toEqual({ charging: 1, discharging: 0, idle: 0, unknown: 0 });
    expect(ranked(b.lowestSoc)).toEqual(['SUB-1']);
    expect(ranked(b.hottest)).toEqual(['SUB-1']);
    expect(ranked(b.imbalance)).toEqual(['SUB-1']);
    // The administrator's energy is not the sub-user's: none of its batteries reported counters.
    expect(b.energy.every((d: { chargedKwh: number | null; dischargedKwh: number | null }) => d.chargedKwh === null && d.dischargedKwh === null)).toBe(true);
  });

  it('refuses without a token or without home:view, and validates its input by field', async () => {
    await t.database.db.execute(sql`insert into roles (name, identification) values ('No dashboard', 'NODASH')`);
    await t.createUser({ username: 'bat-nodash', password: 'bat-nodash-pass-1', role: 'NODASH' });
    const denied = await call('/home/battery?days=7&tz=UTC', await t.login('bat-nodash', 'bat-nodash-pass-1'));
    expect(denied.code).toBe(40300);
    expect(denied.data).toMatchObject({ reason: 'missingPermission' });
    const anon = (await t.app.inject({ method: 'GET', url: '/api/v1/home/battery?days=7&tz=UTC' })).json();
    expect(anon.code).toBe(50008);
    const bad = await call('/home/battery?days=9&tz=UTC');
    expect(bad.code).toBe(40000);
    expect(JSON.stringify(bad)).toContain('days');
    const zone = await call('/home/battery?days=7&tz=Mars%2FOlympus');
    expect(zone.code).toBe(40000);
    expect(JSON.stringify(zone)).toContain('tz');
  });

  it('a batch with a malformed battery value (text, NaN) keeps everyone else’s figures', async () => {
    const rows = (
      (await t.database.db.execute(sql`select device_id, soc, current, state, max_cell_temp, cell_delta_mv from device_battery
        where device_id in (${devs['BAT-M1']!.id}, ${devs['BAT-M2']!.id}) order by device_id`)) as unknown as { rows: Record<string, unknown>[] }
    ).rows;
    expect(rows).toEqual([
      { device_id: devs['BAT-M1']!.id, soc: null, current: null, state: null, max_cell_temp: null, cell_delta_mv: null },
      { device_id: devs['BAT-M2']!.id, soc: 33, current: -2, state: 'discharging', max_cell_temp: 31, cell_delta_mv: 10 },
    ]);
  });
});
