/**
 * The home dashboard at fleet scale (issue #34). Seeds PostgreSQL in SQL with bench/lists.ts's
 * fleet (100 agents with sub-users and projects, `--devices` devices, default 100,000, its logs,
 * alarms and SIM cards), then tops the alarms up to `--alarms` (default 1,000,000: levels, states,
 * open ones, call-outs over 60 days, on devices of which a fifth have alarm phones) and writes
 * `--telemetry` rows (default 10,000,000) into the daily partitions of the last 10 days. The
 * dashboard's figures read no telemetry (its routes count devices, alarms and cards); the rows
 * are there so the tables, caches and vacuum look like a fleet's.
 *
 * Then `--users` (default 20) concurrent users — the super administrator and agents of very
 * different sizes (the largest, the median and the smallest subtree) in turn — each calling a
 * random dashboard route after the other for `--duration` seconds (default 30): every /home/*
 * route (/home/battery on an empty battery summary: see dashboard-battery.ts) with varied parameters (days 7/30, time zones, states,
 * pages), and GET /user/info in the same mix as the baseline. Printed per route: p50 and p99 and
 * their ratio to /user/info's. Target: every /home/* route p50 < 100 ms and p99 < 300 ms; a miss
 * is printed with the EXPLAIN (ANALYZE, BUFFERS) of each of its statements.
 *
 *   npm run bench:dashboard
 *   npm run bench:dashboard -- --telemetry 2000000 --duration 20
 *   npm run bench:dashboard -- --keep / --reuse iot_bench_…   # keep the seeded database / measure it again
 *   npm run bench:dashboard -- --keep --name iot_bench_mine     # name the kept database
 *   npm run bench:dashboard -- --reuse iot_bench_… --think 1000  # people who pause between requests
 *
 * PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL).
 */
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { createPartition } from '../apps/server/src/telemetry/ingest.repo.js';
import { startApp, withBenchDatabase } from './engines.js';
import { getOnce, seedFleet } from './lists.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ALARMS = Number(opt('alarms') ?? 1_000_000);
const TELEMETRY = Number(opt('telemetry') ?? 10_000_000);
const USERS = Number(opt('users') ?? 20);
const DURATION = Number(opt('duration') ?? 30);
/**
 * `--think <ms>`: each user pauses a random 0–2× this long after each answer, as a person does
 * between dashboard openings (0, the default: back to back, which saturates the machine and
 * measures the queue rather than the route).
 */
const THINK_MS = Number(opt('think') ?? 0);
/** `--port <n>`: where the server listens (default: any free port). */
const PORT = Number(opt('port') ?? 0);
const TELEMETRY_DAYS = 10;

async function seedDashboard(db: Database['db']) {
  const step = async (label: string, ...queries: ReturnType<typeof sql>[]) => {
    const s = performance.now();
    for (const q of queries) await db.execute(q);
    const secs = (performance.now() - s) / 1000;
    console.log(`  ${label} (${secs.toFixed(1)} s)`);
    return secs;
  };
  const n = (await db.execute(sql`select count(*)::int as n from alarms`)) as unknown as { rows: { n: number }[] };
  const more = Math.max(0, ALARMS - n.rows[0]!.n);
  await step(
    'alarm phones on a fifth of the devices',
    sql`update devices set alarm_phone = '+86 138' || lpad((id % 10000000)::text, 8, '0') where id % 5 = 0`,
  );
  // Alarms over 60 days, newest first; one in 40 still open, one in 3 processed; a call-out due
  // on a device with phones for levels 3 and 4 (what the engine would have recorded).
  await step(
    `${more.toLocaleString('en')} more alarms (${ALARMS.toLocaleString('en')} in all)`,
    sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, message, message_en, value, started_at, ended_at, state, callout)
      select d.id, 'h' || i, 'rule', '01111001', l.level, '过压', 'Overvoltage', '58.1', s.started,
        case when i % 40 <> 0 then s.started + interval '5 minutes' end,
        case when i % 3 = 0 then 'processed' else 'untreated' end,
        d.alarm_phone <> '' and l.level >= 3
      from generate_series(1, ${more}) i
      cross join lateral (select 1 + ((i::bigint * 2654435761) % 4294967296 % 100000)::int % 4 as level) l
      cross join lateral (select now() - ((i::bigint * 5184000 / ${Math.max(more, 1)}) || ' seconds')::interval as started) s
      join devices d on d.id = 1 + (i::bigint * 7919 % (select count(*) from devices))`,
    // Warning levels as the engine keeps them: the highest level of each device's open alarms.
    sql`update devices d set warning_level = w.level from (
      select d2.id, coalesce(max(a.level), 0) as level from devices d2 left join alarms a on a.device_id = d2.id and a.ended_at is null group by d2.id) w
      where d.id = w.id and d.warning_level <> w.level`,
  );
  // Voice minutes on a third of the SIM cards (the others have no voice data).
  await step('voice data on a third of the SIM cards', sql`update sim_cards set voice_allowance_min = 100, voice_used_min = id % 130 where id % 3 = 0`);
  if (TELEMETRY > 0) {
    const perDay = Math.ceil(TELEMETRY / TELEMETRY_DAYS);
    let spent = 0;
    for (let day = 0; day < TELEMETRY_DAYS; day++) {
      const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - day * 86_400_000);
      await createPartition(db, start);
      spent += await step(
        `${perDay.toLocaleString('en')} telemetry rows on ${start.toISOString().slice(0, 10)}`,
        sql`insert into telemetry (device_id, ts, vals)
          select 1 + (i % (select count(*) from devices)), ${start.toISOString()}::timestamptz + ((i / (select count(*) from devices)) * 10 || ' seconds')::interval,
            jsonb_build_object('02109001', (i % 101), '01112001', ((i % 41) - 20) * 1.5, '01117001', 3300 + i % 50)
          from generate_series(0, ${perDay - 1}) i
          on conflict do nothing`,
      );
      if (spent > 600 && day < TELEMETRY_DAYS - 1) {
        console.log(`  telemetry: stopped after ${day + 1} days (${((day + 1) * perDay).toLocaleString('en')} rows): past 10 minutes of seeding`);
        break;
      }
    }
  }
  await step('vacuum analyze', sql`vacuum analyze`);
}

// ---------------------------------------------------------------- the users and their requests

interface Who {
  name: string;
  auth: Record<string, string>;
}

const ZONES = ['UTC', 'Europe/Madrid', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata', 'Asia/Tokyo'];
const STATES = ['all', 'online', 'offline', 'alarming', 'offline24h'];

/** Each route with a generator of varied queries. */
const ROUTES: { label: string; url: (r: () => number) => string }[] = [
  { label: 'GET /user/info (baseline)', url: () => '/api/v1/user/info' },
  { label: 'GET /home/list', url: (r) => `/api/v1/home/list?tz=${encodeURIComponent(pick(r, ZONES))}` },
  { label: 'GET /home/devicetotals', url: () => '/api/v1/home/devicetotals' },
  { label: 'GET /home/projectlist', url: () => '/api/v1/home/projectlist' },
  { label: 'GET /home/levelnum', url: (r) => `/api/v1/home/levelnum?tz=${encodeURIComponent(pick(r, ZONES))}` },
  { label: 'GET /home/alarmnum', url: (r) => `/api/v1/home/alarmnum?days=${pick(r, [7, 30])}&tz=${encodeURIComponent(pick(r, ZONES))}` },
  { label: 'GET /home/gettop5', url: (r) => `/api/v1/home/gettop5?days=${pick(r, [7, 30])}&tz=${encodeURIComponent(pick(r, ZONES))}` },
  {
    label: 'GET /home/devicelist',
    url: (r) => `/api/v1/home/devicelist?state=${pick(r, STATES)}&page=${r() < 0.7 ? 1 : 1 + Math.floor(r() * 20)}&limit=${pick(r, [10, 20, 50])}`,
  },
  { label: 'GET /home/voice', url: (r) => `/api/v1/home/voice?days=${pick(r, [7, 30])}&tz=${encodeURIComponent(pick(r, ZONES))}` },
  // Its batteries' figures are seeded by bench/dashboard-battery.ts only; here device_battery is empty (the counts still join every device).
  { label: 'GET /home/battery', url: (r) => `/api/v1/home/battery?days=${pick(r, [7, 30])}&tz=${encodeURIComponent(pick(r, ZONES))}` },
];
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(6);

const get = (agent: http.Agent, base: URL, path: string, headers: Record<string, string>) => getOnce(base, agent, path, headers);

/** The SQL statements the server sends while `capture` is on (node-postgres' Client.query, patched). */
const captured: { text: string; values: unknown[] }[] = [];
let capture = false;
const originalQuery = pg.Client.prototype.query;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
(pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
  if (capture) {
    const [first, second] = args;
    const text = typeof first === 'string' ? first : first?.text;
    const values = typeof first === 'string' ? second : (first?.values ?? second);
    if (typeof text === 'string' && /^\s*(select|with)/i.test(text)) captured.push({ text, values: Array.isArray(values) ? values : [] });
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (originalQuery as any).apply(this, args);
};

async function main() {
  await withBenchDatabase(async (database, { name, reused }) => {
    const { app, auth } = await startApp(database, { DEMO: 'off', API_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER: String(86_400) });
    if (!reused) {
      // Seeding on connections of its own without the console's 30 s statement timeout: on a
      // shared machine one bulk statement may take longer.
      const url = new URL((process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)!);
      url.pathname = `/${name}`;
      const seeding = await openDatabase({ databaseUrl: url.toString(), statementTimeoutMs: 0 });
      try {
        const t0 = performance.now();
        await seedFleet(seeding.db);
        await seedDashboard(seeding.db);
        console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      } finally {
        await seeding.close();
      }
    }
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
    const counts = (
      await rows<{ devices: number; alarms: number; telemetry: number }>(sql`
        select (select count(*) from devices)::int as devices, (select count(*) from alarms)::int as alarms,
          (select reltuples from pg_class where relname = 'telemetry')::bigint as telemetry`)
    )[0]!;
    const telemetryRows = (await rows<{ n: number }>(sql`select count(*)::int as n from telemetry`))[0]!.n;
    // Agents: the largest, the median and the smallest subtree (bench/lists.ts's fleet).
    const sized = await rows<{ username: string; n: number }>(sql`
      select u.username, coalesce(c.n, 0)::int as n from users u
      left join (select owner_path, count(*) as n from devices group by owner_path) c on c.owner_path = u.path
      where u.username ~ '^agent[0-9]+$' order by n desc, u.id`);
    const who: Who[] = [{ name: 'admin (all)', auth }];
    for (const a of [sized[0]!, sized[Math.floor(sized.length / 2)]!, sized[sized.length - 1]!]) {
      const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: a.username, password: 'bench-pass' } });
      who.push({ name: `${a.username} (${a.n.toLocaleString('en')} devices)`, auth: { authorization: `Bearer ${login.json().data.token}` } });
    }
    // Every route answers 20000 for everyone before the measure.
    for (const w of who) {
      for (const route of ROUTES) {
        const res = await app.inject({ method: 'GET', url: route.url(Math.random), headers: w.auth });
        if (!res.body.startsWith('{"code":20000')) throw new Error(`${route.label} as ${w.name}: ${res.body.slice(0, 300)}`);
      }
    }
    const address = await app.listen({ port: PORT, host: '127.0.0.1' });
    const base = new URL(address);
    console.log(
      `bench:dashboard  database ${name}, ${counts.devices.toLocaleString('en')} devices, ${counts.alarms.toLocaleString('en')} alarms, ` +
        `${telemetryRows.toLocaleString('en')} telemetry rows; ${USERS} users for ${DURATION} s${THINK_MS ? `, thinking ${THINK_MS} ms on average between requests` : ', back to back'}; ${os.cpus().length} cores, ` +
        `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    console.log(`users in turn: ${who.map((w) => w.name).join(', ')}`);

    const times = new Map<string, number[]>(ROUTES.map((r) => [r.label, []]));
    let errors = 0;
    let firstError = '';
    const end = Date.now() + DURATION * 1000;
    await Promise.all(
      Array.from({ length: USERS }, async (_, u) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const w = who[u % who.length]!;
        let seed = u * 7919 + 1;
        const r = () => {
          seed = (seed * 16807) % 2147483647;
          return (seed - 1) / 2147483646;
        };
        while (Date.now() < end) {
          const route = ROUTES[Math.floor(r() * ROUTES.length)]!;
          const path = route.url(r);
          const s = performance.now();
          const res = await get(agent, base, path, w.auth);
          const took = performance.now() - s;
          if (res.status !== 200 || !res.body.startsWith('{"code":20000')) {
            errors++;
            firstError ||= `${path}: ${res.status} ${res.body.slice(0, 200)}`;
          } else times.get(route.label)!.push(took);
          if (THINK_MS > 0) await new Promise((done) => setTimeout(done, r() * 2 * THINK_MS));
        }
        agent.destroy();
      }),
    );

    const info = [...times.get(ROUTES[0]!.label)!].sort((a, b) => a - b);
    const infoP50 = percentile(info, 0.5);
    const infoP99 = percentile(info, 0.99);
    const missed: string[] = [];
    console.log(`${'route'.padEnd(28)} ${'n'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  ratio to /user/info (p50, p99)`);
    for (const route of ROUTES) {
      const t = [...times.get(route.label)!].sort((a, b) => a - b);
      const p50 = percentile(t, 0.5);
      const p99 = percentile(t, 0.99);
      const isHome = route.label.includes('/home/');
      const met = !isHome || (p50 < 100 && p99 < 300);
      if (!met) missed.push(route.label);
      console.log(
        `${route.label.padEnd(28)} ${String(t.length).padStart(6)} ${ms(p50)}  ${ms(p99)}  ${(p50 / infoP50).toFixed(1).padStart(5)}× ${(p99 / infoP99).toFixed(1).padStart(5)}×  ${isHome ? (met ? 'met' : 'MISSED') : ''}`,
      );
    }
    if (errors) console.log(`${errors} errors, first: ${firstError}`);
    console.log(missed.length ? `missed: ${missed.join(', ')}` : 'every /home/* route met p50 < 100 ms and p99 < 300 ms');
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

    // A missed route: the plans of its statements, for the largest scope (the administrator).
    if (missed.length > 0) {
      const url = new URL((process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL)!);
      url.pathname = `/${name}`;
      const explainer = new pg.Client({ connectionString: url.toString() });
      await explainer.connect();
      // As the console's connections run (db/client.ts): no parallel workers.
      await explainer.query('set max_parallel_workers_per_gather = 0');
      for (const label of missed) {
        const route = ROUTES.find((r) => r.label === label)!;
        captured.length = 0;
        capture = true;
        await app.inject({ method: 'GET', url: route.url(Math.random), headers: auth });
        capture = false;
        for (const stmt of captured) {
          if (/from "?sessions"?|from "?users"? where|role_permissions/i.test(stmt.text) && !/alarms|devices|projects|sim_cards/i.test(stmt.text)) continue;
          const plan = (await explainer.query(`explain (analyze, buffers) ${stmt.text}`, stmt.values)) as unknown as { rows: { 'QUERY PLAN': string }[] };
          console.log(`\n--- ${label}: ${stmt.text.replace(/\s+/g, ' ').slice(0, 160)}…`);
          console.log(plan.rows.map((p) => p['QUERY PLAN']).join('\n'));
        }
      }
      await explainer.end();
    }
    await app.close();
  });
}

await main();
