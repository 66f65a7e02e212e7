import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { deviceCommands, users } from '../../db/schema/index.js';

/**
 * Reads of a device's past: history rows, downsampled chart series and energy, all over the
 * daily-partitioned `telemetry` table (one row per message, `vals` keyed by semaphore id). Every
 * query names the device and a ts range, so PostgreSQL prunes the partitions outside the range
 * and reads each day through the (device_id, ts) index.
 */

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

const idArray = (ids: readonly string[]) => sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::text[]`;

/** Only the chosen keys of `vals` (absent ones left out). */
const pickVals = (ids: readonly string[]) =>
  sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(
    ids.map((id) => sql`${id}::text, t.vals -> ${id}::text`),
    sql`, `,
  )}))`;

export interface RangeFilter {
  deviceId: number;
  from: Date;
  to: Date;
  semaphoreIds: readonly string[];
}

const rangeWhere = (f: RangeFilter): SQL =>
  sql`t.device_id = ${f.deviceId} and t.ts >= ${f.from.toISOString()}::timestamptz and t.ts < ${f.to.toISOString()}::timestamptz
    and t.vals ?| ${idArray(f.semaphoreIds)}`;

/** Messages carrying at least one of the chosen parameters, one page of them. */
export async function historyPage(
  db: Executor,
  f: RangeFilter & { page: number; limit: number; order: 'asc' | 'desc' },
): Promise<{ total: number; items: { ts: Date; values: Record<string, unknown> }[] }> {
  const order = f.order === 'asc' ? sql`asc` : sql`desc`;
  const [items, count] = await Promise.all([
    db.execute(sql`
      select t.ts as ts, ${pickVals(f.semaphoreIds)} as values from telemetry t
      where ${rangeWhere(f)}
      order by t.ts ${order}
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
    db.execute(sql`select count(*)::int as n from telemetry t where ${rangeWhere(f)}`),
  ]);
  return {
    total: rowsOf<{ n: number }>(count)[0]?.n ?? 0,
    items: rowsOf<{ ts: Date | string; values: Record<string, unknown> }>(items).map((r) => ({
      ts: new Date(r.ts),
      values: r.values,
    })),
  };
}

/** Every matching message in time order (the export), at most `max` + 1 so the caller can refuse more. */
export async function historyRows(db: Executor, f: RangeFilter, max: number) {
  const res = await db.execute(sql`
    select t.ts as ts, ${pickVals(f.semaphoreIds)} as values from telemetry t
    where ${rangeWhere(f)} order by t.ts asc limit ${max + 1}`);
  return rowsOf<{ ts: Date | string; values: Record<string, unknown> }>(res).map((r) => ({ ts: new Date(r.ts), values: r.values }));
}

/** A value as a number for charts: numbers, booleans as 0/1, numeric text (enum values); else null. */
const numeric = (v: SQL) => sql`case jsonb_typeof(${v})
  when 'number' then (${v} #>> '{}')::float8
  when 'boolean' then case when ${v} = 'true'::jsonb then 1::float8 else 0::float8 end
  when 'string' then case when (${v} #>> '{}') ~ '^-?[0-9]+(\\.[0-9]+)?$' then (${v} #>> '{}')::float8 end
end`;

export interface BucketRow {
  semaphoreId: string;
  bucket: number;
  /** [value, epoch ms] of the bucket's minimum and maximum (the earliest on ties). */
  lo: [number, number];
  hi: [number, number];
}

/**
 * Min/max downsampling in one pass: the range is cut into buckets of `bucketMs`; each bucket of
 * each series answers its minimum and its maximum with their times (array comparison picks the
 * pair with the smallest / largest value). The global extremes are extremes of their bucket, so
 * they are always kept; two points per bucket at most.
 */
export async function chartBuckets(db: Executor, f: RangeFilter & { bucketMs: number }): Promise<BucketRow[]> {
  const fromMs = f.from.getTime();
  const res = await db.execute(sql`
    with src as (
      select k.id as sid, extract(epoch from t.ts) * 1000 as ms, ${numeric(sql`t.vals -> k.id`)} as x
      from telemetry t cross join unnest(${idArray(f.semaphoreIds)}) as k(id)
      where ${rangeWhere(f)} and t.vals ? k.id
    )
    select sid, floor((ms - ${fromMs}) / ${f.bucketMs})::int as bucket,
      min(array[x, ms]) as lo, max(array[x, ms]) as hi
    from src where x is not null
    group by sid, bucket
    order by sid, bucket`);
  return rowsOf<{ sid: string; bucket: number; lo: (number | string)[]; hi: (number | string)[] }>(res).map((r) => ({
    semaphoreId: r.sid,
    bucket: Number(r.bucket),
    lo: [Number(r.lo[0]), Number(r.lo[1])],
    hi: [Number(r.hi[0]), Number(r.hi[1])],
  }));
}

export interface EnergyRow {
  start: Date;
  chargedKwh: number;
  dischargedKwh: number;
}

/**
 * Charged and discharged energy per day / week / month, in SQL: at each bucket border the first
 * message carrying the battery's cumulative counters (Ah) is looked up through the index (one
 * probe per border, however many messages the bucket holds); a bucket's energy is the counters'
 * growth up to the next border times the mean pack voltage. A counter that went down (a reset)
 * counts as no energy.
 */
export async function energy(
  db: Executor,
  f: { deviceId: number; from: Date; to: Date; granularity: 'day' | 'week' | 'month'; ids: { v: string; chg: string; dis: string } },
): Promise<EnergyRow[]> {
  const from = f.from.toISOString();
  const to = f.to.toISOString();
  const step = `1 ${f.granularity}`;
  const sample = (t: SQL) => sql`(t.vals ->> ${f.ids.chg})::float8 as chg, (t.vals ->> ${f.ids.dis})::float8 as dis,
      (t.vals ->> ${f.ids.v})::float8 as v from telemetry t where t.device_id = ${f.deviceId} and ${t}
      and t.vals ? ${f.ids.chg} and t.vals ? ${f.ids.dis} and t.vals ? ${f.ids.v}`;
  const res = await db.execute(sql`
    with bounds as (
      select g as start, false as last
      from generate_series(
        date_trunc(${f.granularity}, ${from}::timestamptz at time zone 'UTC') at time zone 'UTC',
        ${to}::timestamptz - interval '1 microsecond', ${step}::interval) g
    ),
    marks as (
      select b.start, b.last, s.chg, s.dis, s.v from bounds b
      left join lateral (select ${sample(sql`t.ts >= greatest(b.start, ${from}::timestamptz) and t.ts < ${to}::timestamptz`)}
        order by t.ts asc limit 1) s on true
      union all
      select ${to}::timestamptz, true, s.chg, s.dis, s.v from (select 1) one
      left join lateral (select ${sample(sql`t.ts >= ${from}::timestamptz and t.ts < ${to}::timestamptz`)}
        order by t.ts desc limit 1) s on true
    ),
    steps as (
      select start, last, chg, dis, v,
        lead(chg) over w as chg2, lead(dis) over w as dis2, lead(v) over w as v2
      from marks window w as (order by start, last)
    )
    select start,
      coalesce(greatest(chg2 - chg, 0) * (v + v2) / 2 / 1000, 0)::float8 as charged,
      coalesce(greatest(dis2 - dis, 0) * (v + v2) / 2 / 1000, 0)::float8 as discharged
    from steps where not last order by start`);
  return rowsOf<{ start: Date | string; charged: number | string; discharged: number | string }>(res).map((r) => ({
    start: new Date(r.start),
    chargedKwh: Number(r.charged),
    dischargedKwh: Number(r.discharged),
  }));
}

// ---- commands -----------------------------------------------------------------------------------

export async function listCommands(db: Executor, deviceId: number, page: number, limit: number) {
  const where = eq(deviceCommands.deviceId, deviceId);
  const [items, [count]] = await Promise.all([
    db
      .select({
        id: deviceCommands.id,
        deviceId: deviceCommands.deviceId,
        kind: deviceCommands.kind,
        payload: deviceCommands.payload,
        status: deviceCommands.status,
        message: deviceCommands.message,
        progress: deviceCommands.progress,
        createdBy: deviceCommands.createdBy,
        createdByName: users.username,
        createdAt: deviceCommands.createdAt,
        sentAt: deviceCommands.sentAt,
        expiresAt: deviceCommands.expiresAt,
        endedAt: deviceCommands.endedAt,
      })
      .from(deviceCommands)
      .leftJoin(users, eq(users.id, deviceCommands.createdBy))
      .where(where)
      .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: sql<number>`count(*)::int` }).from(deviceCommands).where(and(where)),
  ]);
  return { total: count?.n ?? 0, items };
}
