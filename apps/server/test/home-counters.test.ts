import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { pruneTrendCounters, TREND_COUNTER_DAYS } from '../src/modules/home/home.repo.js';
import { Retention } from '../src/lib/retention.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/**
 * The trend and top 5 projects read counters (migration 0068, decision 0041): after every kind of
 * change of the alarm rows — insert, processing, deletion, a device moved into a shared project or
 * to another owner — /home/alarmnum and /home/gettop5 answer what counting the alarms themselves
 * answers, for the administrator, a user and a user seeing a shared project, in zones whose
 * midnights fall on different quarters of the UTC hour, with alarms a second either side of them.
 *
 * users: sub (/1/S/) with its sub-user leaf (/1/S/L/), other (/1/O/)
 * projects: P1 of sub, P2 of other shared with leaf, P3 of the administrator
 */
describe('home dashboard counters', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const ZONES = ['UTC', 'Asia/Tokyo', 'Asia/Kolkata', 'Asia/Kathmandu', 'America/New_York', 'Pacific/Chatham'];
  const WHO = ['admin', 'sub', 'leaf', 'other'];
  const paths: Record<string, string | undefined> = {};

  const ok = async (who: string, url: string) => {
    const r = (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(tok[who]!) })).json();
    expect(r.code, `${url}: ${JSON.stringify(r)}`).toBe(20000);
    return r.data;
  };
  const q = async <T>(s: ReturnType<typeof sql>) => rowsOf<T>(await t.database.db.execute(s));

  /** What the dashboard showed before the counters: the alarms of the caller's scope, counted. */
  const scope = (who: string) => {
    const p = paths[who];
    if (!p) return sql`true`;
    return sql`(a.owner_path like ${`${p}%`} or a.project_id in (select pr.id from projects pr where pr.owner_path like ${`${p}%`}
      or exists (select 1 from project_users pu join users u on u.id = pu.user_id where pu.project_id = pr.id and u.path like ${`${p}%`})))`;
  };
  const start = (tz: string, days: number) =>
    sql`((date_trunc('day', now() at time zone ${tz}) - make_interval(days => ${days - 1})) at time zone ${tz})`;
  const expected = async (who: string, days: number, tz: string) => {
    const perDay = await q<{ date: string; level: number; n: number }>(sql`
      select to_char((a.started_at at time zone ${tz})::date, 'YYYY-MM-DD') as date, a.level, count(*)::int as n
      from alarms a where a.started_at >= ${start(tz, days)} and ${scope(who)} group by 1, 2`);
    const projects = await q<{ id: number; count: number }>(sql`
      select a.project_id as id, count(*)::int as count from alarms a
      where a.started_at >= ${start(tz, days)} and a.project_id is not null and ${scope(who)}
      group by 1 order by 2 desc, 1 limit 5`);
    return { perDay, projects };
  };

  /** Every caller, both periods, every zone: the counters' answer is the alarms' count. */
  const agrees = async () => {
    for (const who of WHO) {
      for (const days of [7, 30]) {
        for (const tz of ZONES) {
          const want = await expected(who, days, tz);
          const trend = (await ok(who, `/home/alarmnum?days=${days}&tz=${encodeURIComponent(tz)}`)).days as { date: string; counts: number[] }[];
          expect(trend).toHaveLength(days);
          const got = trend.flatMap((d) => d.counts.map((n, i) => ({ date: d.date, level: i + 1, n }))).filter((c) => c.n > 0);
          const sort = (xs: { date: string; level: number; n: number }[]) =>
            [...xs].sort((a, b) => a.date.localeCompare(b.date) || a.level - b.level);
          expect(sort(got), `${who} ${days} ${tz}`).toEqual(sort(want.perDay));
          const top = await ok(who, `/home/gettop5?days=${days}&tz=${encodeURIComponent(tz)}`);
          expect(
            top.projects.map((p: { id: number; count: number }) => ({ id: p.id, count: p.count })),
            `${who} ${days} ${tz}`,
          ).toEqual(want.projects);
        }
      }
    }
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    ids.sub = await t.createUser({ username: 'cnt-sub', password: 'cnt-sub-pass', role: 'ADMIN' });
    ids.other = await t.createUser({ username: 'cnt-other', password: 'cnt-other-pass', role: 'ADMIN' });
    tok.admin = await t.login();
    tok.sub = await t.login('cnt-sub', 'cnt-sub-pass');
    tok.other = await t.login('cnt-other', 'cnt-other-pass');
    ids.leaf = await t.createUser({ username: 'cnt-leaf', password: 'cnt-leaf-pass', role: 'ADMIN' });
    await db.execute(sql`update users set parent_id = ${ids.sub}, path = ${`/1/${ids.sub}/${ids.leaf}/`} where id = ${ids.leaf}`);
    tok.leaf = await t.login('cnt-leaf', 'cnt-leaf-pass');
    for (const who of ['sub', 'leaf', 'other']) {
      paths[who] = (await q<{ path: string }>(sql`select path from users where id = ${ids[who]!}`))[0]!.path;
    }
    const project = async (name: string, owner: number, path: string) =>
      (await q<{ id: number }>(sql`insert into projects (name, owner_id, owner_path) values (${name}, ${owner}, ${path}) returning id`))[0]!.id;
    ids.P1 = await project('C1', ids.sub, paths.sub!);
    ids.P2 = await project('C2', ids.other, paths.other!);
    ids.P3 = await project('C3', 1, '/1/');
    await db.execute(sql`insert into project_users (project_id, user_id) values (${ids.P2}, ${ids.leaf})`);
    const [type] = await q<{ id: number }>(sql`select id from device_types where code = 'BMU'`);
    const device = async (key: string, owner: string, projectId: number | null) => {
      ids[key] = (
        await q<{ id: number }>(sql`insert into devices (sn, name, type_id, owner_path, project_id)
          values (${`CNT-${key}`}, ${key}, ${type!.id}, ${owner}, ${projectId}) returning id`)
      )[0]!.id;
    };
    await device('s1', paths.sub!, ids.P1);
    await device('s2', paths.sub!, null);
    await device('l1', paths.leaf!, null);
    await device('o1', paths.other!, ids.P2);
    await device('o2', paths.other!, null);
    await device('a1', '/1/', ids.P3);
    await device('a2', '/1/', null);

    // Alarms over 40 days, every device and level, and a second either side of each zone's
    // midnights (UTC+5:30, +5:45, +12:45/+13:45, −5/−4 included) over the last 31 days.
    const keys = ['s1', 's2', 'l1', 'o1', 'o2', 'a1', 'a2'];
    const now = Date.now();
    const times: number[] = [];
    for (let i = 0; i < 300; i++) times.push(now - ((i * 7919) % 40) * DAY - ((i * 104729) % DAY));
    for (const offset of [0, 9 * HOUR, 5.5 * HOUR, 5.75 * HOUR, 12.75 * HOUR, 13.75 * HOUR, -5 * HOUR, -4 * HOUR]) {
      for (let d = 0; d < 31; d += 3) {
        const midnight = Math.floor((now + offset) / DAY) * DAY - offset - d * DAY;
        times.push(midnight - 1000, midnight, midnight + 1000);
      }
    }
    const rowsToAdd = times.map((ts, i) => ({ dev: ids[keys[i % keys.length]!]!, level: 1 + ((i * 31) % 4), ts: new Date(ts).toISOString(), i }));
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at, state)
      select (r->>'dev')::int, 'c-' || (r->>'i'), 'device', 'cnt', (r->>'level')::int, (r->>'ts')::timestamptz, (r->>'ts')::timestamptz, 'untreated'
      from jsonb_array_elements(${JSON.stringify(rowsToAdd)}::jsonb) r`);
  });
  afterAll(() => t.close());

  it('the trend and top 5 projects after inserts equal the alarms counted, in every scope and zone', async () => {
    await agrees();
  });

  it('processing and ending alarms change nothing; deleting them is subtracted', async () => {
    await t.database.db.execute(sql`update alarms set state = 'processed', processed_at = now() where id % 3 = 0`);
    await t.database.db.execute(sql`update alarms set ended_at = null where id % 5 = 0`);
    await t.database.db.execute(sql`delete from alarms where id % 7 = 0`);
    await agrees();
  });

  it('a device moved into a shared project, to another owner and out of its project: its alarms follow', async () => {
    const db = t.database.db;
    // s2 of sub into P2 (other's, shared with leaf): its alarms take other's line (decision 0014).
    await db.execute(sql`update devices set project_id = ${ids.P2!}, owner_path = ${paths.other!} where id = ${ids.s2!}`);
    await agrees();
    // o2 of other to leaf's line, a1 out of P3 and to sub's line.
    await db.execute(sql`update devices set owner_path = ${paths.leaf!} where id = ${ids.o2!}`);
    await db.execute(sql`update devices set project_id = null, owner_path = ${paths.sub!} where id = ${ids.a1!}`);
    await agrees();
  });

  it('an alarm that changes level or start time moves between buckets; a statement of many rows nets per key', async () => {
    const db = t.database.db;
    await db.execute(sql`update alarms set level = 1 + level % 4 where id % 2 = 0`);
    await db.execute(sql`update alarms set started_at = started_at - interval '1 day' where id % 11 = 0`);
    await agrees();
    // The counter rows agree with the alarms row by row, over the days the daily retention keeps
    // (the retention test may have run first: tests are shuffled).
    const kept = sql`(now() - make_interval(days => ${TREND_COUNTER_DAYS - 1}))::date`;
    const drift = await q(sql`
      select * from (select project_id, (started_at at time zone 'UTC')::date as day, count(*)::int as n
                     from alarms where project_id is not null group by 1, 2) a
      full join (select project_id, day::date, n from alarm_project_days where n <> 0) c using (project_id, day)
      where a.n is distinct from c.n and day >= ${kept}`);
    expect(drift).toEqual([]);
    await db.execute(sql`truncate alarms cascade`);
    expect(await q(sql`select 1 from alarm_trend_lines union all select 1 from alarm_project_days`)).toEqual([]);
  });

  it('the daily retention drops counter rows older than any period reads, and the figures stay true', async () => {
    const db = t.database.db;
    const old = sql`now() - make_interval(days => ${TREND_COUNTER_DAYS})`;
    // Old alarms (inserted now: the test's order is shuffled) so that there is something to drop.
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at, state)
      select ${ids.s1!}, 'old-' || i, 'device', 'cnt', 1 + i % 4, ${old} - make_interval(hours => i), ${old}, 'untreated'
      from generate_series(1, 30) i`);
    const count = async () =>
      (await q<{ n: number }>(sql`
        select (select count(*) from alarm_trend_lines where at < ${old})
             + (select count(*) from alarm_trend_projects where at < ${old})
             + (select count(*) from alarm_project_days where day < ${old})::int as n`))[0]!.n;
    expect(Number(await count())).toBeGreaterThan(0);
    const silent = { info() {}, error() {} } as never;
    const retention = new Retention(db, silent, { name: 'alarm trend counter', days: TREND_COUNTER_DAYS, batch: 7, prune: pruneTrendCounters });
    expect(await retention.run()).toBeGreaterThan(7);
    expect(Number(await count())).toBe(0);
    await agrees();
  });
});
