/**
 * Device history benchmark (issue #13): devices with telemetry at one message per 10 s (the BMU's
 * ten values per message) over `--days` days, generated in SQL straight into the daily
 * partitions; then, through the real routes, the chart call over ranges from an hour to a year
 * (server-side min/max downsampling, ≤ 2,000 points per series), the history table's first page
 * and a deep page, and the energy totals for the whole range by day, week and month.
 *
 *   npm run bench:history                         # 1 device × 365 days (≈ 3.15 M messages) on PostgreSQL
 *   npm run bench:history -- --devices 20 --days 30
 *   npm run bench:history -- --keep                # leaves the database for EXPLAIN ANALYZE
 *   npm run bench:history -- --reuse iot_bench_…   # measures a kept database again (no seeding)
 *
 * Targets (PostgreSQL): chart p50 < 200 ms for any range, table page < 100 ms, a year's energy
 * < 300 ms. PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL): PGlite is not meant for
 * a year of a fleet.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { createPartition } from '../apps/server/src/telemetry/ingest.repo.js';
import { startApp, withBenchDatabase } from './engines.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const DEVICES = arg('devices', 1);
const DAYS = arg('days', 365);
const SAMPLES = arg('samples', 15);
const DAY = 86_400_000;
const PER_DAY = 8640;

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), text: `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms` };
}

async function main() {
  await withBenchDatabase(async (database, { reused }) => {
    const { app, auth } = await startApp(database, { TELEMETRY_RETENTION_DAYS: String(DAYS + 10), DEMO: 'off' });
    const { db } = database;
    // The hourly rollup job would race the seeding: run it by hand once the data is in.
    await app.rollups.stop();
    console.log(`bench:history  ${DEVICES} device(s) × ${DAYS} days at one message per 10 s, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    const end = Math.floor(Date.now() / DAY) * DAY;
    const start = end - DAYS * DAY;
    if (!reused) await seedHistory(db, app, start, end);
    const ids = ((await db.execute(sql`select id from devices order by id`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    await measure(app, auth, ids[0]!, start, end);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    await app.close();
  });
}

type App = Awaited<ReturnType<typeof startApp>>['app'];

/** Devices × days of BMU telemetry written in SQL straight into the daily partitions, then rolled up. */
async function seedHistory(db: Database['db'], app: App, start: number, end: number) {
  await db.execute(sql`
    insert into devices (sn, name, type_id, owner_path)
    select 'HIST-' || lpad(i::text, 5, '0'), 'History ' || i, (select id from device_types where code = 'BMU'),
      (select path from users where username = 'admin')
    from generate_series(1, ${DEVICES}) i`);
  const ids = ((await db.execute(sql`select id from devices order by id`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);

  const t0 = performance.now();
  for (let day = start; day < end; day += DAY) {
    await createPartition(db, new Date(day));
    // One day of every device in one statement: a sine-ish pack with cumulative counters.
    await db.execute(sql`
      insert into telemetry (device_id, ts, vals)
      select d.id, to_timestamp(${day / 1000} + s * 10),
        jsonb_build_object(
          '01111001', round((52 + 3 * sin((g + s) / 900.0) + random())::numeric, 2),
          '01112001', round((40 * sin((g + s) / 600.0))::numeric, 2),
          '02109001', round((50 + 45 * sin((g + s) / 2000.0))::numeric, 1),
          '02110001', 97.5,
          '10000006', case when sin((g + s) / 600.0) > 0.2 then '1' when sin((g + s) / 600.0) < -0.2 then '2' else '0' end,
          '02105001', -60 - (s % 30),
          '02117001', round(((g + s) * 0.0056)::numeric, 1),
          '02116001', round(((g + s) * 0.0054)::numeric, 1),
          '10000013', round((3.3 + random() * 0.1)::numeric, 3),
          '10000014', round((3.2 + random() * 0.05)::numeric, 3))
      from unnest(${sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::int[]`}) d(id),
        generate_series(0, ${PER_DAY - 1}) s,
        (select ${Math.round((day - start) / 10_000)}::bigint as g) g`);
    const done = (day - start) / DAY + 1;
    if (done % 30 === 0) console.log(`  ${done} days written (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  await db.execute(sql`analyze telemetry`);
  const rows = DEVICES * DAYS * PER_DAY;
  console.log(`seeded ${rows.toLocaleString('en')} messages in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const t1 = performance.now();
  const rolled = await app.rollups.run();
  await db.execute(sql`analyze telemetry_rollup`);
  console.log(`rolled up ${rolled.length} days (the hourly job's work, all devices per statement) in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
}

/**
 * The routes' figures, each beside GET /config (a trivial route) timed the same way in the same
 * run, so a figure from a loaded machine can be read against its baseline.
 */
async function measure(app: App, auth: Record<string, string>, device: number, start: number, end: number) {
  const get = async (path: string) => {
    const s = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/v1${path}`, headers: auth });
    const ms = performance.now() - s;
    const body = res.json();
    if (body.code !== 20000) throw new Error(`${path}: ${res.body}`);
    return { ms, data: body.data };
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  // The baseline: a trivial route through the same inject path, sampled between the others.
  const baseline: number[] = [];
  const sample = async (path: string) => {
    const s = performance.now();
    await app.inject({ method: 'GET', url: '/api/v1/config' });
    baseline.push(performance.now() - s);
    return get(path);
  };
  const vs = (ms: number[]) => `${stats(ms).text}  (${(stats(ms).p50 / stats(baseline).p50).toFixed(0)}× GET /config)`;

  const ranges: [string, number][] = [['1 hour', 3_600_000], ['1 day', DAY], ['2 days', 2 * DAY], ['7 days', 7 * DAY], ['30 days', 30 * DAY], ['90 days', 90 * DAY], ['365 days', 365 * DAY]];
  for (const [label, span] of ranges) {
    if (span > DAYS * DAY) continue;
    const ms: number[] = [];
    let maxPoints = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const to = end - Math.floor(Math.random() * (DAYS * DAY - span));
      const r = await sample(`/device/devicehistoricallisttoecharts?id=${device}&semaphoreIds=01111001,02109001&from=${iso(to - span)}&to=${iso(to)}`);
      ms.push(r.ms);
      for (const s of r.data.series as { points: unknown[] }[]) maxPoints = Math.max(maxPoints, s.points.length);
    }
    console.log(`chart  ${label.padEnd(9)} 2 series   ${vs(ms)}, ≤ ${maxPoints} points per series`);
  }
  for (const [label, span, page] of [['1 day', DAY, 1], ['30 days', 30 * DAY, 1], ['30 days', 30 * DAY, 500], [`${DAYS} days`, DAYS * DAY, 1]] as [string, number, number][]) {
    if (span > DAYS * DAY) continue;
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const to = end - Math.floor(Math.random() * (DAYS * DAY - span + 1));
      ms.push((await sample(`/device/devicehistoricallist?id=${device}&semaphoreIds=01111001,02109001&from=${iso(to - span)}&to=${iso(to)}&page=${page}&limit=20`)).ms);
    }
    console.log(`table  ${label.padEnd(9)} page ${String(page).padEnd(4)} ${vs(ms)} (total counted up to 10,000)`);
  }
  for (const g of ['day', 'week', 'month']) {
    const ms: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      ms.push((await sample(`/device/totalElectrictityConsumption?id=${device}&from=${iso(start)}&to=${iso(end)}&granularity=${g}`)).ms);
    }
    console.log(`energy ${DAYS} days by ${g.padEnd(5)}      ${vs(ms)}`);
  }
  console.log(`baseline GET /config        ${stats(baseline).text} (${baseline.length} samples, between the calls above)`);
}

await main();
