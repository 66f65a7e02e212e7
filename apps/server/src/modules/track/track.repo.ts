import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { emptyFixes, type Fixes } from './track.math.js';

/**
 * Reads of `device_positions` (one row per GPS fix, unique on (device_id, ts)): a device's fixes
 * over a time range in one index range scan, answered as ONE row: per field, the values of every
 * fix in time order as binary (`int8send`/`float8send`, big-endian) concatenated and sent as
 * base64 text, which become typed arrays without a JavaScript object or a number parsed from text
 * per fix. Rows as objects, text lists (PostgreSQL's float-to-text) and bytea's hex (twice the
 * bytes) each cost more than the scan itself at 260,000 fixes; so does every column read for
 * every fix, so the track reads the four it measures with (time, position, speed) and looks up
 * the rest for the points it answers only (bench/README.md "Tracks").
 */

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

export interface TrackRange {
  deviceId: number;
  from: Date;
  to: Date;
}

const decode = (text: string | null) => (text ? Buffer.from(text, 'base64') : Buffer.alloc(0));

/** Big-endian float8 values into `out`. */
function readFloat8(text: string | null, out: Float64Array): void {
  const bytes = decode(text);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(out.length, bytes.byteLength >> 3);
  for (let i = 0; i < n; i++) out[i] = view.getFloat64(i * 8);
}

/** Big-endian int8 values (epoch microseconds: exact below 2^53) into `out` as epoch milliseconds. */
function readMicros(text: string | null, out: Float64Array): void {
  const bytes = decode(text);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Math.min(out.length, bytes.byteLength >> 3);
  for (let i = 0; i < n; i++) out[i] = (view.getInt32(i * 8) * 4294967296 + view.getUint32(i * 8 + 4)) / 1000;
}

/** One base64 column of a field for every fix, NaN where it is null. */
const float8Column = (expr: string, name: string) => `encode(string_agg(float8send(coalesce(${expr}, 'NaN'::float8)), ''::bytea), 'base64') as ${name}`;
/** Each fix's time in epoch microseconds (exact: PostgreSQL's own resolution), as one base64 column. */
const MICROS = `floor(extract(epoch from ts) * 1000000)::int8`;
const TIME_COLUMN = `encode(string_agg(int8send(${MICROS}), ''::bytea), 'base64') as t`;

type DetailField = 'direction' | 'pdop' | 'satellites';
const DETAILS: Record<DetailField, string> = { direction: 'direction', pdop: 'pdop', satellites: 'satellites::float8' };

/**
 * The device's fixes in [from, to) in time order, at most `max` (the earliest ones): time,
 * position and speed, and with `details` also direction, PDOP and satellites (else NaN). The
 * aggregates read the ordered, limited subquery in its order (one plain aggregate over a sorted
 * input; no GROUP BY, no parallel plan), so the i-th value of every column belongs to one fix.
 */
export async function fixesIn(db: Executor, r: TrackRange, max: number, opts: { details: boolean }): Promise<Fixes> {
  const details = opts.details ? (Object.entries(DETAILS) as [DetailField, string][]) : [];
  const columns = [TIME_COLUMN, float8Column('lng', 'lng'), float8Column('lat', 'lat'), float8Column('speed', 'speed'), ...details.map(([name, expr]) => float8Column(expr, name))];
  const res = await db.execute(sql`
    select count(*)::int as n, ${sql.raw(columns.join(', '))}
    from (
      select ts, lng, lat, speed, direction, pdop, satellites from device_positions
      where device_id = ${r.deviceId} and ts >= ${r.from.toISOString()}::timestamptz and ts < ${r.to.toISOString()}::timestamptz
      order by ts limit ${max}
    ) p`);
  const row = rowsOf<Record<string, string | null> & { n: number }>(res)[0];
  const f = emptyFixes(row?.n ?? 0);
  f.direction.fill(NaN);
  f.pdop.fill(NaN);
  f.satellites.fill(NaN);
  if (!row || f.n === 0) return f;
  readMicros(row.t ?? null, f.t);
  readFloat8(row.lng ?? null, f.lng);
  readFloat8(row.lat ?? null, f.lat);
  readFloat8(row.speed ?? null, f.speed);
  for (const [name] of details) readFloat8(row[name] ?? null, f[name]);
  return f;
}

/**
 * Direction, PDOP and satellites of the fixes at the given times (epoch ms as fixesIn reads
 * them, to the microsecond): one probe of the unique (device_id, ts) index for the whole list
 * (`ts = any(…)`); a time with no fix (deleted since) is NaN.
 */
export async function detailsAt(db: Executor, deviceId: number, times: ArrayLike<number>): Promise<Record<DetailField, Float64Array>> {
  const out = { direction: new Float64Array(times.length).fill(NaN), pdop: new Float64Array(times.length).fill(NaN), satellites: new Float64Array(times.length).fill(NaN) };
  if (times.length === 0) return out;
  const index = new Map<number, number>();
  for (let i = 0; i < times.length; i++) index.set(Math.round(times[i]! * 1000), i);
  const res = await db.execute(sql`
    select ${sql.raw(MICROS)} as us, direction, pdop, satellites from device_positions
    where device_id = ${deviceId}
      and ts = any(array(select 'epoch'::timestamptz + x * interval '1 microsecond' from unnest(${`{${[...index.keys()].join(',')}}`}::int8[]) x))`);
  for (const r of rowsOf<{ us: string | number; direction: number | null; pdop: number | null; satellites: number | null }>(res)) {
    const i = index.get(Number(r.us));
    if (i === undefined) continue;
    out.direction[i] = r.direction ?? NaN;
    out.pdop[i] = r.pdop ?? NaN;
    out.satellites[i] = r.satellites ?? NaN;
  }
  return out;
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
