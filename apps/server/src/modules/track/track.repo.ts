import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { emptyFixes, type Fixes } from './track.math.js';

/**
 * Reads of `device_positions` (one row per GPS fix, unique on (device_id, ts)): a device's fixes
 * over a time range in one index range scan, answered as ONE row: per field, the values of every
 * fix as binary float8 (`float8send`, 8 bytes big-endian each) concatenated in time order, which
 * become typed arrays without a JavaScript object or a number parsed from text per fix. Rows as
 * objects cost several times the query itself at 260,000 fixes, and so did text lists
 * (PostgreSQL's float-to-text): bench/README.md "Tracks".
 */

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

export interface TrackRange {
  deviceId: number;
  from: Date;
  to: Date;
}

const FIELDS = ['t', 'lng', 'lat', 'speed', 'direction', 'pdop', 'satellites'] as const;
type Field = (typeof FIELDS)[number];

/** Big-endian float8 values (a bytea from PostgreSQL or PGlite) into `out`. */
function readFloat8(bytes: Uint8Array | null, out: Float64Array): void {
  if (!bytes) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(out.length, bytes.byteLength >> 3);
  for (let i = 0; i < n; i++) out[i] = view.getFloat64(i * 8);
}

/**
 * The device's fixes in [from, to) in time order, at most `max` (the earliest ones). The
 * aggregates read the ordered, limited subquery in its order (one plain aggregate over a sorted
 * input; no GROUP BY, no parallel plan), so the i-th value of every column belongs to one fix.
 * Missing values are NaN.
 */
export async function fixesIn(db: Executor, r: TrackRange, max: number): Promise<Fixes> {
  const col = (expr: string, name: Field) => sql.raw(`string_agg(float8send(coalesce(${expr}, 'NaN'::float8)), ''::bytea) as ${name}`);
  const res = await db.execute(sql`
    select count(*)::int as n,
      ${col('extract(epoch from ts)::float8 * 1000', 't')}, ${col('lng', 'lng')}, ${col('lat', 'lat')},
      ${col('speed', 'speed')}, ${col('direction', 'direction')}, ${col('pdop', 'pdop')},
      ${col('satellites::float8', 'satellites')}
    from (
      select ts, lng, lat, speed, direction, pdop, satellites from device_positions
      where device_id = ${r.deviceId} and ts >= ${r.from.toISOString()}::timestamptz and ts < ${r.to.toISOString()}::timestamptz
      order by ts limit ${max}
    ) p`);
  const row = rowsOf<Record<Field, Uint8Array | null> & { n: number }>(res)[0];
  const f = emptyFixes(row?.n ?? 0);
  if (!row || f.n === 0) return f;
  for (const name of FIELDS) readFloat8(row[name], f[name]);
  return f;
}

/** How many fixes the range holds, counted up to `cap` (an index range scan that stops there). */
export async function countFixes(db: Executor, r: TrackRange, cap: number): Promise<number> {
  const res = await db.execute(sql`select count(*)::int as n from (select 1 from device_positions
    where device_id = ${r.deviceId} and ts >= ${r.from.toISOString()}::timestamptz and ts < ${r.to.toISOString()}::timestamptz limit ${cap}) c`);
  return rowsOf<{ n: number }>(res)[0]?.n ?? 0;
}

/** The time of the device's newest fix, and of its first fix at or after `from` when given. */
export async function lastFixAt(db: Executor, deviceId: number): Promise<Date | undefined> {
  const res = await db.execute(sql`select ts from device_positions where device_id = ${deviceId} order by ts desc limit 1`);
  const ts = rowsOf<{ ts: Date | string }>(res)[0]?.ts;
  return ts === undefined ? undefined : new Date(ts);
}

export async function firstFixAt(db: Executor, r: TrackRange): Promise<Date | undefined> {
  const res = await db.execute(sql`select ts from device_positions where device_id = ${r.deviceId}
    and ts >= ${r.from.toISOString()}::timestamptz and ts < ${r.to.toISOString()}::timestamptz order by ts asc limit 1`);
  const ts = rowsOf<{ ts: Date | string }>(res)[0]?.ts;
  return ts === undefined ? undefined : new Date(ts);
}
