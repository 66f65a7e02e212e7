/**
 * `npm run bench:fence` — what the geo-fence crossing check (telemetry/fence.check.ts, issue #35)
 * adds to an ingestion batch, on PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL; a database
 * created and dropped here). Seeds 2 × `--devices` BMU devices (default 2,000 a side), each with
 * `--fences` issued fences (default 2) of 500 m round its home. Then `--batches` rounds (default
 * 40): one batch of one GPS fix per device of side A written by `writeBatch` with the check as its
 * hook, and the same batch shape for side B without it (what a batch cost before), alternating so
 * both see the same load. Every device crosses its fences every 25 rounds (about 4 % of fixes cross),
 * so alarms open and end as they would. Prints p50 / p90 ms per batch of both, the ratio, the
 * alarms raised and the load average.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:fence -- --devices 2000
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { writeBatch, type Batch } from '../apps/server/src/telemetry/ingest.repo.js';
import { FenceCheck } from '../apps/server/src/telemetry/fence.check.js';
import { seed } from '../apps/server/src/db/seed/index.js';
import { withBenchDatabase } from './engines.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const SIDE = Number(opt('devices') ?? 2000);
const FENCES = Number(opt('fences') ?? 2);
const BATCHES = Number(opt('batches') ?? 40);
const RADIUS = 500;
const M_PER_DEG = 111_195;

const home = (i: number) => ({ lng: 100 + (i % 1000) * 0.02, lat: 30 + Math.floor(i / 1000) * 0.02 });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

await withBenchDatabase(async (database) => {
  const db = database.db;
  await seed(db, { adminUsername: 'admin', adminPassword: 'bench-pass' });
  await db.execute(sql`
    insert into devices (sn, name, type_id, owner_path, lng, lat)
    select 'FEN-' || lpad(i::text, 7, '0'), 'Pack ' || i, (select id from device_types where code = 'BMU'), '/1/',
      100 + (i % 1000) * 0.02, 30 + floor(i / 1000) * 0.02
    from generate_series(0, ${2 * SIDE - 1}) i`);
  const ids = ((await db.execute(sql`select id from devices order by id`)) as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
  await db.execute(sql`
    insert into device_fences (device_id, lng, lat, radius, action, state)
    select d.id, d.lng, d.lat, ${RADIUS}, 'alarm', 'issued' from devices d, generate_series(1, ${FENCES})`);
  await db.execute(sql`analyze`);
  console.log(`${ids.length.toLocaleString('en')} devices, ${(ids.length * FENCES).toLocaleString('en')} issued fences of ${RADIUS} m`);

  const index = new Map(ids.map((id, i) => [id, i]));
  const check = new FenceCheck();
  const t0 = Date.now() - 3_600_000;
  const batchOf = (side: number[], b: number): Batch => ({
    telemetry: [],
    logs: [],
    seen: [],
    positions: side.map((id, k) => {
      const h = home(index.get(id)!);
      // Out (800 m east) for 25 rounds, back home (within 100 m) for 25, each device at its own phase.
      const out = Math.floor((b + k) / 25) % 2 === 1;
      const m = out ? 800 : (k % 10) * 10;
      return { deviceId: id, ts: new Date(t0 + b * 10_000).toISOString(), lng: h.lng + m / (M_PER_DEG * Math.cos((h.lat * Math.PI) / 180)), lat: h.lat };
    }),
  });
  const a = ids.slice(0, SIDE);
  const bSide = ids.slice(SIDE);
  const withCheck: number[] = [];
  const without: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const [ba, bb] = [batchOf(a, b), batchOf(bSide, b)];
    const runs: [() => Promise<void>, number[]][] = [
      [() => writeBatch(db, ba, (tx, batch) => check.apply(tx, batch)), withCheck],
      [() => writeBatch(db, bb), without],
    ];
    if (b % 2 === 1) runs.reverse();
    for (const [run, into] of runs) {
      const s = performance.now();
      await run();
      into.push(performance.now() - s);
    }
  }
  const alarms = ((await db.execute(sql`select count(*)::int as n from alarms where source = 'fence'`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
  // The first rounds warm caches and plans: dropped from both.
  const w = withCheck.slice(3);
  const n = without.slice(3);
  console.log(`batch of ${SIDE.toLocaleString('en')} fixes, ${BATCHES - 3} rounds measured:`);
  console.log(`  with the crossing check   p50 ${pct(w, 50).toFixed(1)} ms  p90 ${pct(w, 90).toFixed(1)} ms`);
  console.log(`  without it (baseline)     p50 ${pct(n, 50).toFixed(1)} ms  p90 ${pct(n, 90).toFixed(1)} ms`);
  console.log(`  ratio p50 ${(pct(w, 50) / pct(n, 50)).toFixed(2)}×; ${alarms.toLocaleString('en')} fence alarms opened; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
});
