import { sql, type SQL } from 'drizzle-orm';
import { allowLongWork, type Db, type Executor } from '../db/client.js';
import { ENERGY_PARAMS } from '@iot/contract';
import { numericValue } from '../db/schema/index.js';

// The history rollups' writes (history.rollup.ts); modules/devicedetail reads them.

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

/** Days with telemetry partitions that need a (first or final) rollup, oldest first. */
export async function daysToRoll(db: Executor, f: { days: string[]; finalBefore: string }): Promise<{ day: string; final: boolean }[]> {
  if (f.days.length === 0) return [];
  const res = await db.execute(sql`
    select d.day::text as day, d.day < ${f.finalBefore}::date as final
    from unnest(${sql`array[${sql.join(f.days.map((d) => sql`${d}`), sql`, `)}]::date[]`}) d(day)
    left join telemetry_rollup_days r on r.day = d.day
    where r.day is null or (not r.final and d.day < ${f.finalBefore}::date)
    order by d.day`);
  return rowsOf<{ day: string; final: boolean }>(res);
}

/**
 * Rolls up one UTC day of every device in one statement (replacing an earlier rollup of it):
 * per device, ten-minute bucket and numeric value, the minimum and maximum with their times.
 */
export async function rollupDay(db: Db, day: string, final: boolean): Promise<number> {
  return db.transaction(async (tx) => {
    // A day of the whole fleet in one statement: longer than a request may take.
    await allowLongWork(tx);
    const start = `${day}T00:00:00Z`;
    await tx.execute(sql`delete from telemetry_rollup where bucket >= ${start}::timestamptz and bucket < ${start}::timestamptz + interval '1 day'`);
    const res = await tx.execute(sql`
      insert into telemetry_rollup (device_id, bucket, mm)
      select device_id, bucket, jsonb_object_agg(k, jsonb_build_array(lo[1], lo[2], hi[1], hi[2]))
      from (
        select t.device_id, to_timestamp(floor(extract(epoch from t.ts) / 600) * 600) as bucket, e.key as k,
          min(array[x.v, x.ms]) as lo, max(array[x.v, x.ms]) as hi
        from telemetry t
        cross join lateral jsonb_each(t.vals) as e(key, value)
        cross join lateral (select ${numericValue(sql`e.value`)} as v, extract(epoch from t.ts)::float8 * 1000 as ms) x
        where t.ts >= ${start}::timestamptz and t.ts < ${start}::timestamptz + interval '1 day' and x.v is not null
        group by 1, 2, 3
      ) s
      join devices d on d.id = s.device_id
      group by device_id, bucket`);
    await tx.execute(sql`delete from telemetry_rollup_hour where bucket >= ${start}::timestamptz and bucket < ${start}::timestamptz + interval '1 day'`);
    await tx.execute(sql`
      insert into telemetry_rollup_hour (device_id, bucket, mm)
      select device_id, hour, jsonb_object_agg(k, jsonb_build_array(lo[1], lo[2], hi[1], hi[2]))
      from (
        select r.device_id, date_trunc('hour', r.bucket) as hour, e.key as k,
          min(array[(e.value ->> 0)::float8, (e.value ->> 1)::float8]) as lo,
          max(array[(e.value ->> 2)::float8, (e.value ->> 3)::float8]) as hi
        from telemetry_rollup r cross join lateral jsonb_each(r.mm) as e(key, value)
        where r.bucket >= ${start}::timestamptz and r.bucket < ${start}::timestamptz + interval '1 day'
        group by 1, 2, 3
      ) s
      group by device_id, hour`);
    await tx.execute(sql`delete from battery_energy_hour where bucket >= ${start}::timestamptz and bucket < ${start}::timestamptz + interval '1 day'`);
    await tx.execute(sql`
      insert into battery_energy_hour (bucket, owner_path, project_id, charged_kwh, discharged_kwh, devices)
      ${energyHours(sql`${start}::timestamptz`, sql`${start}::timestamptz + interval '1 day'`)}`);
    await tx.execute(sql`
      insert into telemetry_rollup_days (day, final, rolled_at) values (${day}::date, ${final}, now())
      on conflict (day) do update set final = excluded.final, rolled_at = excluded.rolled_at`);
    return (res as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (res as unknown as { affectedRows?: number }).affectedRows ?? 0;
  });
}

/** Rollups of days dropped by the telemetry retention. */
export async function pruneRollups(db: Executor, before: string) {
  await db.execute(sql`delete from telemetry_rollup where bucket < ${before}::timestamptz`);
  await db.execute(sql`delete from telemetry_rollup_hour where bucket < ${before}::timestamptz`);
  await db.execute(sql`delete from telemetry_rollup_days where day < ${before}::date`);
}

/**
 * The fleet's energy per hour in [from, to) from the hourly rollups, summed per owner line and
 * project (battery_energy_hour, the home dashboard's battery style). The device details' rule
 * (devicedetail.repo.ts energy): an hour's energy is the growth of the cumulative charge and
 * discharge counters (Ah) from its first reading (the rollup's minimum, the counters only grow) to
 * the first reading of the device's next hour with one (the hour's own maximum for the last), a
 * counter that went down counting as none, times the hour's mean pack voltage.
 */
export function energyHours(from: SQL, to: SQL): SQL {
  const id = (k: string) => sql.raw(`'${k}'`);
  const { totalCharge: chg, totalDischarge: dis, packVoltage: v } = ENERGY_PARAMS;
  return sql`
    select e.bucket, d.owner_path, d.project_id, sum(e.charged), sum(e.discharged), count(*)::int
    from (
      select device_id, bucket,
        greatest(coalesce(lead(c_lo) over w, c_hi) - c_lo, 0) * (v_lo + v_hi) / 2 / 1000 as charged,
        greatest(coalesce(lead(d_lo) over w, d_hi) - d_lo, 0) * (v_lo + v_hi) / 2 / 1000 as discharged
      from (
        select r.device_id, r.bucket,
          (r.mm -> ${id(chg)} ->> 0)::float8 as c_lo, (r.mm -> ${id(chg)} ->> 2)::float8 as c_hi,
          (r.mm -> ${id(dis)} ->> 0)::float8 as d_lo, (r.mm -> ${id(dis)} ->> 2)::float8 as d_hi,
          (r.mm -> ${id(v)} ->> 0)::float8 as v_lo, (r.mm -> ${id(v)} ->> 2)::float8 as v_hi
        from telemetry_rollup_hour r
        where r.bucket >= ${from} and r.bucket < ${to} and r.mm ?& array[${id(chg)}, ${id(dis)}, ${id(v)}]
      ) h
      window w as (partition by device_id order by bucket)
    ) e
    join devices d on d.id = e.device_id
    group by e.bucket, d.owner_path, d.project_id`;
}
