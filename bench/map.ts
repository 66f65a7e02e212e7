/**
 * `npm run bench:map`: the fleet map at 50,000 devices (issue #35), in the system Chromium,
 * headless, against the real server serving the built console (`npm run build` first) on an
 * in-memory PGlite; no request leaves the machine (any other host is refused).
 *
 * Seeds `--devices` devices (default 50,000) in SQL: placed across China and the world in 20
 * projects with maps on, a third online, one in 20 with an alarm. Then measures:
 * - the server: GET /map/positions (every device, one answer) beside GET /user/info, p50 of 7;
 * - the browser, reduced motion (zooms jump, so a step is the work, not an animation):
 *   first render, from navigation to the clusters drawn, of the fleet map (50,000 devices) beside
 *   the same page on an empty project (the baseline: the console, Leaflet and the outline);
 *   then each zoom step in (the + button) from the framed view to street level, and back out,
 *   from the click to the markers drawn and the next frame painted.
 * Targets: first render < 2 s, every zoom step < 200 ms.
 *
 *   npm run bench:map
 *   npm run bench:map -- --devices 100000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.js';
import { startApp } from './engines.js';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build` first');
  process.exit(1);
}
const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const DEVICES = Number(opt('devices') ?? 50_000);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`bench:map — ${DEVICES.toLocaleString('en')} devices, ${os.cpus().length} cores, load average ${load()}`);
const database = await openDatabase({ dataDir: 'memory://' });
const { app, auth } = await startApp(database, { WEB_DIST: dist, DEMO: 'off' });
const db = database.db;
const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const [type] = rows<{ id: number }>(await db.execute(sql`select id from device_types where code = 'BMU'`));
await db.execute(sql`insert into projects (name, owner_id, owner_path, map)
  select 'Site ' || i, 1, '/1/', true from generate_series(1, 20) i`);
const [empty] = rows<{ id: number }>(await db.execute(sql`insert into projects (name, owner_id, owner_path, map) values ('Empty', 1, '/1/', true) returning id`));
const seeded = performance.now();
// Two thirds in mainland China (where fleets crowd), the rest anywhere between 60° S and 70° N;
// positions from a hash of the index, so every run draws the same fleet.
await db.execute(sql`insert into devices (sn, name, type_id, owner_path, project_id, map_mode, lng, lat, online, warning_level)
  select 'MAP-' || i, 'Map ' || i, ${type!.id}, '/1/', (select min(id) from projects) + i % 20, 1,
    case when i % 3 < 2 then 98 + (h1 % 24000) / 1000.0 else -180 + (h1 % 360000) / 1000.0 end,
    case when i % 3 < 2 then 22 + (h2 % 18000) / 1000.0 else -60 + (h2 % 130000) / 1000.0 end,
    i % 3 = 0, case when i % 20 = 0 then 1 + i % 4 else 0 end
  from generate_series(1, ${DEVICES}) i
  cross join lateral (select (i::bigint * 2654435761) % 4294967296 as h1, (i::bigint * 40503 * 2246822519) % 4294967296 as h2) h`);
await db.execute(sql`analyze`);
console.log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------- the server
const inject = async (url: string) => {
  const s = performance.now();
  const res = await app.inject({ method: 'GET', url, headers: auth });
  const spent = performance.now() - s;
  if (res.json().code !== 20000) throw new Error(`${url}: ${res.body.slice(0, 200)}`);
  return { spent, bytes: res.rawPayload.length, body: res };
};
const serverTimes = async (url: string) => {
  await inject(url);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 7; i++) {
    const r = await inject(url);
    times.push(r.spent);
    bytes = r.bytes;
  }
  return { p50: median(times), bytes };
};
const info = await serverTimes('/api/v1/user/info');
const positions = await serverTimes('/api/v1/map/positions');
const count = (await inject('/api/v1/map/positions')).body.json().data.ids.length as number;
if (count !== DEVICES) throw new Error(`/map/positions answered ${count} devices, not ${DEVICES}`);
console.log('\nserver (p50 of 7, in process)');
console.log(`  GET /user/info (baseline)         ${ms(info.p50)}`);
console.log(
  `  GET /map/positions (${DEVICES.toLocaleString('en')})     ${ms(positions.p50)}  ×${(positions.p50 / info.p50).toFixed(1)}  ` +
    `${(positions.bytes / 1024).toFixed(0)} KB`,
);

// ---------------------------------------------------------------- the browser
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const token = auth.authorization.replace('Bearer ', '');
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});
const refused: string[] = [];

async function openPage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', reducedMotion: 'reduce', viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: 'Admin-Token', value: token, url: address, sameSite: 'Lax' }]);
  // No network: anything but this server is refused (and reported).
  await context.route(
    (url) => url.host !== new URL(address).host && !['data:', 'blob:'].includes(url.protocol),
    (route) => {
      refused.push(route.request().url());
      return route.abort();
    },
  );
  return context.newPage();
}

// In-page code as text: tsx would wrap functions in helpers the page does not have, and the
// console's DOM types are not this script's.
const DRAWN = `new Promise((resolve) => {
  const check = () => {
    const el = document.querySelector('[data-testid="fleet-map"]');
    if (el && el.dataset.drawn) requestAnimationFrame(() => resolve(performance.now()));
    else requestAnimationFrame(check);
  };
  check();
})`;
const ZOOM = (title: string) => `new Promise((resolve) => {
  const el = document.querySelector('[data-testid="fleet-map"]');
  const before = el.dataset.drawn;
  const start = performance.now();
  el.querySelector('a[title="${title}"]').click();
  const check = () => {
    if (el.dataset.drawn !== before)
      requestAnimationFrame(() => resolve({ spent: performance.now() - start, drawn: el.dataset.drawn, drawMs: Number(el.dataset.drawMs) }));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

/** Where the time of the last first render went: the positions' answer, the index, the drawing. */
const parts: { answer: number; index: number; draw: number }[] = [];

/** Navigation start to the map drawn with `devices` in its count (ms). */
async function firstRender(page: Page, url: string, devices: number): Promise<number> {
  let asked = 0;
  let answered = 0;
  page.on('request', (r) => {
    if (r.url().includes('/map/positions')) asked = Date.now();
  });
  page.on('requestfinished', (r) => {
    if (r.url().includes('/map/positions')) answered = Date.now();
  });
  await page.goto(url);
  const text = `${devices.toLocaleString('en')} of ${devices.toLocaleString('en')} devices`;
  await page.getByTestId('fleet-count').filter({ hasText: text }).waitFor({ timeout: 120_000 });
  const at = await page.evaluate<number>(DRAWN);
  const el = page.getByTestId('fleet-map');
  parts.push({
    answer: answered - asked,
    index: Number(await el.getAttribute('data-index-ms')),
    draw: Number(await el.getAttribute('data-draw-ms')),
  });
  return at;
}

/** One zoom step by the + or − button: click to markers drawn and the frame after painted (ms). */
function zoomStep(page: Page, button: 'Zoom in' | 'Zoom out') {
  return page.evaluate<{ spent: number; drawn: string; drawMs: number }>(ZOOM(button));
}

// Warm the server's and the browser's caches of the console once (a returning operator).
const warm = await openPage();
await firstRender(warm, `${address}/project/map?projectId=${empty!.id}`, 0);
await warm.close();

const baselines: number[] = [];
const fleets: number[] = [];
for (let i = 0; i < 3; i++) {
  const a = await openPage();
  baselines.push(await firstRender(a, `${address}/project/map?projectId=${empty!.id}`, 0));
  await a.context().close();
  const b = await openPage();
  fleets.push(await firstRender(b, `${address}/project/map`, DEVICES));
  const p = parts[parts.length - 1]!;
  console.log(`  run ${i + 1}: fleet ${ms(fleets[i]!)} (positions answered in ${p.answer} ms, index ${p.index.toFixed(0)} ms, first drawing ${p.draw.toFixed(0)} ms)`);
  await b.context().close();
}
const baseline = median(baselines);
const fleet = median(fleets);
console.log(`\nbrowser: first render (median of 3, navigation to markers drawn), load average ${load()}`);
console.log(`  empty map (baseline)              ${ms(baseline)}`);
console.log(`  fleet map, ${DEVICES.toLocaleString('en')} devices        ${ms(fleet)}  ×${(fleet / baseline).toFixed(2)}  ${fleet < 2000 ? 'ok' : 'MISSED'} (< 2 s)`);

const page = await openPage();
await firstRender(page, `${address}/project/map`, DEVICES);
console.log('\nbrowser: zoom steps (click to drawn and painted; draw = clustering + markers)');
const steps: number[] = [];
// Into the crowd: the largest cluster first (a click zooms to where it splits, centred on it).
const CLICK_LARGEST = `new Promise((resolve) => {
  const el = document.querySelector('[data-testid="fleet-map"]');
  const sizes = [...el.querySelectorAll('.fleet-cluster')].map((c) => [c, Number(c.textContent.replace(/[^0-9]/g, '')) * (c.textContent.includes('k') ? 1000 : 1)]);
  sizes.sort((a, b) => b[1] - a[1]);
  const before = el.dataset.drawn;
  const start = performance.now();
  sizes[0][0].click();
  const check = () => {
    if (el.dataset.drawn !== before)
      requestAnimationFrame(() => resolve({ spent: performance.now() - start, drawn: el.dataset.drawn, drawMs: Number(el.dataset.drawMs), size: sizes[0][1] }));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;
{
  const r = await page.evaluate<{ spent: number; drawn: string; drawMs: number; size: number }>(CLICK_LARGEST);
  const [z, clusters, devices] = r.drawn.split(':').map(Number) as [number, number, number];
  steps.push(r.spent);
  console.log(`  cluster of ${r.size} → ${String(z).padStart(2)}  ${ms(r.spent)}  draw ${r.drawMs.toFixed(1).padStart(5)} ms  ${clusters} clusters, ${devices} devices`);
}
let zoom = Number((await page.getByTestId('fleet-map').getAttribute('data-drawn'))!.split(':')[0]);
for (const button of ['Zoom in', 'Zoom out'] as const) {
  for (;;) {
    if (button === 'Zoom in' ? zoom >= 18 : zoom <= 2) break;
    const r = await zoomStep(page, button);
    const [z, clusters, devices] = r.drawn.split(':').map(Number) as [number, number, number];
    zoom = z;
    steps.push(r.spent);
    console.log(`  ${button === 'Zoom in' ? 'in ' : 'out'} → ${String(z).padStart(2)}  ${ms(r.spent)}  draw ${r.drawMs.toFixed(1).padStart(5)} ms  ${clusters} clusters, ${devices} devices`);
  }
}
const worst = Math.max(...steps);
console.log(`  worst step ${ms(worst)}, median ${ms(median(steps))}  ${worst < 200 ? 'ok' : 'MISSED'} (< 200 ms), ×${(median(steps) / baseline).toFixed(3)} of the baseline's first render`);
console.log(`\nrequests refused (not this server): ${refused.length}${refused.length ? ` ${refused.slice(0, 3).join(' ')}` : ''}`);
console.log(`load average at the end ${load()}`);

await browser.close();
await app.close();
await database.close();
