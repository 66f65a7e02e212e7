import { sql, type SQL } from 'drizzle-orm';
import { PACK_PARAMS } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { batteryEnergyHour } from '../../db/schema/index.js';
import { visibleDevices, visibleOwned } from '../../lib/query/visibility.js';

/**
 * The home dashboard's battery style (GET /home/battery), at fleet scale: every figure comes from
 * `device_battery` (one row per battery, kept by the batch transaction: decision 0025) and
 * `battery_energy_hour` (kept by the history rollups), never from `device_latest`'s JSON or the
 * telemetry itself. Scoped like the device list (`visibleDevices`).
 */

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;
const where = (cond: SQL | undefined) => (cond ? sql`and ${cond}` : sql``);

/**
 * The devices the battery figures count: those of a type that declares SOC or current (a battery
 * type), or that reported one of the battery figures whatever their type.
 */
const batteryDevice = sql`(devices.type_id = any(array(select p.type_id from device_type_params p
    where p.semaphore_id in (${PACK_PARAMS.soc}, ${PACK_PARAMS.current}))) or b.device_id is not null)`;

export interface BatteryCounts {
  /** SOC buckets 0–10 %, …, 90–100 %. */
  buckets: number[];
  socUnknown: number;
  charging: number;
  discharging: number;
  idle: number;
  stateUnknown: number;
}

/** The SOC histogram and the state counts of the caller's batteries, one statement. */
export async function counts(db: Executor, scope: string | undefined): Promise<BatteryCounts> {
  const res = await db.execute(sql`
    select case when b.soc is null then -1 else least(greatest(floor(b.soc / 10), 0), 9)::int end as k, count(*)::int as n,
      count(*) filter (where b.state = 'charging')::int as charging,
      count(*) filter (where b.state = 'discharging')::int as discharging,
      count(*) filter (where b.state = 'idle')::int as idle,
      count(*) filter (where b.state is null)::int as unknown
    from devices left join device_battery b on b.device_id = devices.id
    where ${batteryDevice} ${where(visibleDevices(scope))}
    group by 1`);
  const out: BatteryCounts = { buckets: Array(10).fill(0), socUnknown: 0, charging: 0, discharging: 0, idle: 0, stateUnknown: 0 };
  for (const r of rowsOf<{ k: number; n: number; charging: number; discharging: number; idle: number; unknown: number }>(res)) {
    if (r.k < 0) out.socUnknown += r.n;
    else out.buckets[r.k]! += r.n;
    out.charging += r.charging;
    out.discharging += r.discharging;
    out.idle += r.idle;
    out.stateUnknown += r.unknown;
  }
  return out;
}

export interface RankedDevice {
  id: number;
  name: string;
  sn: string;
  value: number;
}

const RANKS = {
  lowestSoc: { col: sql.raw('b.soc'), dir: sql.raw('asc') },
  hottest: { col: sql.raw('b.max_cell_temp'), dir: sql.raw('desc nulls last') },
  imbalance: { col: sql.raw('b.cell_delta_mv'), dir: sql.raw('desc nulls last') },
} as const;

/** The caller's top `limit` batteries by one figure (devices without it left out): a walk of its index, ties by id. */
export async function top(db: Executor, scope: string | undefined, by: keyof typeof RANKS, limit: number): Promise<RankedDevice[]> {
  const { col, dir } = RANKS[by];
  const res = await db.execute(sql`
    select devices.id, devices.name, devices.sn, ${col} as value
    from device_battery b join devices on devices.id = b.device_id
    where ${col} is not null ${where(visibleDevices(scope))}
    order by ${col} ${dir}, b.device_id
    limit ${limit}`);
  return rowsOf<RankedDevice>(res).map((r) => ({ id: r.id, name: r.name, sn: r.sn, value: Number(r.value) }));
}

export interface EnergyDay {
  date: string;
  chargedKwh: number | null;
  dischargedKwh: number | null;
}

/**
 * Energy charged and discharged per local day of `tz`, the last `days` days up to today, from the
 * hourly energy rollups (battery_energy_hour; an hour counts in the local day it starts in). A day
 * is unknown (null) until every UTC day it overlaps is rolled up (today always is), and when no
 * battery of the caller's reported its energy counters in it.
 */
export async function energyPerDay(db: Executor, scope: string | undefined, days: number, tz: string): Promise<EnergyDay[]> {
  const res = await db.execute(sql`
    with d as (
      select g::date as day, (g at time zone ${tz}) as s, ((g + interval '1 day') at time zone ${tz}) as e
      from generate_series(((now() at time zone ${tz})::date - ${days - 1}::int)::timestamp,
        (now() at time zone ${tz})::date::timestamp, interval '1 day') g
    )
    select d.day::text as date,
      (select count(*) from telemetry_rollup_days r
        where r.day >= (d.s at time zone 'UTC')::date and r.day <= ((d.e - interval '1 microsecond') at time zone 'UTC')::date)::int
        = ((d.e - interval '1 microsecond') at time zone 'UTC')::date - (d.s at time zone 'UTC')::date + 1
        and h.n > 0 as known,
      coalesce(h.charged, 0)::float8 as charged, coalesce(h.discharged, 0)::float8 as discharged
    from d cross join lateral (
      select sum(charged_kwh) as charged, sum(discharged_kwh) as discharged, count(*)::int as n from battery_energy_hour
      where bucket >= d.s and bucket < d.e ${where(visibleOwned(batteryEnergyHour.ownerPath, batteryEnergyHour.projectId, scope))}
    ) h
    order by d.day`);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return rowsOf<{ date: string; known: boolean; charged: number; discharged: number }>(res).map((r) => ({
    date: r.date,
    chargedKwh: r.known ? round(Number(r.charged)) : null,
    dischargedKwh: r.known ? round(Number(r.discharged)) : null,
  }));
}
