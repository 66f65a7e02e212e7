/**
 * Heavy reads beside ordinary requests (issue #32): the probe's shape on PostgreSQL. One device
 * with a long history (one message per `--every` seconds over `--days` days, ≥ 1 M rows, written
 * in SQL straight into the daily partitions, no rollups), then `--users` users each keeping
 * `--per-user` long reads in flight over real HTTP (399-day history pages, charts and CSV
 * exports, a 60-day CSV export, 92-day energy by day, 399-day energy by month, and a 399-day
 * energy by day that the range bound refuses), while one client loops GET /config; the clients
 * run in worker threads (`--skip <label part>` leaves shapes out). Prints GET /config p50/p99 idle and
 * under load, and what the heavy reads got: answered, refused (42900, by reason), stopped at the
 * statement limit (50300), no answer within 60 s.
 *
 *   npm run bench:heavy                                    # 6 users × 15 reads, 30 s, 400 days every 30 s
 *   npm run bench:heavy -- --users 10 --per-user 9 --duration 60
 *   npm run bench:heavy -- --keep | --reuse iot_bench_…   # keep / measure a seeded database again
 *
 * Target: GET /config p99 < 200 ms under load. PostgreSQL only (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL): PGlite runs one statement at a time in the server's own thread.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { hashPassword } from '../apps/server/src/db/password.js';
import { createPartition } from '../apps/server/src/telemetry/ingest.repo.js';
import { startApp, withBenchDatabase } from './engines.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const DAYS = arg('days', 400);
const EVERY_S = arg('every', 30);
const USERS = arg('users', 6);
const PER_USER = arg('per-user', 15);
const DURATION_S = arg('duration', 30);
const IDLE_S = arg('idle', 10);
const DAY = 86_400_000;

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
const pct = (ms: number[], p: number) => {
  const s = [...ms].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};
const rows = <T>(res: unknown) => (res as { rows: T[] }).rows;

async function main() {
  await withBenchDatabase(async (database, { reused }) => {
    const { app } = await startApp(database, { TELEMETRY_RETENTION_DAYS: String(DAYS + 10), DEMO: 'off' });
    await app.rollups.stop();
    console.log(
      `bench:heavy  ${os.cpus().length} cores, load average ${load()}; HEAVY_READS_PER_USER ${app.heavyReads.limits.perUser}, ` +
        `HEAVY_READS_TOTAL ${app.heavyReads.limits.total}`,
    );
    const end = Math.floor(Date.now() / DAY) * DAY;
    if (!reused) await seed(database, end - DAYS * DAY, end);
    const device = rows<{ id: number }>(await database.db.execute(sql`select id from devices where sn = 'HEAVY-1'`))[0]!.id;
    const n = rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from telemetry where device_id = ${device}`))[0]!.n;
    console.log(`device HEAVY-1: ${n.toLocaleString('en')} messages over ${DAYS} days`);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    const tokens: string[] = [];
    for (let i = 1; i <= USERS; i++) {
      const res = await fetch(`${base}/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `heavy${i}`, password: 'bench-pass' }),
      });
      tokens.push(((await res.json()) as { data: { token: string } }).data.token);
    }

    // The clients run in threads of their own: the main thread is the server's alone, as it
    // would be in production, and what GET /config waits for is the server.
    const idle = (await client({ role: 'config', base, until: Date.now() + IDLE_S * 1000 })) as number[];
    console.log(`GET /config idle:        p50 ${pct(idle, 0.5).toFixed(1)} ms, p99 ${pct(idle, 0.99).toFixed(1)} ms (${idle.length} calls, load ${load()})`);

    const iso = (ms: number) => new Date(ms).toISOString();
    const long = `from=${iso(end - 399 * DAY)}&to=${iso(end)}`;
    const shapes: [string, string][] = [
      ['history 399 d page 1', `/device/devicehistoricallist?id=${device}&semaphoreIds=01111001,02109001&${long}&page=1&limit=20`],
      ['chart 399 d', `/device/devicehistoricallisttoecharts?id=${device}&semaphoreIds=01111001,02109001&${long}`],
      ['export csv 399 d', `/device/devicehistoricallist/export?id=${device}&semaphoreIds=01111001&${long}&format=csv`],
      ['export csv 60 d', `/device/devicehistoricallist/export?id=${device}&semaphoreIds=01111001&from=${iso(end - 60 * DAY)}&to=${iso(end)}&format=csv`],
      ['energy 92 d by day', `/device/totalElectrictityConsumption?id=${device}&from=${iso(end - 92 * DAY)}&to=${iso(end)}&granularity=day`],
      ['energy 399 d by month', `/device/totalElectrictityConsumption?id=${device}&${long}&granularity=month`],
      ['energy 399 d by day', `/device/totalElectrictityConsumption?id=${device}&${long}&granularity=day`],
    ];
    const skip = process.argv.includes('--skip') ? process.argv[process.argv.indexOf('--skip') + 1]! : undefined;
    if (skip) shapes.splice(0, shapes.length, ...shapes.filter(([label]) => !label.includes(skip)));
    const until = Date.now() + DURATION_S * 1000;
    const [under, reads] = (await Promise.all([
      client({ role: 'config', base, until }),
      client({ role: 'readers', base, until, tokens, perUser: PER_USER, shapes }),
    ])) as [number[], { outcomes: [string, number][]; answerMs: number[] }];
    console.log(`GET /config under load:  p50 ${pct(under, 0.5).toFixed(1)} ms, p99 ${pct(under, 0.99).toFixed(1)} ms (${under.length} calls, load ${load()})`);
    console.log(`heavy reads (${USERS} users × ${PER_USER} in flight, ${DURATION_S} s):`);
    for (const [key, v] of reads.outcomes.sort()) console.log(`  ${key.padEnd(44)} ${v}`);
    console.log(`  answered in: p50 ${pct(reads.answerMs, 0.5).toFixed(0)} ms, p99 ${pct(reads.answerMs, 0.99).toFixed(0)} ms`);
    console.log(`load average after: ${load()}`);
    await app.close();
  });
}

/**
 * The clients, as plain JavaScript for an eval'd worker thread: `config` loops GET /config and
 * answers its latencies; `readers` keeps `perUser` heavy reads in flight per token, cycling the
 * shapes, and answers what they got (a refused one waits 250 ms: a client that honours the
 * refusal a little, a hostile one is held by the session's API_RATE_LIMIT anyway).
 */
const CLIENT = `
const { parentPort, workerData: w } = require('node:worker_threads');
const main = async () => {
  if (w.role === 'config') {
    const ms = [];
    while (Date.now() < w.until) {
      const s = performance.now();
      await (await fetch(w.base + '/config')).arrayBuffer();
      ms.push(performance.now() - s);
    }
    return ms;
  }
  const outcomes = new Map();
  const count = (key) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  const answerMs = [];
  let k = 0;
  const reader = async (token) => {
    while (Date.now() < w.until) {
      const [label, path] = w.shapes[k++ % w.shapes.length];
      const s = performance.now();
      try {
        const res = await fetch(w.base + path, { headers: { authorization: 'Bearer ' + token }, signal: AbortSignal.timeout(60000) });
        const json = (res.headers.get('content-type') ?? '').includes('json');
        const body = json ? await res.json() : (await res.arrayBuffer(), { code: 20000 });
        if (body.code === 20000) {
          count('answered: ' + label);
          answerMs.push(performance.now() - s);
        } else if (body.code === 42900) {
          count('refused 42900 ' + (body.data?.reason ?? 'session rate limit'));
          await new Promise((r) => setTimeout(r, 250));
        } else count((body.code + ' ' + (body.data?.reason ?? '') + ' (' + label + ')').trim());
      } catch {
        count('no answer within 60 s');
      }
    }
  };
  await Promise.all(w.tokens.flatMap((t) => Array.from({ length: w.perUser }, () => reader(t))));
  return { outcomes: [...outcomes], answerMs };
};
main().then((r) => parentPort.postMessage(r));
`;

function client(workerData: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData });
    worker.once('message', (r) => {
      resolve(r);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** The device's messages, one statement per day, and the bench's users (super administrators). */
async function seed(database: Database, start: number, end: number) {
  const { db } = database;
  await db.execute(sql`
    insert into devices (sn, name, type_id, owner_path)
    values ('HEAVY-1', 'Heavy reads', (select id from device_types where code = 'BMU'), (select path from users where username = 'admin'))`);
  const hash = await hashPassword('bench-pass');
  for (let i = 1; i <= USERS; i++) {
    const id = rows<{ id: number }>(
      await db.execute(sql`
        insert into users (username, password_hash, role_id, type, parent_id)
        values (${`heavy${i}`}, ${hash}, (select role_id from users where username = 'admin'), 0, 1) returning id`),
    )[0]!.id;
    await db.execute(sql`update users set path = ${`/1/${id}/`} where id = ${id}`);
  }
  const perDay = Math.floor(86_400 / EVERY_S);
  const t0 = performance.now();
  for (let day = start; day < end; day += DAY) {
    await createPartition(db, new Date(day));
    await db.execute(sql`
      insert into telemetry (device_id, ts, vals)
      select d.id, to_timestamp(${day / 1000} + s * ${EVERY_S}),
        jsonb_build_object(
          '01111001', round((52 + 3 * sin((g + s) / 900.0) + random())::numeric, 2),
          '02109001', round((50 + 45 * sin((g + s) / 2000.0))::numeric, 1),
          '02117001', round(((g + s) * 0.0056)::numeric, 1),
          '02116001', round(((g + s) * 0.0054)::numeric, 1))
      from (select id from devices where sn = 'HEAVY-1') d, generate_series(0, ${perDay - 1}) s,
        (select ${Math.round((day - start) / 1000 / EVERY_S)}::bigint as g) g`);
  }
  await db.execute(sql`analyze telemetry`);
  console.log(`seeded ${(perDay * DAYS).toLocaleString('en')} messages in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

await main();
