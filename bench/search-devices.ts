/**
 * Device search benchmark: a fleet of BENCH_DEVICES devices (default 200,000), then the list's
 * free-text search (`GET /device/list?q=`, name/SN/IMEI/SIM containing the text, with the total
 * count) and the typeahead (`GET /device/seachList?q=`, SN or name prefix) through the real
 * routes, with the pg_trgm indexes of migration 0005 and, for comparison, without them.
 * Broad terms (a name fragment shared by ~1/256 of the fleet, three digits found in thousands of
 * SNs, IMEIs and SIM numbers) measure what a user typing sees: the capped count and the order.
 * Target: any device found in milliseconds (median under 50 ms on PostgreSQL at 200,000 devices).
 *
 *   npm run bench:search     # prints one line per engine, query kind and index state
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { onEachEngine, startApp } from './engines.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 200_000);
const SAMPLES = 25;
const TRGM_INDEXES = ['devices_search_trgm_idx'];

/** Deterministic pseudo-random device numbers to look for. */
function picks(seed: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < SAMPLES; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    out.push(1 + (x % DEVICES));
  }
  return out;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** What the fleet's rows hold, mirrored by the insert below. */
const snOf = (i: number) => `BMS-${pad(i, 7)}`;
const imeiOf = (i: number) => `86${pad(i * 7919, 13)}`;

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

async function run(label: string, database: Database) {
  const { app, auth: headers } = await startApp(database);
  const { db } = database;

  const t0 = performance.now();
  await db.execute(sql`
    insert into devices (sn, name, type_id, owner_path, imei, sim_number, address)
    select 'BMS-' || lpad(i::text, 7, '0'),
           'Pack ' || substr(md5(i::text), 1, 8),
           (select id from device_types where code = 'BMU'),
           (select path from users where username = 'admin'),
           '86' || lpad((i::bigint * 7919)::text, 13, '0'),
           '8986' || lpad((i::bigint * 104729)::text, 16, '0'),
           'Bay ' || (i % 500)
    from generate_series(1, ${DEVICES}) as i`);
  await db.execute(sql`analyze devices`);
  console.log(`${label.padEnd(9)} ${DEVICES} devices inserted and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const time = async (kind: string, url: (i: number) => string, expect: (data: unknown) => boolean, seed: number, state: string) => {
    const ms: number[] = [];
    for (const i of picks(seed)) {
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url: url(i), headers });
      ms.push(performance.now() - t);
      const body = res.json();
      if (body.code !== 20000 || !expect(body.data)) throw new Error(`${kind}: unexpected answer for ${url(i)}: ${res.body.slice(0, 200)}`);
    }
    console.log(`${label.padEnd(9)} ${state.padEnd(13)} ${kind.padEnd(36)} ${stats(ms)}`);
  };

  const measure = async (state: string) => {
    // The middle of an SN: a "contains" search that no prefix index can answer.
    await time('list ?q=<SN middle> (+ total)', (i) => `/api/v1/device/list?q=${snOf(i).slice(5)}&limit=20`,
      (d) => (d as { total: number }).total >= 1, 1, state);
    await time('list ?q=<IMEI tail> (+ total)', (i) => `/api/v1/device/list?q=${imeiOf(i).slice(-9)}&limit=20`,
      (d) => (d as { total: number }).total >= 1, 2, state);
    // Broad terms, as a user types them: thousands of matches, so the count and the order over
    // the matches (not finding them) are the cost. Each sample a different term.
    await time('list ?q=Pack <2 hex> (~1/256 of fleet)', (i) => `/api/v1/device/list?q=${encodeURIComponent(`Pack ${(i % 256).toString(16).padStart(2, '0')}`)}&limit=20`,
      (d) => (d as { total: number }).total >= 1, 4, state);
    await time('list ?q=<3 digits> (thousands)', (i) => `/api/v1/device/list?q=${pad(i % 1000, 3)}&limit=20`,
      (d) => (d as { total: number }).total >= 100, 5, state);
    await time('typeahead ?q=<SN prefix>', (i) => `/api/v1/device/seachList?q=${snOf(i)}`,
      (d) => (d as unknown[]).length >= 1, 3, state);
  };

  await measure('trgm indexes');
  for (const name of TRGM_INDEXES) await db.execute(sql.raw(`drop index ${name}`));
  await measure('no trgm');
  await app.close();
}

async function main() {
  await onEachEngine(run);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
