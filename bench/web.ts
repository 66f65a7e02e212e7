/**
 * `npm run bench:web`: the JavaScript a browser downloads per route, measured in the system
 * Chromium against the real server serving the built console (`npm run build` first).
 *
 * For each route a fresh page (empty cache) loads it and waits until the network is idle; every
 * JavaScript response is gzipped here (level 9, what a compressing proxy or CDN would send) and
 * summed, beside the bytes the console's server itself sends a browser that accepts brotli (the
 * build's copies, decision 0044). Printed beside the targets of issue #14: the login route at
 * most 250 KB, the signed-in shell (the dashboard after a reload) at most 500 KB. `--fleet` seeds three simulated battery
 * units first, so the dashboard is measured with its figures and charts, not its empty state.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { openDatabase } from '../apps/server/src/db/client.js';
import { startApp } from './engines.js';
import { seedFleet } from './web-fleet.js';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error('apps/web/dist is missing: run `npm run build` first');
  process.exit(1);
}
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KB = 1024;

interface Load {
  files: number;
  raw: number;
  gzip: number;
  sent: number;
}

async function measure(browser: Browser, url: string, token?: string): Promise<Load> {
  const context = await browser.newContext({ locale: 'en-US' });
  if (token) await context.addCookies([{ name: 'Admin-Token', value: token, url: new URL(url).origin, sameSite: 'Lax' }]);
  const page = await context.newPage();
  // URLs only: reading bodies inside the page's response events holds up module scripts.
  const seen = new Set<string>();
  page.on('response', (res) => {
    if ((res.headers()['content-type'] ?? '').includes('javascript')) seen.add(res.url());
  });
  let last = Date.now();
  page.on('request', () => (last = Date.now()));
  await page.goto(url, { waitUntil: 'networkidle' });
  // The route is drawn: the login form, or the shell with its page (no loading spinner left).
  if (token) {
    await page.getByTestId('sidebar').waitFor({ timeout: 60_000 });
    // A function, not a string: the console's CSP (script-src 'self') refuses a string predicate.
    await page.waitForFunction(
      (spinner) => !(globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(spinner),
      '.ant-layout-content .ant-spin-spinning, .page-spin',
      { timeout: 60_000 },
    );
  } else {
    await page.getByTestId('login-submit').waitFor({ timeout: 60_000 });
  }
  // Chunks a page starts after drawing itself (charts, pickers): two quiet seconds.
  while (Date.now() - last < 2_000) await page.waitForTimeout(250);
  const landed = new URL(page.url()).pathname;
  if (landed !== new URL(url).pathname) throw new Error(`${url} ended at ${landed}`);
  await context.close();
  // fetch unpacks the body itself; the encoded answer's length is what went over the wire.
  const answers = await Promise.all(
    [...seen].map(async (u) => {
      const res = await fetch(u, { headers: { 'accept-encoding': 'br, gzip' } });
      return { body: Buffer.from(await res.arrayBuffer()), sent: Number(res.headers.get('content-length')) };
    }),
  );
  const bodies = answers.map((a) => a.body);
  const sent = answers.reduce((sum, a) => sum + a.sent, 0);
  let raw = 0;
  let gzip = 0;
  const urls = [...seen];
  bodies.forEach((body, i) => {
    const zipped = zlib.gzipSync(body, { level: 9 }).length;
    raw += body.length;
    gzip += zipped;
    if (process.argv.includes('--files')) console.log(`    ${(zipped / KB).toFixed(1).padStart(7)} KB  ${new URL(urls[i]!).pathname}`);
  });
  return { files: seen.size, raw, gzip, sent };
}

const database = await openDatabase({ dataDir: 'memory://' });
const { app, auth } = await startApp(database, { WEB_DIST: dist, DEMO: 'off' });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const token = auth.authorization.replace('Bearer ', '');
if (process.argv.includes('--fleet')) await seedFleet(address, token);
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});

const routes: { route: string; signedIn: boolean; target?: number }[] = [
  { route: '/login', signedIn: false, target: 250 },
  { route: '/dashboard', signedIn: true, target: 500 },
  { route: '/device/list', signedIn: true },
  { route: '/project/index', signedIn: true },
  { route: '/device/type', signedIn: true },
  { route: '/sys/user', signedIn: true },
  { route: '/sys/logs', signedIn: true },
  { route: '/sys/devlogs', signedIn: true },
  { route: '/project/alarminfo', signedIn: true },
];

console.log(`bench:web  JavaScript per route, fresh cache, gzip -9 and as sent (system Chromium, ${path.relative(root, dist)})`);
let missed = false;
for (const r of routes) {
  const load = await measure(browser, `${address}${r.route}`, r.signedIn ? token : undefined);
  const kb = load.gzip / KB;
  const verdict = r.target === undefined ? '' : kb <= r.target ? `  target ≤ ${r.target} KB: met` : `  target ≤ ${r.target} KB: MISSED`;
  if (r.target !== undefined && kb > r.target) missed = true;
  console.log(
    `${r.route.padEnd(20)} ${String(load.files).padStart(3)} files  ${(load.raw / KB).toFixed(0).padStart(6)} KB raw  ${kb.toFixed(1).padStart(7)} KB gzip  ${(load.sent / KB).toFixed(1).padStart(7)} KB sent${verdict}`,
  );
}
await browser.close();
await app.close();
await database.close();
if (missed) process.exitCode = 1;
