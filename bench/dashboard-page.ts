/**
 * `npm run bench:dashboard-page` (issue #34): how long the home dashboard takes to become
 * interactive in the system Chromium, against the compiled server serving the built console
 * (`npm run build` first; this script builds nothing).
 *
 * Interactive as `e2e/dashboard.spec.ts` defines it: from the navigation to the figures on
 * screen (`home-devices-total`) and the device card's quick filter answering a click ("Alarming"
 * selected). Timed after a navigation with the browser's cache (the same context, a second
 * visit) and cold (a fresh context: empty cache). The baseline, in the same browser and round:
 * the login page of the same build, interactive when its form is drawn and its username field
 * takes typed text, with the cache and cold. Each figure is printed beside its baseline with the
 * ratio, then p50 and worst over the rounds, with the load average.
 *
 * The server is the compiled one (apps/server/dist/main.js) on a fresh embedded database with a
 * small seeded fleet (bench/web-fleet.ts: 3 units, 2 alarms), no demo fleet, captcha off; the
 * browser signs in through the login form once, then every context carries that session.
 *
 *   --rounds N      rounds (10); builds and modes alternate their order from round to round
 *   --before DIR    a second web build (e.g. main's apps/web/dist copied aside), served by a
 *                   second server process of the same compiled server: timed in each round too
 *   --port P        the first server's port (3610; --before uses P+1)
 *   --waterfall     prints, for the last round, when each request of the dashboard's visit with
 *                   the cache started and ended, and the main thread's script and layout time
 *   --profile FILE  also writes that visit's main-thread CPU profile (.cpuprofile) to FILE
 *   --compile       prints, for the last round's returning visit of each build, V8's parse and
 *                   compile time on the page's main thread and on background threads (a trace)
 *
 *   npm run build && npm run bench:dashboard-page -- --rounds 10 --before /tmp/base-web-dist
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { seedFleet } from './web-fleet.js';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(opt('rounds') ?? 10);
const PORT = Number(opt('port') ?? 3610);
const PROFILE = opt('profile');
const WATERFALL = argv.includes('--waterfall') || PROFILE !== undefined;
const COMPILE = argv.includes('--compile');
const compiled = path.join(root, 'apps/server/dist/main.js');
const dist = path.join(root, 'apps/web/dist');
for (const f of [compiled, path.join(dist, 'index.html')]) {
  if (!fs.existsSync(f)) throw new Error(`${path.relative(root, f)} is missing: npm run build first`);
}
const beforeDist = opt('before') ? path.resolve(opt('before')!) : undefined;
if (beforeDist && !fs.existsSync(path.join(beforeDist, 'index.html'))) throw new Error(`--before ${beforeDist}: no index.html there`);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'Bench-Dashboard-2026!';

interface Server {
  label: string;
  base: string;
  child: ChildProcess;
  dataDir: string;
  token: string;
}

/** The compiled server on a fresh embedded database serving `webDist`, once /readyz answers. */
async function startServer(label: string, port: number, webDist: string): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-page-'));
  const child = spawn(process.execPath, ['--enable-source-maps', compiled], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      DEMO: 'off',
      CAPTCHA: 'off',
      WEATHER_URL: 'off',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      WEB_DIST: webDist,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label}: the server exited (${child.exitCode}): ${stderr.slice(0, 500)}`);
    if (Date.now() > deadline) throw new Error(`${label}: not ready within 120 s`);
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const login = await fetch(`${base}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD, captcha: '', key: '' }),
  });
  await seedFleet(base, ((await login.json()) as { data: { token: string } }).data.token);
  return { label, base, child, dataDir, token: '' };
}

async function stopServer(s: Server) {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGINT');
  await exited;
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

const newContext = (browser: Browser) =>
  browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });

/** Signs in through the login form (also the browser's warm-up); keeps the session's token. */
async function signIn(browser: Browser, s: Server) {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${s.base}/login`);
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('home-devices-total').waitFor({ timeout: 60_000 });
  s.token = (await context.cookies(s.base)).find((c) => c.name === 'Admin-Token')!.value;
  await context.close();
}

/** The spec's definition: figures on screen and the quick filter answering a click. */
async function dashboardInteractive(page: Page, url: string): Promise<number> {
  const t0 = performance.now();
  await page.goto(url);
  await page.getByTestId('home-devices-total').waitFor({ timeout: 60_000 });
  const filter = page.getByTestId('home-device-filter');
  await filter.getByText('Alarming').click();
  await filter.locator('.ant-segmented-item-selected', { hasText: 'Alarming' }).waitFor({ timeout: 30_000 });
  return performance.now() - t0;
}

/** The baseline: the login form drawn and its username field taking typed text. */
async function loginInteractive(page: Page, url: string): Promise<number> {
  const t0 = performance.now();
  await page.goto(url);
  const field = page.getByTestId('login-username');
  await field.fill('someone');
  if ((await field.inputValue()) !== 'someone') throw new Error('the login form did not take the text');
  return performance.now() - t0;
}

type Mode = 'cached' | 'cold' | 'returning';
const MODES: Mode[] = ['cached', 'cold', 'returning'];
type Kind = 'dashboard' | 'login';
const figures = new Map<string, number[]>();
const add = (key: string, ms: number) => figures.set(key, [...(figures.get(key) ?? []), ms]);
const keyOf = (s: Server, kind: Kind, mode: Mode) => `${s.label} ${kind} ${mode}`;

/**
 * One kind of page on one server: cold in a fresh context, then with the cache (a second visit
 * in the same context, the figures' data fetched again as after a reload), then returning (the
 * fourth visit: Chromium keeps compiled code of a script from its second load on and uses it
 * from the third, so this is what an operator who opens the console every day gets).
 */
async function visit(browser: Browser, s: Server, kind: Kind, waterfall: boolean, compile: boolean) {
  const context: BrowserContext = await newContext(browser);
  if (kind === 'dashboard') await context.addCookies([{ name: 'Admin-Token', value: s.token, url: s.base, sameSite: 'Lax' }]);
  const page = await context.newPage();
  const url = `${s.base}/${kind}`;
  const time = kind === 'dashboard' ? dashboardInteractive : loginInteractive;
  add(keyOf(s, kind, 'cold'), await time(page, url));
  // Leave the page so the next visit is a navigation (the filter does not persist: a clean URL).
  await page.goto('about:blank');
  const trace = waterfall && kind === 'dashboard' ? await startWaterfall(page, context) : undefined;
  add(keyOf(s, kind, 'cached'), await time(page, url));
  if (trace) await trace(s);
  for (const last of [false, true]) {
    await page.goto('about:blank');
    const traced = last && compile && kind === 'dashboard';
    if (traced) await browser.startTracing(page, { categories: ['__metadata', 'v8', 'disabled-by-default-v8.compile'] });
    const ms = await time(page, url);
    if (traced) printCompile(s, await browser.stopTracing());
    if (last) add(keyOf(s, kind, 'returning'), ms);
  }
  await context.close();
}

/** Every request of the next navigation (start and end, ms from the navigation) and the main thread's time. */
async function startWaterfall(page: Page, context: BrowserContext) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const rows: { url: string; start: number; end: number }[] = [];
  const t0 = Date.now();
  page.on('requestfinished', (req) => {
    const t = req.timing();
    rows.push({ url: req.url(), start: t.startTime - t0, end: t.startTime + t.responseEnd - t0 });
  });
  return async (s: Server) => {
    const metrics = (await cdp.send('Performance.getMetrics')).metrics;
    if (PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(PROFILE, JSON.stringify(profile));
      console.log(`  CPU profile of the page's main thread written to ${PROFILE} (open in Chrome DevTools)`);
    }
    const m = (name: string) => Math.round((metrics.find((x) => x.name === name)?.value ?? 0) * 1000);
    console.log(`waterfall of ${s.label}'s dashboard with the cache (ms from the navigation):`);
    for (const r of rows.sort((a, b) => a.start - b.start)) {
      const u = new URL(r.url);
      console.log(`  ${r.start.toFixed(0).padStart(5)} → ${r.end.toFixed(0).padStart(5)}  ${u.pathname}${u.search}`);
    }
    console.log(`  main thread: script ${m('ScriptDuration')} ms, layout ${m('LayoutDuration')} ms, style ${m('RecalcStyleDuration')} ms, tasks ${m('TaskDuration')} ms (the whole page's life)`);
  };
}

/** V8's parse and compile events of a trace, summed for the renderer's main thread and the others. */
function printCompile(s: Server, trace: Buffer) {
  type Event = { name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } };
  const events = (JSON.parse(trace.toString()) as { traceEvents: Event[] }).traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const sums = { main: 0, background: 0 };
  // The top-level steps only (V8.CompileCode, V8.ParseFunction, BackgroundCompileTask::Run…): the
  // nested ones (V8.CompileIgnition inside V8.CompileCode) would count twice.
  const STEP = /^(V8\.(CompileCode|ParseFunction|ParseProgram|CompileLazy)|BackgroundCompileTask::Run|v8\.parseOnBackground)$/;
  for (const e of events) {
    if (e.ph === 'X' && STEP.test(e.name)) sums[main.has(`${e.pid}:${e.tid}`) ? 'main' : 'background'] += (e.dur ?? 0) / 1000;
  }
  console.log(`  ${s.label}, returning visit: V8 parse + compile ${Math.round(sums.main)} ms on the main thread, ${Math.round(sums.background)} ms in the background`);
}

const fmt = (ms: number) => `${Math.round(ms)} ms`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const worst = (xs: number[]) => Math.max(...xs);

const loads: number[] = [os.loadavg()[0]!];
console.log(`bench:dashboard-page, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const servers: Server[] = [await startServer('after', PORT, dist)];
if (beforeDist) servers.push(await startServer('before', PORT + 1, beforeDist));
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const s of servers) await signIn(browser, s);
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? servers : [...servers].reverse();
    const kinds: Kind[] = round % 2 ? ['dashboard', 'login'] : ['login', 'dashboard'];
    for (const s of order) for (const kind of kinds) await visit(browser, s, kind, WATERFALL && round === ROUNDS, COMPILE && round === ROUNDS);
    loads.push(os.loadavg()[0]!);
    const line = servers
      .map((s) =>
        MODES.map((mode) => {
          const d = figures.get(keyOf(s, 'dashboard', mode))!.at(-1)!;
          const l = figures.get(keyOf(s, 'login', mode))!.at(-1)!;
          return `${s.label} ${mode} ${fmt(d)} (login ${fmt(l)}, ${(d / l).toFixed(1)}×)`;
        }).join(', '),
      )
      .join('; ');
    console.log(`round ${String(round).padStart(2)}: ${line}; load ${loads.at(-1)!.toFixed(1)}`);
  }
} finally {
  await browser.close();
  for (const s of servers) await stopServer(s);
}

console.log(`\ninteractive over ${ROUNDS} rounds, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (1 min)`);
console.log('build   visit    dashboard p50 / worst   login (baseline) p50 / worst   ratio of p50');
for (const s of servers) {
  for (const mode of MODES) {
    const d = figures.get(keyOf(s, 'dashboard', mode))!;
    const l = figures.get(keyOf(s, 'login', mode))!;
    console.log(
      `${s.label.padEnd(7)} ${mode.padEnd(7)}  ${fmt(p50(d)).padStart(8)} / ${fmt(worst(d)).padStart(8)}     ${fmt(p50(l)).padStart(8)} / ${fmt(worst(l)).padStart(8)}            ${(p50(d) / p50(l)).toFixed(2)}×`,
    );
  }
}
if (beforeDist) {
  for (const mode of MODES) {
    const a = p50(figures.get(keyOf(servers[0]!, 'dashboard', mode))!);
    const b = p50(figures.get(keyOf(servers[1]!, 'dashboard', mode))!);
    console.log(`dashboard ${mode}: after / before ${(a / b).toFixed(2)}× (p50 ${fmt(a)} vs ${fmt(b)})`);
  }
}
console.log('target (issue #34): the dashboard interactive in under 1 s');
