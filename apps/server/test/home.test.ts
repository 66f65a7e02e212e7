import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode, LiveType, type LiveServerMessage } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { connectLive } from './live-client.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** `YYYY-MM-DD` of an instant in a time zone. */
const localDate = (ms: number, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(ms);

/**
 * The home dashboard (/home/*) against a hand-built fleet written straight into the database:
 *
 * users: admin (super, /1/), sub (/1/S/), other (/1/O/), nohome (a role without home:view)
 * projects: P1 of sub, P2 of other shared with sub, P3 of admin
 * devices: d1 sub·P1 online, phones, SIM = card c1 (voice 100, used 30)
 *          d2 sub·P1 offline, seen 2 h ago
 *          d3 sub offline, never seen
 *          d4 other·P2 online, two phones, SIM = MSISDN of card c2 (no voice data)
 *          d5 other offline, seen 3 days ago
 *          d6 admin·P3 offline, seen 1 h ago, phone field without a number
 * alarms (T0 = today's midnight in Tokyo):
 *          a1 d1 L4 open untreated T0+10s call-out    a2 d1 L2 ended processed T0+60s
 *          a3 d2 L3 open untreated T0−60s             a4 d4 L1 ended untreated now−3d
 *          a5 d5 L4 open untreated now−1d             a6 d6 L2 ended untreated now−40d
 *          a7 d4 L1 open untreated T0+20s call-out    a8 d1 L3 ended processed T0−6d+60s
 *          a9 d1 L3 ended processed T0−6d−60s
 */
describe('home dashboard figures', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const TZ = 'Asia/Tokyo';
  const now = Date.now();
  // Tokyo is UTC+9 all year: its midnight today, in UTC.
  const T0 = Math.floor((now + 9 * HOUR) / DAY) * DAY - 9 * HOUR;
  const at: Record<string, number> = {};

  const get = async (who: string, url: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(tok[who]!) })).json() as {
      code: number;
      message: string;
      data: any;
    };
  const ok = async (who: string, url: string) => {
    const r = await get(who, url);
    expect(r.code, `${url}: ${JSON.stringify(r)}`).toBe(20000);
    return r.data;
  };

  beforeAll(async () => {
    // The fixture's "today" alarms sit in the first minute of Tokyo's day: wait past it if needed.
    if (Date.now() - T0 < 2 * MIN) await new Promise((r) => setTimeout(r, 2 * MIN - (Date.now() - T0)));
    t = await buildTestApp();
    const db = t.database.db;
    const q = async <T = Record<string, unknown>>(s: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(s));
    ids.sub = await t.createUser({ username: 'home-sub', password: 'home-sub-pass', role: 'ADMIN' });
    ids.other = await t.createUser({ username: 'home-other', password: 'home-other-pass', role: 'ADMIN' });
    const [role] = await q<{ id: number }>(sql`insert into roles (name, identification) values ('No home', 'NOHOME') returning id`);
    await db.execute(sql`insert into role_permissions (role_id, permission_id)
      select ${role!.id}, id from permissions where identification in ('device:list', 'alarm:list')`);
    ids.nohome = await t.createUser({ username: 'home-nohome', password: 'home-nohome-pass', role: 'NOHOME' });
    tok.admin = await t.login();
    tok.sub = await t.login('home-sub', 'home-sub-pass');
    tok.other = await t.login('home-other', 'home-other-pass');
    tok.nohome = await t.login('home-nohome', 'home-nohome-pass');

    const project = async (name: string, owner: number, path: string) =>
      (await q<{ id: number }>(sql`insert into projects (name, owner_id, owner_path) values (${name}, ${owner}, ${path}) returning id`))[0]!.id;
    ids.P1 = await project('P1', ids.sub, `/1/${ids.sub}/`);
    ids.P2 = await project('P2', ids.other, `/1/${ids.other}/`);
    ids.P3 = await project('P3', 1, '/1/');
    await db.execute(sql`insert into project_users (project_id, user_id) values (${ids.P2}, ${ids.sub})`);

    const [type] = await q<{ id: number }>(sql`select id from device_types where code = 'BMU'`);
    const device = async (
      key: string,
      owner: string,
      projectId: number | null,
      online: boolean,
      seen: number | null,
      extra: { phone?: string; sim?: string } = {},
    ) => {
      const [d] = await q<{ id: number }>(sql`
        insert into devices (sn, name, type_id, owner_path, project_id, online, alarm_phone, sim_number)
        values (${`HOME-${key}`}, ${`Home ${key}`}, ${type!.id}, ${owner}, ${projectId}, ${online}, ${extra.phone ?? ''}, ${extra.sim ?? ''})
        returning id`);
      ids[key] = d!.id;
      if (seen !== null) await db.execute(sql`update device_presence set last_seen_at = ${new Date(seen).toISOString()} where device_id = ${d!.id}`);
    };
    const sub = `/1/${ids.sub}/`;
    const other = `/1/${ids.other}/`;
    await device('d1', sub, ids.P1, true, now, { phone: '138 0000 0001', sim: '89860000000000000001' });
    await device('d2', sub, ids.P1, false, now - 2 * HOUR);
    await device('d3', sub, null, false, null);
    await device('d4', other, ids.P2, true, now, { phone: '+34 600 000 000,139', sim: '8613800000004' });
    await device('d5', other, null, false, now - 3 * DAY);
    await device('d6', '/1/', ids.P3, false, now - HOUR, { phone: ' , ' });

    const alarm = async (key: string, dev: string, level: number, started: number, open: boolean, state: string, callout = false) => {
      at[key] = started;
      const iso = new Date(started).toISOString();
      await db.execute(sql`
        insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at, state, callout)
        values (${ids[dev]!}, ${`k-${key}`}, 'device', ${key}, ${level}, ${iso}, ${open ? null : iso}, ${state}, ${callout})`);
    };
    await alarm('a1', 'd1', 4, T0 + 10_000, true, 'untreated', true);
    await alarm('a2', 'd1', 2, T0 + 60_000, false, 'processed');
    await alarm('a3', 'd2', 3, T0 - 60_000, true, 'untreated');
    await alarm('a4', 'd4', 1, now - 3 * DAY, false, 'untreated');
    await alarm('a5', 'd5', 4, now - DAY, true, 'untreated');
    await alarm('a6', 'd6', 2, now - 40 * DAY, false, 'untreated');
    await alarm('a7', 'd4', 1, T0 + 20_000, true, 'untreated', true);
    await alarm('a8', 'd1', 3, T0 - 6 * DAY + 60_000, false, 'processed');
    await alarm('a9', 'd1', 3, T0 - 6 * DAY - 60_000, false, 'processed');
    // The alarm engine keeps each device's warning level (the highest of its open alarms).
    await db.execute(sql`update devices d set warning_level = coalesce((select max(a.level) from alarms a
      where a.device_id = d.id and a.ended_at is null), 0)`);

    // What was sent for a1: an SMS and a call accepted, an SMS failed for good, a call still to be
    // retried, one SMS held back by the rate limit. a7 sent nothing (no provider answered).
    await db.execute(sql`
      insert into alarm_notices (alarm_id, device_id, channel, phone, recipient, state)
      select a.id, a.device_id, v.channel, '13800000001', 'device', v.state
      from alarms a, (values ('sms', 'sent'), ('call', 'sent'), ('sms', 'failed'), ('call', 'pending'), ('sms', 'limited')) v(channel, state)
      where a.semaphore_id = 'a1'`);
    await db.execute(sql`insert into sim_cards (iccid, msisdn, voice_allowance_min, voice_used_min, owner_path) values
      ('89860000000000000001', '', 100, 30, '/1/'),
      ('89860000000000000002', '8613800000004', 0, 0, '/1/'),
      ('89860000000000000003', '', 500, 0, '/1/')`);
  });
  afterAll(() => t.close());

  it('device totals: all, online, offline, alarming (an open alarm), never seen; a sub-user counts its subtree and shared projects', async () => {
    expect(await ok('admin', '/home/devicetotals')).toEqual({ total: 6, online: 2, offline: 4, alarming: 4, neverSeen: 1 });
    // sub: its d1–d3 and d4 of the project shared with it.
    expect(await ok('sub', '/home/devicetotals')).toEqual({ total: 4, online: 2, offline: 2, alarming: 3, neverSeen: 1 });
    expect(await ok('other', '/home/devicetotals')).toEqual({ total: 2, online: 1, offline: 1, alarming: 2, neverSeen: 0 });
  });

  it('the summary: devices, projects, alarms today in the caller’s zone, untreated, total, and the stored style', async () => {
    await t.database.db.execute(sql`update users set dashboard_style = 'voice' where id = ${ids.sub!}`);
    expect(await ok('admin', `/home/list?tz=${TZ}`)).toEqual({
      devices: { total: 6, online: 2, offline: 4, alarming: 4, neverSeen: 1 },
      projects: { total: 3 },
      alarms: { today: 3, untreated: 6, total: 9 },
      style: 'default',
    });
    expect(await ok('sub', `/home/list?tz=${TZ}`)).toEqual({
      devices: { total: 4, online: 2, offline: 2, alarming: 3, neverSeen: 1 },
      projects: { total: 2 },
      alarms: { today: 3, untreated: 4, total: 7 },
      style: 'voice',
    });
  });

  it('alarms per level: untreated, today, total, always four levels', async () => {
    expect((await ok('admin', `/home/levelnum?tz=${TZ}`)).levels).toEqual([
      { level: 1, untreated: 2, today: 1, total: 2 },
      { level: 2, untreated: 1, today: 1, total: 2 },
      { level: 3, untreated: 1, today: 0, total: 3 },
      { level: 4, untreated: 2, today: 1, total: 2 },
    ]);
    expect((await ok('sub', `/home/levelnum?tz=${TZ}`)).levels).toEqual([
      { level: 1, untreated: 2, today: 1, total: 2 },
      { level: 2, untreated: 0, today: 1, total: 1 },
      { level: 3, untreated: 1, today: 0, total: 3 },
      { level: 4, untreated: 1, today: 1, total: 1 },
    ]);
  });

  it('the totals per level follow processing, a device moved into a shared project, new and deleted alarms', async () => {
    const db = t.database.db;
    const levels = async (who: string) => (await ok(who, `/home/levelnum?tz=${TZ}`)).levels as { level: number; untreated: number; total: number }[];
    const l4 = async (who: string) => {
      const l = (await levels(who))[3]!;
      return [l.untreated, l.total];
    };
    // Every counter row agrees with the alarms themselves.
    const agrees = async () => {
      const drift = rowsOf(await db.execute(sql`
        select * from (select owner_path, coalesce(project_id, 0) as project_id, level, state, count(*)::int as n
                       from alarms group by 1, 2, 3, 4) a
        full join (select owner_path, project_id, level, state, n::int from alarm_counts where n <> 0) c
          using (owner_path, project_id, level, state)
        where a.n is distinct from c.n`));
      expect(drift).toEqual([]);
    };
    await agrees();
    expect(await l4('admin')).toEqual([2, 2]);
    expect(await l4('sub')).toEqual([1, 1]);

    // a5 (d5 of other, L4) processed through the API: untreated falls, the total stays.
    const a5 = rowsOf<{ id: number }>(await db.execute(sql`select id::int as id from alarms where semaphore_id = 'a5'`))[0]!.id;
    const processed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device/processalarm',
      headers: bearer(tok.admin!),
      payload: { ids: [a5], state: 'processed' },
    });
    expect(processed.json().code).toBe(20000);
    expect(await l4('admin')).toEqual([1, 2]);
    await agrees();

    // d5 moved into P1 (sub's project): its alarm follows (migration 0030), and sub now counts it.
    await db.execute(sql`update devices set project_id = ${ids.P1!} where id = ${ids.d5!}`);
    expect(await l4('sub')).toEqual([1, 2]);
    await agrees();

    // A new alarm and its deletion.
    await db.execute(sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, state, started_at)
      values (${ids.d6!}, 'k-extra', 'device', 'extra', 4, 'untreated', now() - interval '50 days')`);
    expect(await l4('admin')).toEqual([2, 3]);
    expect(await l4('sub')).toEqual([1, 2]);
    await db.execute(sql`delete from alarms where semaphore_id = 'extra'`);
    await agrees();

    // Back as the fixture was, for the other tests.
    await db.execute(sql`update devices set project_id = null where id = ${ids.d5!}`);
    await db.execute(sql`update alarms set state = 'untreated', processed_at = null, processed_by = null, processed_by_name = null, note = '' where id = ${a5}`);
    expect(await l4('admin')).toEqual([2, 2]);
    expect(await l4('sub')).toEqual([1, 1]);
    await agrees();
  });

  it('alarms per local day and level: the day boundary follows the time zone; the period starts at a local midnight', async () => {
    const week = (await ok('admin', `/home/alarmnum?days=7&tz=${TZ}`)).days as { date: string; counts: number[] }[];
    expect(week).toHaveLength(7);
    expect(week[6]!.date).toBe(localDate(now, TZ));
    expect(week[0]!.date).toBe(localDate(T0 - 6 * DAY, TZ));
    const byDate = (days: { date: string; counts: number[] }[]) => Object.fromEntries(days.filter((d) => d.counts.some((n) => n > 0)).map((d) => [d.date, d.counts]));
    // Tokyo: a1, a7 (L1) and a2 today; a3 the minute before midnight is yesterday; a8 on the first
    // day of the week, a9 a minute before it is outside; a4 and a5 where they fall.
    const expected: Record<string, number[]> = {};
    const add = (key: string, level: number) => {
      const d = localDate(at[key]!, TZ);
      expected[d] ??= [0, 0, 0, 0];
      expected[d]![level - 1]!++;
    };
    for (const [key, level] of [['a1', 4], ['a2', 2], ['a3', 3], ['a4', 1], ['a5', 4], ['a7', 1], ['a8', 3]] as const) add(key, level);
    expect(byDate(week)).toEqual(expected);
    expect(week[6]!.counts).toEqual([1, 1, 0, 1]);
    expect(week[5]!.counts[2]).toBe(1); // a3
    expect(week[0]!.counts).toEqual([0, 0, 1, 0]); // a8, not a9

    const month = (await ok('admin', `/home/alarmnum?days=30&tz=${TZ}`)).days as { date: string; counts: number[] }[];
    expect(month).toHaveLength(30);
    add('a9', 3);
    expect(byDate(month)).toEqual(expected);

    // In UTC the minutes around Tokyo's midnight are one day.
    const utc = (await ok('admin', '/home/alarmnum?days=7&tz=UTC')).days as { date: string; counts: number[] }[];
    const around = utc.find((d) => d.date === localDate(T0, 'UTC'))!;
    expect(around.counts[0]! + around.counts[1]! + around.counts[2]! + around.counts[3]!).toBeGreaterThanOrEqual(4); // a1, a2, a3, a7
  });

  it('top 5 devices and projects by alarms started in the period, most first, ties by id', async () => {
    const d = (key: string, count: number) => ({ id: ids[key], name: `Home ${key}`, sn: `HOME-${key}`, count });
    const p = (key: string, count: number) => ({ id: ids[key], name: key, count });
    expect(await ok('admin', `/home/gettop5?days=30&tz=${TZ}`)).toEqual({
      devices: [d('d1', 4), d('d4', 2), d('d2', 1), d('d5', 1)],
      projects: [p('P1', 5), p('P2', 2)],
    });
    expect(await ok('admin', `/home/gettop5?days=7&tz=${TZ}`)).toEqual({
      devices: [d('d1', 3), d('d4', 2), d('d2', 1), d('d5', 1)],
      projects: [p('P1', 4), p('P2', 2)],
    });
    expect(await ok('sub', `/home/gettop5?days=30&tz=${TZ}`)).toEqual({
      devices: [d('d1', 4), d('d4', 2), d('d2', 1)],
      projects: [p('P1', 5), p('P2', 2)],
    });
  });

  it('projects with the most devices, their online and alarming devices', async () => {
    expect(await ok('admin', '/home/projectlist')).toEqual({
      total: 3,
      items: [
        { id: ids.P1, name: 'P1', devices: 2, online: 1, alarming: 2, weather: false },
        { id: ids.P2, name: 'P2', devices: 1, online: 1, alarming: 1, weather: false },
        { id: ids.P3, name: 'P3', devices: 1, online: 0, alarming: 0, weather: false },
      ],
    });
    expect(await ok('sub', '/home/projectlist')).toEqual({
      total: 2,
      items: [
        { id: ids.P1, name: 'P1', devices: 2, online: 1, alarming: 2, weather: false },
        { id: ids.P2, name: 'P2', devices: 1, online: 1, alarming: 1, weather: false },
      ],
    });
  });

  it('the device list per state, paged; offline24h is offline now and seen within 24 h, newest first', async () => {
    const list = async (who: string, query: string) => (await ok(who, `/home/devicelist?${query}`)) as { total: number; items: { id: number; openAlarms: number; maxLevel: number; online: boolean; lastSeenAt: string | null; projectName: string | null }[] };
    const idsOf = (r: { items: { id: number }[] }) => r.items.map((i) => i.id);
    const k = (...keys: string[]) => keys.map((x) => ids[x]);
    const all = await list('admin', 'state=all');
    expect(idsOf(all)).toEqual(k('d6', 'd5', 'd4', 'd3', 'd2', 'd1'));
    expect(all.total).toBe(6);
    expect(all.items.find((i) => i.id === ids.d1)).toMatchObject({ openAlarms: 1, maxLevel: 4, online: true, projectName: 'P1' });
    expect(all.items.find((i) => i.id === ids.d3)).toMatchObject({ openAlarms: 0, maxLevel: 0, lastSeenAt: null, projectName: null });
    expect(idsOf(await list('admin', 'state=online'))).toEqual(k('d4', 'd1'));
    expect(idsOf(await list('admin', 'state=offline'))).toEqual(k('d6', 'd5', 'd3', 'd2'));
    const alarming = await list('admin', 'state=alarming');
    expect(alarming.items.map((i) => [i.id, i.openAlarms, i.maxLevel])).toEqual([
      [ids.d5, 1, 4],
      [ids.d4, 1, 1],
      [ids.d2, 1, 3],
      [ids.d1, 1, 4],
    ]);
    expect(idsOf(await list('admin', 'state=offline24h'))).toEqual(k('d6', 'd2'));
    expect(idsOf(await list('sub', 'state=offline24h'))).toEqual(k('d2'));
    expect(idsOf(await list('sub', 'state=all'))).toEqual(k('d4', 'd3', 'd2', 'd1'));
    const page2 = await list('admin', 'state=all&page=2&limit=2');
    expect(idsOf(page2)).toEqual(k('d4', 'd3'));
    expect(page2.total).toBe(6);
  });

  it('voice: devices with phone numbers, call-outs today and in the period, the latest with what was sent, voice minutes known or unknown', async () => {
    const admin = await ok('admin', `/home/voice?days=7&tz=${TZ}`);
    expect(admin).toEqual({
      devicesWithPhones: 2,
      calloutAlarms: { today: 2, period: 2 },
      recent: [
        { alarmId: expect.any(Number), deviceId: ids.d4, deviceName: 'Home d4', level: 1, startedAt: new Date(at.a7!).toISOString(), phones: ['+34 600 000 000', '139'],
          notices: { sms: 0, calls: 0, failed: 0, waiting: 0, limited: 0 } },
        { alarmId: expect.any(Number), deviceId: ids.d1, deviceName: 'Home d1', level: 4, startedAt: new Date(at.a1!).toISOString(), phones: ['138 0000 0001'],
          notices: { sms: 1, calls: 1, failed: 1, waiting: 1, limited: 1 } },
      ],
      // c1 (d1's ICCID) has 70 minutes left; c2 (d4's MSISDN) has no voice data; c3 is no device's.
      voiceMinutes: { left: 70, cards: 2, known: 1 },
    });
    // other sees d4 and d5: one card, without voice data: unknown, not 0.
    const other = await ok('other', `/home/voice?days=30&tz=${TZ}`);
    expect(other.voiceMinutes).toEqual({ left: null, cards: 1, known: 0 });
    expect(other.devicesWithPhones).toBe(1);
    expect(other.calloutAlarms).toEqual({ today: 1, period: 1 });
  });

  it('refuses a caller without home:view on every route', async () => {
    for (const path of ['list', 'devicetotals', 'projectlist', 'levelnum', 'alarmnum', 'gettop5', 'devicelist', 'voice', 'battery']) {
      const r = await get('nohome', `/home/${path}`);
      expect(r.code, path).toBe(ErrorCode.FORBIDDEN);
    }
  });

  it('bad days, tz or state answer 40000 naming the field', async () => {
    for (const [url, field] of [
      ['/home/alarmnum?days=14', 'days'],
      ['/home/gettop5?days=abc', 'days'],
      ['/home/voice?tz=Mars/Olympus', 'tz'],
      ['/home/alarmnum?tz=UTC%27%3B', 'tz'],
      ['/home/list?tz=', 'tz'],
      ['/home/devicelist?state=broken', 'state'],
      ['/home/devicelist?limit=1000', 'limit'],
    ] as const) {
      const r = await get('admin', url);
      expect(r.code, url).toBe(ErrorCode.VALIDATION);
      expect(r.data?.field, url).toBe(field);
    }
  });
});

/** Live message 170 through the real ingestion path and a real socket. */
describe('home dashboard live changes (170)', () => {
  let t: TestApp;
  let token: string;
  let typeId: number;
  const api = async (method: 'GET' | 'POST', url: string, payload?: object, tok = token) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(tok), payload })).json();
  const ok = async (method: 'GET' | 'POST', url: string, payload?: object, tok = token) => {
    const r = await api(method, url, payload, tok);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return r.data;
  };
  const basic = (d: { sn: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` });
  const send = async (d: { sn: string; secret: string }, values: Record<string, unknown>, ts = Date.now()) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: basic(d), payload: { ts, values } });
    expect(r.json().code, r.body).toBe(20000);
  };
  const addDevice = async (sn: string, alarmPhone = '') => {
    const d = await ok('POST', '/device/add', { name: sn, sn, typeId, alarmPhone });
    return { id: d.id as number, sn, secret: d.secret as string };
  };
  const live = async (tok: string, userId: number) => {
    const port = (t.app.server.address() as { port: number }).port;
    const c = connectLive(`ws://127.0.0.1:${port}/api/v1/ws`);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId, token: tok, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    return c;
  };
  const homes = (got: LiveServerMessage[]) => got.filter((m) => m.type === LiveType.HOME_CHANGED);

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { seenWriteMs: 0, writer: { maxRows: 500, flushMs: 5, maxQueued: 5000, concurrency: 3 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = await t.login();
    typeId = (await ok('POST', '/devicetype/addtype', { code: 'HOMELIVE', name: '首页', nameEn: 'Home live' })).id;
    await ok('POST', '/devicetype/addsetparam', {
      id: typeId,
      params: [
        { semaphoreId: 'V', name: '电压', nameEn: 'Voltage', dataType: 'number', sort: 1 },
        { semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 2 },
      ],
    });
    await ok('POST', '/devicetype/addsetalarm', {
      id: typeId,
      rules: [
        { semaphoreId: 'V', comparison: 'lt', threshold: 10, level: 2, message: '欠压', messageEn: 'Under-voltage' },
        { semaphoreId: 'V', comparison: 'lt', threshold: 5, level: 4, message: '严重欠压', messageEn: 'Severe under-voltage' },
        { semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 1, message: '过热', messageEn: 'Hot' },
      ],
    });
  });
  afterAll(() => t.close());

  it('an alarm raised through ingestion yields one 170 within 2 s to who may see the device; a burst at most one a second', async () => {
    const d = await addDevice('HOME-LIVE-1');
    await t.createUser({ username: 'home-stranger', password: 'stranger-pass-1', role: 'ADMIN' });
    const strangerToken = await t.login('home-stranger', 'stranger-pass-1');
    const strangerId = (await ok('GET', '/user/info', undefined, strangerToken)).id as number;
    const me = await live(token, 1);
    const stranger = await live(strangerToken, strangerId);
    // Let the device's first contact (online) settle, then start from a quiet channel.
    await send(d, { V: 50 });
    await new Promise((r) => setTimeout(r, 1500));
    const before = homes(me.received).length;

    const sent = Date.now();
    await send(d, { V: 8 });
    await me.until(() => homes(me.received).length > before, 2000);
    expect(me.arrived[me.received.lastIndexOf(homes(me.received).at(-1)!)]! - sent).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 1200));
    expect(homes(me.received).length).toBe(before + 1);

    // A burst of alarms starting and ending: at most one 170 per second.
    const burstStart = me.received.length;
    for (let i = 0; i < 12; i++) {
      await send(d, { V: i % 2 === 0 ? 11 : 8 });
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1200));
    // The server's send times (the message's timestamp): arrival on a loaded machine jitters.
    const times = me.received
      .slice(burstStart)
      .flatMap((m) => (m.type === LiveType.HOME_CHANGED ? [m.timestamp] : []));
    expect(times.length).toBeGreaterThan(0);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(995);
    expect(homes(stranger.received)).toEqual([]);
    me.ws.close();
    stranger.ws.close();
  });

  it('the engine records a call-out due: device with a phone, level at least its open alarms’ highest', async () => {
    const withPhone = await addDevice('HOME-CALL-1', '138 0000 0001');
    const without = await addDevice('HOME-CALL-2');
    await send(withPhone, { V: 8 }, Date.now() - 3000); // L2 opens, nothing open: due
    await send(withPhone, { V: 4 }, Date.now() - 2000); // L4 opens over the open L2: due
    await send(withPhone, { T: 60 }, Date.now() - 1000); // L1 opens under the open L4: not due
    await send(without, { V: 4 }, Date.now() - 2000); // L2 and L4, no phone: not due
    const rows = async () =>
      rowsOf<{ device_id: number; level: number; callout: boolean }>(
        await t.database.db.execute(sql`select device_id, level, callout from alarms
          where device_id in (${withPhone.id}, ${without.id}) order by device_id, level`),
      ).map((r) => [r.device_id, r.level, r.callout]);
    await expect.poll(rows).toEqual([
      [withPhone.id, 1, false],
      [withPhone.id, 2, true],
      [withPhone.id, 4, true],
      [without.id, 2, false],
      [without.id, 4, false],
    ]);
    const v = await ok('GET', '/home/voice?days=7');
    expect(v.devicesWithPhones).toBe(1);
    expect(v.calloutAlarms.period).toBe(2);
    expect(v.recent.map((r: { level: number }) => r.level)).toEqual([4, 2]);
  });
});
