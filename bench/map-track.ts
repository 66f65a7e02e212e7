/**
 * `npm run bench:map-track` (issue #35): one device with 30 days of GPS fixes at one every 10 s
 * (259,200 fixes, seeded in SQL: a winding drive with a 10-minute stop every 5.5 hours) on
 * PostgreSQL, then
 *  - GET /device/locus through the real route over `--samples` (40) random ranges from an hour to
 *    30 days, each followed by GET /user/info in the same run (the baseline): p50/p95 and ratio;
 *  - the whole 30 days (all 259,200 fixes read, measured and simplified to 5,000 points): p50/p95,
 *    and its parts (the read, the arithmetic) beside reading the same fixes as row objects;
 *  - in the system Chromium (no network; the built console, `npm run build` first), the track
 *    screen on the 30 days: from the request for the track to the path drawn.
 * Targets: the 30-day read and simplification well under 1 s; the track drawn in under 1 s.
 *
 *   npm run bench:map-track
 *   npm run bench:map-track -- --samples 100 --keep     # --reuse iot_bench_… measures a kept database
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { chromium } from '@playwright/test';
import { detailsAt, fixesIn } from '../apps/server/src/modules/track/track.repo.js';
import { anchorsOf, cumulativeDistance, findStops, simplify, totalsOf } from '../apps/server/src/modules/track/track.math.js';
import { startApp, withBenchDatabase } from './engines.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SAMPLES = arg('samples', 40);
const DAY = 86_400_000;
const DAYS = 30;
const FIXES = (DAYS * DAY) / 10_000;
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), text: `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms` };
}

/** A deterministic generator (mulberry32): the same ranges every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

await withBenchDatabase(async (database, { reused }) => {
  const { app, auth } = await startApp(database, { DEMO: 'off', WEB_DIST: dist });
  const { db } = database;
  const end = Math.floor(Date.now() / DAY) * DAY;
  const start = end - DAYS * DAY;
  console.log(`bench:map-track  1 device × ${DAYS} days at one fix per 10 s, PostgreSQL, ${os.cpus().length} cores, load average ${load()}`);
  if (!reused) {
    const t0 = performance.now();
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('TRACK-BENCH', 'Track bench', (select id from device_types where code = 'BMU'), '/1/')`);
    // k: distance along the drive in fixes; it stands still for 60 fixes (10 min) every 2,000.
    await db.execute(sql`
      insert into device_positions (device_id, ts, lng, lat, speed, direction, pdop, satellites)
      select d.id, to_timestamp((${start}::float8 + g::float8 * 10000) / 1000),
        116.4 + 0.2 * sin(k / 600.0) + 0.01 * sin(k / 30.0) + 0.00002 * (random() - 0.5),
        39.9 + 0.15 * sin(k / 800.0) + 0.01 * cos(k / 41.0) + 0.00002 * (random() - 0.5),
        case when g % 2000 < 60 then 0 else 20 + 15 * sin(k / 50.0) end,
        (k * 7) % 360, 0.8 + random(), 6 + (g % 7)
      from devices d, generate_series(0, ${FIXES - 1}) g,
        lateral (select g - 60 * (g / 2000) - least(g % 2000, 60) as k) kk
      where d.sn = 'TRACK-BENCH'`);
    await db.execute(sql`analyze device_positions`);
    console.log(`seeded ${FIXES.toLocaleString('en')} fixes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const id = ((await db.execute(sql`select id from devices where sn = 'TRACK-BENCH'`)) as unknown as { rows: { id: number }[] }).rows[0]!.id;
  /** This process's CPU time (the server's thread and the driver), beside the wall time. */
  const get = async (url: string) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: auth });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body.slice(0, 300)}`);
    return { ms, body: res.body };
  };
  let cpuMs: number[] = [];
  const locusUrl = (from: number, to: number) => `/api/v1/device/locus?id=${id}&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  for (let i = 0; i < 3; i++) await get(locusUrl(start, end)); // warm-up: caches, JIT

  // Random ranges, each beside /user/info.
  const random = rng(35);
  const locusMs: number[] = [];
  const infoMs: number[] = [];
  let fixesRead = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const span = Math.round(3_600_000 * Math.exp(random() * Math.log((DAYS * DAY) / 3_600_000)));
    const from = start + Math.round(random() * (DAYS * DAY - span));
    const r = await get(locusUrl(from, from + span));
    locusMs.push(r.ms);
    fixesRead += (JSON.parse(r.body) as { data: { read: number } }).data.read;
    infoMs.push((await get('/api/v1/user/info')).ms);
  }
  const l = stats(locusMs);
  const u = stats(infoMs);
  console.log(`GET /device/locus, ${SAMPLES} random ranges (1 h – 30 days, ${Math.round(fixesRead / SAMPLES).toLocaleString('en')} fixes on average): ${l.text}`);
  console.log(`GET /user/info in the same run:                 ${u.text}; locus / user-info p50 ratio ${(l.p50 / u.p50).toFixed(1)}`);

  // The whole 30 days.
  const whole: number[] = [];
  cpuMs = [];
  let answer = { read: 0, kept: 0, toleranceM: 0, bytes: 0 };
  for (let i = 0; i < 10; i++) {
    const r = await get(locusUrl(start, end));
    whole.push(r.ms);
    const data = (JSON.parse(r.body) as { data: typeof answer }).data;
    answer = { read: data.read, kept: data.kept, toleranceM: data.toleranceM, bytes: r.body.length };
  }
  const w = stats(whole);
  const wholeCpu = stats(cpuMs);
  console.log(
    `GET /device/locus, all 30 days: ${w.text} (read ${answer.read.toLocaleString('en')}, kept ${answer.kept.toLocaleString('en')}, ` +
      `tolerance ${answer.toleranceM} m, ${(answer.bytes / 1024).toFixed(0)} KB JSON) — target well under 1 s: ${w.p95 < 1000 ? 'met' : 'MISSED'}`,
  );
  console.log(`  the server process's CPU per request (excluding PostgreSQL's): ${wholeCpu.text}`);

  // Its parts, and the rejected way of reading (one object per fix).
  const range = { deviceId: id, from: new Date(start), to: new Date(end) };
  const readMs: number[] = [];
  const mathMs: number[] = [];
  const lookupMs: number[] = [];
  const rowsMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    let t0 = performance.now();
    const f = await fixesIn(db, range, 300_001, { details: false });
    readMs.push(performance.now() - t0);
    t0 = performance.now();
    const cum = cumulativeDistance(f);
    const stops = findStops(f, cum);
    totalsOf(f, cum, stops);
    const kept = simplify(f, 5000, anchorsOf(f.n, stops)).keep;
    mathMs.push(performance.now() - t0);
    t0 = performance.now();
    await detailsAt(db, id, Array.from(kept, (i) => f.t[i]!));
    lookupMs.push(performance.now() - t0);
    t0 = performance.now();
    await db.execute(sql`select extract(epoch from ts)::float8 * 1000 as t, lng, lat, speed, direction, pdop, satellites from device_positions
      where device_id = ${id} and ts >= ${range.from.toISOString()}::timestamptz and ts < ${range.to.toISOString()}::timestamptz order by ts`);
    rowsMs.push(performance.now() - t0);
  }
  console.log(`  of which: read into typed arrays ${stats(readMs).text}; distance, stops, totals and Douglas–Peucker ${stats(mathMs).text}; direction, PDOP and satellites of the 5,000 kept ${stats(lookupMs).text}`);
  console.log(`  the same fixes read as row objects (not used): ${stats(rowsMs).text}`);

  // CPU time, which the machine's load does not inflate: PostgreSQL's backend (from /proc, on
  // this machine) for the two statements, and this process for the whole request.
  if (database.url) {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const own = drizzle(client) as unknown as typeof db;
    const ticks = () => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, 100 Hz ticks → ms
    };
    const runs = 5;
    let before = ticks();
    let kept: Uint32Array = new Uint32Array(0);
    let f = await fixesIn(own, range, 300_001, { details: false });
    for (let i = 1; i < runs; i++) f = await fixesIn(own, range, 300_001, { details: false });
    const readCpu = (ticks() - before) / runs;
    const cum = cumulativeDistance(f);
    kept = simplify(f, 5000, anchorsOf(f.n, findStops(f, cum))).keep;
    before = ticks();
    for (let i = 0; i < runs; i++) await detailsAt(own, id, Array.from(kept, (k) => f.t[k]!));
    const lookupCpu = (ticks() - before) / runs;
    await client.end();
    console.log(
      `  PostgreSQL's CPU per 30-day request: the read ${readCpu.toFixed(0)} ms + the lookup ${lookupCpu.toFixed(0)} ms; with the server's ${wholeCpu.p50.toFixed(0)} ms ` +
        `≈ ${(readCpu + lookupCpu + wholeCpu.p50).toFixed(0)} ms of CPU in all (the wall time of one request on an idle machine)`,
    );
  }

  // The track drawn in Chromium.
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.log('Chromium: skipped, apps/web/dist is missing (npm run build)');
  } else {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 900 } });
    await context.addCookies([{ name: 'Admin-Token', value: auth.authorization.replace('Bearer ', ''), url: address, sameSite: 'Lax' }]);
    const outside: string[] = [];
    context.on('request', (r) => {
      if (new URL(r.url()).hostname !== '127.0.0.1' && !r.url().startsWith('data:')) outside.push(r.url());
    });
    // When the path appears, by the page's clock (a MutationObserver set before the console loads).
    await context.addInitScript(() => {
      const w = globalThis as unknown as {
        __pathAt?: number;
        document: { querySelector(s: string): unknown };
        MutationObserver: new (cb: () => void) => { observe(target: unknown, opts: object): void };
      };
      // A path that appears after none was there: a track drawn (not the previous one still shown).
      let gone = true;
      new w.MutationObserver(() => {
        if (!w.document.querySelector('path.track-path')) gone = true;
        else if (gone && w.__pathAt === undefined) {
          w.__pathAt = performance.now();
          gone = false;
        }
      }).observe(w.document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    const url = `${address}/device/track?id=${id}&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}`;
    const drawn: number[] = [];
    const server: number[] = [];
    const client: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto(url);
      await page.waitForFunction(() => (globalThis as unknown as { __pathAt?: number }).__pathAt !== undefined, undefined, { timeout: 60_000 });
      const m = await page.evaluate(() => {
        const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/device/locus?')) as unknown as { startTime: number; responseEnd: number };
        return { start: entry.startTime, end: entry.responseEnd, at: (globalThis as unknown as { __pathAt: number }).__pathAt };
      });
      drawn.push(m.at - m.start);
      server.push(m.end - m.start);
      client.push(m.at - m.end);
    }
    const d = stats(drawn);
    console.log(
      `Chromium, the 30-day track screen: request → path drawn ${d.text} (the request ${stats(server).text}; ` +
        `answer → drawn ${stats(client).text}) — target < 1 s: ${d.p50 < 1000 ? 'met' : 'MISSED'}; requests leaving the machine: ${outside.length}`,
    );

    // In the open screen (the console loaded and idle), another range: the 30 days again by the
    // address, as a link or the browser's Back would do.
    const again: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goto(`${address}/device/track?id=${id}&from=${new Date(end - DAY).toISOString()}&to=${new Date(end).toISOString()}`);
      await page.waitForFunction(() => (globalThis as unknown as { __pathAt?: number }).__pathAt !== undefined, undefined, { timeout: 60_000 });
      await page.waitForTimeout(1000);
      const m = await page.evaluate((target) => {
        const w = globalThis as unknown as { __pathAt?: number; history: { pushState(a: null, b: string, c: string): void }; dispatchEvent(e: unknown): void; PopStateEvent: new (t: string) => unknown };
        w.__pathAt = undefined;
        const t0 = performance.now();
        w.history.pushState(null, '', target);
        w.dispatchEvent(new w.PopStateEvent('popstate'));
        return t0;
      }, `/device/track?id=${id}&from=${new Date(start).toISOString()}&to=${new Date(end).toISOString()}`);
      await page.waitForFunction(() => (globalThis as unknown as { __pathAt?: number }).__pathAt !== undefined, undefined, { timeout: 60_000 });
      again.push((await page.evaluate(() => (globalThis as unknown as { __pathAt: number }).__pathAt)) - m);
    }
    const a = stats(again);
    console.log(`Chromium, the open screen given the 30 days: → path drawn ${a.text} — target < 1 s: ${a.p50 < 1000 ? 'met' : 'MISSED'}`);
    await browser.close();
  }
  console.log(`load average after: ${load()}`);
  await app.close();
});
