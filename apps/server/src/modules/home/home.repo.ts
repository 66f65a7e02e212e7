import { and, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { alarmCounts, alarmNotices, alarmProjectDays, alarms, alarmTrendLines, alarmTrendProjects, devices, projects } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { HOME_LIMITS } from '@iot/contract';
import { COUNT_CAP, cappedTotal } from '../../lib/query/paging.js';
import { projectsSeenBy, sharedInProjects, visibleDevices, visibleOwned, visibleProjects } from '../../lib/query/visibility.js';

// The dashboard's figures (§1, §7 /home/*): each one statement counted by PostgreSQL over an
// index, scoped like the device and alarm lists (lib/query/visibility.ts). A device's open alarms
// are summed up on its row by the alarm engine (`warning_level`: the highest level of its open
// alarms, 0 without one), so "alarming" and a row's `maxLevel` never read the alarms.

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const where = (...parts: (SQL | undefined)[]) => {
  const cond = and(...parts);
  return cond ? sql`where ${cond}` : sql``;
};
const int = (v: unknown) => Number(v ?? 0);

/**
 * Devices by state. Never seen: no last-seen time in `device_presence` (a row per device), counted
 * apart from the few such rows up (its index keeps them together) instead of joining every device.
 */
export async function deviceTotals(db: Executor, scopePath: string | undefined) {
  const [states, never] = await Promise.all([
    db.execute(sql`
      select count(*)::int as total,
        count(*) filter (where ${devices.online})::int as online,
        count(*) filter (where ${devices.warningLevel} > 0)::int as alarming
      from ${devices} ${where(visibleDevices(scopePath))}`),
    db.execute(sql`
      select count(*)::int as n from device_presence p join ${devices} on ${devices.id} = p.device_id
      ${where(sql`p.last_seen_at is null`, visibleDevices(scopePath))}`),
  ]);
  const r = rows<{ total: number; online: number; alarming: number }>(states)[0]!;
  const total = int(r.total);
  const online = int(r.online);
  return { total, online, offline: total - online, alarming: int(r.alarming), neverSeen: int(rows<{ n: number }>(never)[0]?.n) };
}

export async function projectCount(db: Executor, scopePath: string | undefined) {
  const res = await db.execute(sql`select count(*)::int as n from ${projects} ${where(visibleProjects(scopePath))}`);
  return int(rows<{ n: number }>(res)[0]?.n);
}

/** The start of the local day `daysAgo` days before today in `tz`, as a timestamptz expression. */
const localMidnight = (tz: string, daysAgo: number) =>
  sql`((date_trunc('day', now() at time zone ${tz}) - make_interval(days => ${daysAgo})) at time zone ${tz})`;

/**
 * Alarms per level: all and untreated from `alarm_counts` (kept by triggers on the alarm rows,
 * migration 0049: a few thousand rows, scoped by the same owner path and project as the alarms),
 * started since the local midnight from today's alarms (`alarms_home_started_idx`).
 */
export async function alarmLevels(db: Executor, scopePath: string | undefined, tz: string) {
  const [counted, today] = await Promise.all([
    db.execute(sql`
      select ${alarmCounts.level} as level, sum(${alarmCounts.n})::int as total,
        coalesce(sum(${alarmCounts.n}) filter (where ${alarmCounts.state} = 'untreated'), 0)::int as untreated
      from ${alarmCounts} ${where(visibleOwned(alarmCounts.ownerPath, alarmCounts.projectId, scopePath))}
      group by ${alarmCounts.level}`),
    db.execute(sql`
      select ${alarms.level} as level, count(*)::int as today
      from ${alarms}
      ${where(sql`${alarms.startedAt} >= ${localMidnight(tz, 0)}`, visibleOwned(alarms.ownerPath, alarms.projectId, scopePath))}
      group by ${alarms.level}`),
  ]);
  const byLevel = new Map(rows<{ level: number; total: number; untreated: number }>(counted).map((r) => [Number(r.level), r]));
  const todayByLevel = new Map(rows<{ level: number; today: number }>(today).map((r) => [Number(r.level), r.today]));
  return [1, 2, 3, 4].map((level) => {
    const r = byLevel.get(level);
    return { level, untreated: int(r?.untreated), today: int(todayByLevel.get(level)), total: int(r?.total) };
  });
}

/**
 * Alarms started per local day (`tz`) and level over the last `days` days, oldest first, zero-filled,
 * from the 15-minute counters (migration 0068, decision 0041): the subtree's own line rows (`/` for
 * all) and, for a caller, the rows of projects shared with its subtree but owned outside it (their
 * alarms carry the project owner's path, outside the subtree). At most 4 × 96 rows a day each.
 */
export async function alarmsPerDay(db: Executor, scopePath: string | undefined, days: number, tz: string) {
  const since = sql`${alarmTrendLines.at} >= ${localMidnight(tz, days - 1)}`;
  const shared = scopePath
    ? sql`
      union all
      select ${alarmTrendProjects.at}, ${alarmTrendProjects.level}, ${alarmTrendProjects.n}
      from ${alarmTrendProjects}
      where ${alarmTrendProjects.projectId} = any(array(${sharedInProjects(scopePath)}))
        and ${alarmTrendProjects.ownerPath} not like ${`${escapeLike(scopePath)}%`}
        and ${alarmTrendProjects.at} >= ${localMidnight(tz, days - 1)}`
    : sql``;
  const res = await db.execute(sql`
    with counted as (
      select (b.at at time zone ${tz})::date as day, b.level, sum(b.n)::int as n
      from (select ${alarmTrendLines.at} as at, ${alarmTrendLines.level} as level, ${alarmTrendLines.n} as n
            from ${alarmTrendLines} where ${alarmTrendLines.path} = ${scopePath ?? '/'} and ${since}
            ${shared}) b
      group by 1, 2
    )
    select to_char(d.day, 'YYYY-MM-DD') as date,
      coalesce(sum(c.n) filter (where c.level = 1), 0)::int as l1,
      coalesce(sum(c.n) filter (where c.level = 2), 0)::int as l2,
      coalesce(sum(c.n) filter (where c.level = 3), 0)::int as l3,
      coalesce(sum(c.n) filter (where c.level = 4), 0)::int as l4
    from (select (now() at time zone ${tz})::date - i as day from generate_series(0, ${days - 1}::int) as i) d
    left join counted c on c.day = d.day
    group by d.day order by d.day`);
  return rows<{ date: string; l1: number; l2: number; l3: number; l4: number }>(res).map((r) => ({
    date: r.date,
    counts: [int(r.l1), int(r.l2), int(r.l3), int(r.l4)],
  }));
}

/**
 * The 5 devices and 5 projects with the most alarms started in the period (ties: lower id first).
 * Projects: whole UTC days from `alarm_project_days` (decision 0041), the partial first day's alarms
 * read from `alarms_home_started_idx` — added from the period's start to the next UTC midnight, or
 * subtracted from the UTC midnight before it to its start, whichever is shorter (≤ 12 hours). A
 * project's alarms are visible exactly when the project is (they carry its owner's path). Devices:
 * the period's alarms, read index-only — per-device counters would not be smaller (decision 0041).
 */
export async function top5(db: Executor, scopePath: string | undefined, days: number, tz: string, limit: number) {
  const cond = where(sql`${alarms.startedAt} >= ${localMidnight(tz, days - 1)}`, visibleOwned(alarms.ownerPath, alarms.projectId, scopePath));
  const seen = scopePath ? sql`= any(array(${projectsSeenBy(scopePath)}))` : sql`is not null`;
  const [devs, projs] = await Promise.all([
    db.execute(sql`
      select t.device_id as id, d.name, d.sn, t.n as count
      from (select ${alarms.deviceId} as device_id, count(*)::int as n from ${alarms} ${cond}
            group by 1 order by 2 desc, 1 limit ${limit}) t
      join devices d on d.id = t.device_id
      order by t.n desc, t.device_id`),
    db.execute(sql`
      with s as (select ${localMidnight(tz, days - 1)} as start),
      b as (select start, date_trunc('day', start at time zone 'UTC') at time zone 'UTC' as d0 from s),
      w as (select case when start - d0 <= interval '12 hours' then d0 else d0 + interval '1 day' end as from_day,
              case when start - d0 <= interval '12 hours' then d0 else start end as lo,
              case when start - d0 <= interval '12 hours' then start else d0 + interval '1 day' end as hi,
              case when start - d0 <= interval '12 hours' then -1 else 1 end as sign
            from b),
      counted as (
        select ${alarmProjectDays.projectId} as project_id, ${alarmProjectDays.n}::bigint as n from ${alarmProjectDays}, w
        where ${alarmProjectDays.day} >= (w.from_day at time zone 'UTC')::date and ${alarmProjectDays.projectId} ${seen}
        union all
        select ${alarms.projectId}, w.sign from ${alarms}, w
        where ${alarms.startedAt} >= w.lo and ${alarms.startedAt} < w.hi and ${alarms.projectId} ${seen}
      ),
      t as (select project_id, sum(n)::int as n from counted group by 1 having sum(n) > 0 order by 2 desc, 1 limit ${limit})
      select t.project_id as id, p.name, t.n as count
      from t join projects p on p.id = t.project_id
      order by t.n desc, t.project_id`),
  ]);
  return {
    devices: rows<{ id: number; name: string; sn: string; count: number }>(devs).map((r) => ({ ...r, count: int(r.count) })),
    projects: rows<{ id: number; name: string; count: number }>(projs).map((r) => ({ ...r, count: int(r.count) })),
  };
}

/** The caller's projects with the most devices, with their online and alarming devices, and the project count. */
export async function projectList(db: Executor, scopePath: string | undefined, limit: number) {
  // Devices of a project the caller sees are all visible to it (visibleOwned: project in its set).
  const res = await db.execute(sql`
    select p.id, p.name, p.weather, t.devices, t.online, t.alarming
    from (select ${devices.projectId} as project_id, count(*)::int as devices,
            count(*) filter (where ${devices.online})::int as online,
            count(*) filter (where ${devices.warningLevel} > 0)::int as alarming
          from ${devices}
          where ${devices.projectId} in (select ${projects.id} from ${projects} ${where(visibleProjects(scopePath))})
          group by 1) t
    join projects p on p.id = t.project_id
    order by t.devices desc, p.id
    limit ${limit}`);
  const items = rows<{ id: number; name: string; weather: boolean; devices: number; online: number; alarming: number }>(res).map((r) => ({
    id: r.id,
    name: r.name,
    weather: r.weather,
    devices: int(r.devices),
    online: int(r.online),
    alarming: int(r.alarming),
  }));
  // Projects without devices fill the list when fewer than `limit` have some.
  if (items.length < limit) {
    const more = await db.execute(sql`
      select ${projects.id} as id, ${projects.name} as name, ${projects.weather} as weather from ${projects}
      ${where(visibleProjects(scopePath), sql`not exists (select 1 from devices d where d.project_id = ${projects.id})`)}
      order by ${projects.id} limit ${limit - items.length}`);
    for (const r of rows<{ id: number; name: string; weather: boolean }>(more)) {
      items.push({ id: r.id, name: r.name, weather: r.weather, devices: 0, online: 0, alarming: 0 });
    }
  }
  return items;
}

export type HomeDeviceState = 'all' | 'online' | 'offline' | 'alarming' | 'offline24h';

/**
 * A page of the caller's devices in one state, with their open alarms. `offline24h` walks
 * `device_presence_seen_idx` from the newest last-seen time down to 24 hours ago; the others the
 * devices' primary key, newest first.
 */
export async function deviceList(
  db: Executor,
  scopePath: string | undefined,
  f: { state: HomeDeviceState; page: number; limit: number },
) {
  const stateCond: Record<HomeDeviceState, SQL | undefined> = {
    all: undefined,
    online: sql`${devices.online}`,
    offline: sql`not ${devices.online}`,
    alarming: sql`${devices.warningLevel} > 0`,
    offline24h: sql`not ${devices.online} and p.last_seen_at >= now() - interval '24 hours'`,
  };
  const cond = where(visibleDevices(scopePath), stateCond[f.state]);
  const order = f.state === 'offline24h' ? sql`p.last_seen_at desc nulls last, p.device_id desc` : sql`${devices.id} desc`;
  const offset = (f.page - 1) * f.limit;
  const page = rows<{
    id: number; sn: string; name: string; project_id: number | null; project_name: string | null; online: boolean;
    last_seen_at: string | Date | null; open_alarms: number; max_level: number;
  }>(
    await db.execute(sql`
      select ${devices.id} as id, ${devices.sn} as sn, ${devices.name} as name, ${devices.projectId} as project_id,
        pr.name as project_name, ${devices.online} as online, p.last_seen_at, ${devices.warningLevel} as max_level,
        (select count(*)::int from alarms a where a.device_id = ${devices.id} and a.ended_at is null) as open_alarms
      from ${devices}
      left join device_presence p on p.device_id = ${devices.id}
      left join projects pr on pr.id = ${devices.projectId}
      ${cond}
      order by ${order}
      limit ${f.limit} offset ${offset}`),
  );
  const items = page.map((r) => ({
    id: r.id,
    sn: r.sn,
    name: r.name,
    projectId: r.project_id,
    projectName: r.project_name,
    online: r.online,
    lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at).toISOString(),
    openAlarms: int(r.open_alarms),
    maxLevel: int(r.max_level),
  }));
  if (page.length < f.limit && (page.length > 0 || offset === 0)) {
    const n = offset + page.length;
    return { total: Math.min(n, COUNT_CAP), exact: n <= COUNT_CAP, items };
  }
  const counted = await cappedTotal(
    db,
    sql`select 1 from ${devices} left join device_presence p on p.device_id = ${devices.id} ${cond}`,
  );
  return { ...counted, items };
}

/** Devices with at least one alarm phone number (a digit in `alarm_phone`): `devices_phones_idx`. */
const hasPhones = sql`${devices.alarmPhone} ~ '[0-9]'`;

/** The voice style's figures: devices with phones, call-outs and what was sent, voice minutes of their SIM cards. */
export async function voice(db: Executor, scopePath: string | undefined, days: number, tz: string, recentLimit: number) {
  const scopeAlarms = visibleOwned(alarms.ownerPath, alarms.projectId, scopePath);
  const [phones, callouts, recent, minutes] = await Promise.all([
    db.execute(sql`select count(*)::int as n from ${devices} ${where(visibleDevices(scopePath), hasPhones)}`),
    db.execute(sql`
      select count(*)::int as period,
        count(*) filter (where ${alarms.startedAt} >= ${localMidnight(tz, 0)})::int as today
      from ${alarms}
      ${where(sql`${alarms.callout}`, sql`${alarms.startedAt} >= ${localMidnight(tz, days - 1)}`, scopeAlarms)}`),
    // What was sent for each of the few recent alarms: its notices, by `alarm_notices_alarm_idx`.
    db.execute(sql`
      select t.id, t.device_id, d.name as device_name, t.level, t.started_at, d.alarm_phone,
        n.sms, n.calls, n.failed, n.waiting, n.limited
      from (select ${alarms.id}::int as id, ${alarms.deviceId} as device_id, ${alarms.level} as level,
              ${alarms.startedAt} as started_at
            from ${alarms} ${where(sql`${alarms.callout}`, scopeAlarms)}
            order by ${alarms.startedAt} desc, ${alarms.id} desc limit ${recentLimit}) t
      join devices d on d.id = t.device_id
      cross join lateral (
        select count(*) filter (where state = 'sent' and channel = 'sms')::int as sms,
          count(*) filter (where state = 'sent' and channel = 'call')::int as calls,
          count(*) filter (where state = 'failed')::int as failed,
          count(*) filter (where state = 'pending')::int as waiting,
          count(*) filter (where state = 'limited')::int as limited
        from ${alarmNotices} where ${alarmNotices.alarmId} = t.id) n
      order by t.started_at desc, t.id desc`),
    // A card's device is kept on the card (sim_cards.device_id, migration 0045: the device whose
    // SIM number is its ICCID or MSISDN); who sees every device needs no join. Voice data is known
    // for a card with a voice allowance.
    db.execute(sql`
      select count(*)::int as cards,
        count(*) filter (where c.voice_allowance_min > 0)::int as known,
        sum(greatest(c.voice_allowance_min - c.voice_used_min, 0)) filter (where c.voice_allowance_min > 0)::int as left_min
      from sim_cards c
      ${scopePath ? sql`join ${devices} on ${devices.id} = c.device_id ${where(visibleDevices(scopePath))}` : sql`where c.device_id is not null`}`),
  ]);
  const c = rows<{ period: number; today: number }>(callouts)[0];
  const m = rows<{ cards: number; known: number; left_min: number | null }>(minutes)[0];
  return {
    devicesWithPhones: int(rows<{ n: number }>(phones)[0]?.n),
    calloutAlarms: { today: int(c?.today), period: int(c?.period) },
    recent: rows<{
      id: number;
      device_id: number;
      device_name: string;
      level: number;
      started_at: string | Date;
      alarm_phone: string;
      sms: number;
      calls: number;
      failed: number;
      waiting: number;
      limited: number;
    }>(recent).map((r) => ({
      alarmId: Number(r.id),
      deviceId: r.device_id,
      deviceName: r.device_name,
      level: r.level,
      startedAt: new Date(r.started_at).toISOString(),
      phones: r.alarm_phone
        .split(',')
        .map((p) => p.trim())
        .filter((p) => /[0-9]/.test(p)),
      notices: { sms: int(r.sms), calls: int(r.calls), failed: int(r.failed), waiting: int(r.waiting), limited: int(r.limited) },
    })),
    voiceMinutes: {
      left: m && int(m.known) > 0 ? int(m.left_min) : null,
      cards: int(m?.cards),
      known: int(m?.known),
    },
  };
}

/** The caller's stored dashboard style. */
export async function dashboardStyle(db: Executor, userId: number) {
  const res = await db.execute(sql`select dashboard_style from users where id = ${userId}`);
  return rows<{ dashboard_style: string }>(res)[0]?.dashboard_style ?? 'default';
}

/**
 * How long the trend and top-5 counters are kept: the longest period (30 local days) plus the
 * widest zone offset (14 h) and the partial first UTC day, rounded up. Nothing reads older rows.
 */
export const TREND_COUNTER_DAYS = Math.max(...HOME_LIMITS.days) + 2;

/**
 * Deletes at most `limit` counter rows (migration 0068) of buckets before `before`, from the three
 * tables in turn (lib/retention.ts runs it once a day). A later deletion of an alarm that old writes
 * a negative row here, which nothing reads and the next run removes.
 */
export async function pruneTrendCounters(db: Executor, before: Date, limit: number): Promise<number> {
  const at = before.toISOString();
  let left = limit;
  for (const [table, column] of [
    [alarmTrendLines, alarmTrendLines.at],
    [alarmTrendProjects, alarmTrendProjects.at],
    [alarmProjectDays, alarmProjectDays.day],
  ] as const) {
    if (left === 0) break;
    const res = await db.execute(sql`
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where ${column} < ${at}::timestamptz limit ${left})) returning 1`);
    left -= rows(res).length;
  }
  return limit - left;
}
