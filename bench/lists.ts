/**
 * Lists at fleet scale (issue #14): a fleet of `--devices` devices (default 100,000) under 100
 * agents with projects, `--logs` operation-log rows (default 10,000,000), a million login-log
 * rows, a million device-log rows and 200,000 alarms, seeded in SQL on PostgreSQL; then every
 * list with typical filters, broad text matches, digit substrings and deep pages, through the
 * real server over HTTP with autocannon: one connection (a single user: p50 / p95) and
 * `--connections` (default 50: the request rate), each next to `GET /config` measured the same
 * way in one-second slices alternating with the line's (in parentheses: the machine's speed
 * drifts within a run), with the ratio printed; and beside `GET /user/info` at 50 connections,
 * the cheapest signed-in call (what every list pays for its session before its own work).
 *
 *   npm run bench:lists                               # 100,000 devices, 10 M log rows
 *   npm run bench:lists -- --devices 1000000
 *   npm run bench:lists -- --logs 1000000 --duration 3  # a quicker look
 *   npm run bench:lists -- --keep / --reuse iot_bench_…  # keep the seeded database / measure it again
 *   npm run bench:lists -- --only device                # only the lines whose label contains the text
 *   npm run bench:lists -- --session-cache-ttl 0        # sessions read on every request (the cache off)
 *
 * Targets: every line p95 < 50 ms for one user; at 50 connections ≥ 0.3× the rate of GET /config.
 * PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';
import { startApp, withBenchDatabase } from './engines.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const DEVICES = Number(opt('devices') ?? 100_000);
const LOGS = Number(opt('logs') ?? 10_000_000);
const DURATION = Number(opt('duration') ?? 5);
const CONNECTIONS = Number(opt('connections') ?? 50);
const ONLY = opt('only');
const AGENTS = 100;

async function seedFleet(db: Database['db']) {
  const t0 = performance.now();
  const step = async (label: string, query: ReturnType<typeof sql>) => {
    const s = performance.now();
    await db.execute(query);
    console.log(`  ${label} (${((performance.now() - s) / 1000).toFixed(1)} s)`);
  };
  // Agents under the administrator, with the admin's password hash (they log in with bench-pass).
  await step(`${AGENTS} agents`, sql`
    insert into users (username, password_hash, type, parent_id, path, role_id, corporate_name)
    select 'agent' || i, a.password_hash, 1, a.id, a.path, (select id from roles where identification = 'ADMIN'), 'Agent company ' || i
    from generate_series(1, ${AGENTS}) i, (select * from users where username = 'admin') a`);
  await db.execute(sql`update users set path = (select path from users where username = 'admin') || id || '/' where username like 'agent%'`);
  await step(`${AGENTS * 10} projects`, sql`
    insert into projects (name, owner_id, owner_path, address)
    select 'Site ' || u.id || '-' || j, u.id, u.path, 'Street ' || j
    from users u, generate_series(1, 10) j where u.username like 'agent%'`);
  // Devices spread over the agents and their projects; names like "Battery 12345", SN BMS-0012345.
  await step(`${DEVICES.toLocaleString('en')} devices`, sql`
    insert into devices (sn, name, type_id, owner_path, project_id, imei, sim_number, address, online, warning_level, created_at)
    select 'BMS-' || lpad(i::text, 7, '0'), 'Battery ' || i, t.id, p.owner_path, p.id,
      '86' || lpad((i::bigint * 7919)::text, 13, '0'), '8986' || lpad((i::bigint * 104729)::text, 16, '0'),
      'Bay ' || (i % 500), i % 3 = 0, (i % 5), now() - (i || ' seconds')::interval
    from generate_series(1, ${DEVICES}) i
    join (select row_number() over (order by id) - 1 as k, id, owner_path from projects) p on p.k = i % ${AGENTS * 10}
    cross join (select id from device_types where code = 'BMU') t`);
  // Heard from within the last two hours (device_presence has a row per device, from the trigger).
  await db.execute(sql`update device_presence set last_seen_at = now() - ((device_id % 7200) || ' seconds')::interval`);
  // Sub-devices: every 100th device gets the next one as a child.
  await db.execute(sql`update devices c set parent_id = c.id - 1 where c.id % 100 = 1 and c.id > 1`);
  const actions = ['device.add', 'device.edit', 'device.delete', 'user.add', 'user.edit', 'role.edit', 'project.add', 'device.import', 'alarm.process', 'device.setparam'];
  await step(`${LOGS.toLocaleString('en')} operation-log rows`, sql`
    insert into operation_logs (user_id, username, user_path, role, action, entity, entity_id, entity_name, summary, ip, result, created_at)
    select u.id, u.username, u.path, 'ADMIN', a.action, split_part(a.action, '.', 1), (i % 100000)::text, 'BMS-' || lpad((i % 100000)::text, 7, '0'),
      '{"name":"Battery ' || (i % 100000) || '"}', '10.0.' || (i % 250) || '.' || (i % 200), case when i % 50 = 0 then 'failure' else 'success' end,
      now() - (i * 3 || ' seconds')::interval
    from generate_series(1, ${LOGS}) i
    join (select row_number() over (order by id) - 1 as k, id, username, path from users where username like 'agent%') u on u.k = i % ${AGENTS}
    join (select row_number() over () - 1 as k, action from unnest(${sql`array[${sql.join(actions.map((a) => sql`${a}`), sql`, `)}]::text[]`}) action) a on a.k = i % ${actions.length}`);
  await step('1,000,000 login-log rows', sql`
    insert into login_logs (user_id, username, result, ip, user_agent, created_at)
    select u.id, u.username, case when i % 20 = 0 then 'failure' else 'success' end, '10.1.' || (i % 250) || '.1', 'Mozilla/5.0', now() - (i * 30 || ' seconds')::interval
    from generate_series(1, 1000000) i
    join (select row_number() over (order by id) - 1 as k, id, username from users where username like 'agent%') u on u.k = i % ${AGENTS}`);
  await step('1,000,000 device-log rows', sql`
    insert into device_logs (device_id, sn, kind, reason, detail, owner_path, created_at)
    select d.id, d.sn, (array['connected', 'disconnected', 'rejected', 'command'])[1 + i % 4], case when i % 4 = 2 then 'badPayload' end, '{}', d.owner_path,
      now() - (i * 5 || ' seconds')::interval
    from generate_series(1, 1000000) i join devices d on d.id = 1 + (i % ${DEVICES})`);
  await step('200,000 alarms', sql`
    insert into alarms (device_id, rule_key, source, semaphore_id, level, message, message_en, value, started_at, ended_at, state)
    select d.id, 'r' || (i % 7), 'rule', '01111001', 1 + i % 4, '过压', 'Overvoltage', '58.1', now() - (i * 20 || ' seconds')::interval,
      case when i > 100000 or i % 3 <> 0 then now() - (i * 20 - 60 || ' seconds')::interval end, case when i % 2 = 0 then 'processed' else 'untreated' end
    from generate_series(1, 200000) i join devices d on d.id = 1 + (i * 7 % ${DEVICES})`);
  // What autovacuum does to insert-mostly tables in production (PostgreSQL 13+): statistics and the
  // visibility map, without which no index-only scan can count.
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

interface Line {
  label: string;
  path: string;
  /** As an agent (its subtree) instead of the administrator. */
  agent?: boolean;
  /** Keyset page: `path` with `after` set to the `next` of this (deep, offset) page. */
  afterOf?: string;
  /** A page drawn at random from this range for each request (`path` gets `page=`). */
  pages?: [from: number, to: number];
  /** A query parameter drawn at random for each request (`path` gets it): values no memo has seen. */
  random?: () => string;
}

/** An integer from `from` to `to`, at random. */
const between = (from: number, to: number) => from + Math.floor(Math.random() * (to - from + 1));

const LINES: Line[] = [
  { label: 'devices page 1', path: '/device/list?topLevel=true' },
  { label: 'devices projectId + online', path: '/device/list?topLevel=true&projectId=17&online=true' },
  { label: 'devices typeId + warningLevel', path: '/device/list?topLevel=true&typeId=1&warningLevel=3' },
  { label: 'devices sort name asc', path: '/device/list?topLevel=true&sort=name&order=asc' },
  { label: 'devices sort lastSeenAt', path: '/device/list?topLevel=true&sort=lastSeenAt' },
  { label: 'devices q=Battery 12 (broad)', path: `/device/list?topLevel=true&q=${encodeURIComponent('Battery 12')}` },
  { label: 'devices q=Battery (every device)', path: '/device/list?topLevel=true&q=Battery' },
  { label: 'devices q=0012345 (digits)', path: '/device/list?topLevel=true&q=0012345' },
  { label: 'devices q=345 (3 digits)', path: '/device/list?topLevel=true&q=345' },
  { label: 'devices q=no-such-device', path: '/device/list?topLevel=true&q=no-such-device' },
  { label: 'devices page 4000', path: '/device/list?topLevel=true&page=4000' },
  // Deep pages asked at random: the remembered rows (page anchors) cover the range as it is
  // visited; the first visits pay the offset.
  { label: 'devices pages 3000–4000 at random', path: '/device/list?topLevel=true', pages: [3000, 4000] },
  { label: 'devices after row 80,000', path: '/device/list?topLevel=true', afterOf: '/device/list?topLevel=true&page=4000' },
  { label: 'devices lastSeenAt after 80,000', path: '/device/list?topLevel=true&sort=lastSeenAt', afterOf: '/device/list?topLevel=true&sort=lastSeenAt&page=4000' },
  // Each request another text or project: what a page costs the first time it is asked (a page
  // asked again is read by the ids it had while the registry stands still).
  { label: 'devices q=5 digits at random', path: '/device/list?topLevel=true', random: () => `q=${between(10_000, 99_999)}` },
  { label: 'devices q=Battery NNNN at random', path: '/device/list?topLevel=true', random: () => `q=${encodeURIComponent(`Battery ${between(1000, 9999)}`)}` },
  { label: 'devices projects at random', path: '/device/list?topLevel=true', random: () => `projectId=${between(1, 1000)}` },
  { label: 'devices agent page 1', path: '/device/list?topLevel=true', agent: true },
  { label: 'devices agent q=Battery 12', path: `/device/list?topLevel=true&q=${encodeURIComponent('Battery 12')}`, agent: true },
  { label: 'projects page 1', path: '/project/list' },
  { label: 'projects name=Site 5', path: `/project/list?name=${encodeURIComponent('Site 5')}` },
  { label: 'users page 1', path: '/user/list' },
  { label: 'users username=agent1', path: '/user/list?username=agent1' },
  { label: 'op logs page 1', path: '/logs/list' },
  { label: 'op logs action', path: '/logs/list?action=device.edit' },
  { label: 'op logs username + result', path: '/logs/list?username=agent51&result=failure' },
  { label: 'op logs username=nobody', path: '/logs/list?username=nobody' },
  { label: 'op logs last 24 h', path: `/logs/list?from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}` },
  { label: 'op logs page 5000', path: '/logs/list?page=5000' },
  { label: 'op logs pages 4000–5000 at random', path: '/logs/list', pages: [4000, 5000] },
  { label: 'op logs after row 100,000', path: '/logs/list', afterOf: '/logs/list?page=5000' },
  { label: 'op logs agent page 1', path: '/logs/list', agent: true },
  { label: 'login logs page 1', path: '/logs/loginlist' },
  { label: 'login logs username', path: '/logs/loginlist?username=agent3' },
  { label: 'device logs page 1', path: '/logs/devicelogs' },
  { label: 'device logs kind=rejected', path: '/logs/devicelogs?kind=rejected' },
  { label: 'device logs sn', path: '/logs/devicelogs?sn=BMS-0000042' },
  { label: 'alarms page 1', path: '/device/alarmlist' },
  { label: 'alarms untreated + level', path: '/device/alarmlist?state=untreated&level=2' },
  { label: 'alarms active', path: '/device/alarmlist?activity=active' },
  { label: 'alarms device=BMS-00123', path: '/device/alarmlist?device=BMS-00123' },
  { label: 'alarms agent page 1', path: '/device/alarmlist', agent: true },
];

interface Run {
  rps: number;
  /** This process's CPU (server and autocannon, user + system) per request, in µs: steadier than req/s on a shared host. */
  cpu: number;
  /** PostgreSQL's CPU (every postgres process of this machine) per request, in µs. */
  pg: number;
  p50: number;
  p95: number;
  non2xx: number;
}

/** CPU clock ticks per second of /proc/<pid>/stat (Linux's USER_HZ). */
const CLOCK_TICKS = 100;
/**
 * CPU time (user + system, in clock ticks) of this machine's PostgreSQL processes so far, read
 * from /proc: 0 where there is none (PostgreSQL elsewhere, not Linux).
 */
function postgresTicks(): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function cannon(url: string, headers: Record<string, string>, connections: number, duration = DURATION, vary?: () => string): Promise<Run> {
  const ticks = postgresTicks();
  const before = process.cpuUsage();
  // `vary`: each request's path (and query) instead of the URL's.
  const varied = vary ? [{ method: 'GET' as const, setupRequest: (req: { path?: string }) => ({ ...req, path: vary() }) }] : undefined;
  const r = await autocannon({ url, connections, duration, headers, requests: varied });
  const used = process.cpuUsage(before);
  const requests = Math.max(1, r.requests.total);
  return { cpu: (used.user + used.system) / requests, pg: ((postgresTicks() - ticks) * 1e6) / CLOCK_TICKS / requests, rps: r.requests.average, p50: r.latency.p50, p95: r.latency.p97_5 ?? r.latency.p99, non2xx: r.non2xx + r.errors };
}

async function main() {
  await withBenchDatabase(async (database, { name, reused, admin }) => {
    const { app, auth } = await startApp(database, {
      DEMO: 'off',
      API_RATE_LIMIT: '0',
      // The fleet stays as seeded (heard within two hours, a third online): with the default
      // five minutes the presence sweep marks the online third offline during the run, and the
      // lists measured after it read 33,000 dead rows until autovacuum comes.
      DEVICE_OFFLINE_AFTER: String(86_400),
      ...(opt('session-cache-ttl') ? { SESSION_CACHE_TTL: opt('session-cache-ttl')! } : {}),
    });
    console.log(
      `bench:lists  ${DEVICES.toLocaleString('en')} devices, ${LOGS.toLocaleString('en')} operation-log rows, ${os.cpus().length} cores, ` +
        `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    if (!reused) await seedFleet(database.db);
    const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'agent1', password: 'bench-pass' } });
    const agentAuth = { authorization: `Bearer ${login.json().data.token}` };
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    /**
     * autocannon stops at its deadline but the server finishes the requests in flight: wait
     * until the database has no query of ours running so a slow line's backlog is not charged
     * to the next one.
     */
    const drain = async () => {
      for (let i = 0; i < 600; i++) {
        const r = await admin.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'active'`, [name]);
        if (r.rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // Each line: a check that it answers (and how many rows), then 1 and N connections.
    const config = { single: await cannon(`${address}/api/v1/config`, {}, 1), many: await cannon(`${address}/api/v1/config`, {}, CONNECTIONS) };
    console.log(
      `${'GET /config (baseline)'.padEnd(34)} 1 user p50 ${config.single.p50} ms p95 ${config.single.p95} ms   ` +
        `${CONNECTIONS} users ${config.many.rps.toFixed(0)} req/s`,
    );
    // A second baseline: the cheapest signed-in call (the session lookup every list also makes,
    // and one row by primary key), to tell what a list costs beyond being signed in.
    const info = { many: await cannon(`${address}/api/v1/user/info`, auth, CONNECTIONS) };
    console.log(
      `${'GET /user/info (signed in)'.padEnd(34)} ${CONNECTIONS} users ${info.many.rps.toFixed(0)} req/s = ` +
        `${(info.many.rps / config.many.rps).toFixed(2)}× config   (session cache ${opt('session-cache-ttl') ?? 'default 5'} s)`,
    );
    const missed: string[] = [];
    for (const line of LINES) {
      if (ONLY && !line.label.includes(ONLY)) continue;
      const headers = line.agent ? agentAuth : auth;
      let path = line.path;
      if (line.afterOf) {
        const deep = (await app.inject({ method: 'GET', url: `/api/v1${line.afterOf}`, headers })).json();
        if (!deep.data?.next) throw new Error(`${line.afterOf}: no next`);
        path += `${path.includes('?') ? '&' : '?'}after=${encodeURIComponent(deep.data.next)}`;
      }
      const [from, to] = line.pages ?? [0, 0];
      const drawn = line.pages ? () => `page=${between(from, to)}` : line.random;
      const vary = drawn ? () => `/api/v1${path}${path.includes('?') ? '&' : '?'}${drawn()}` : undefined;
      const check = await app.inject({ method: 'GET', url: vary ? vary() : `/api/v1${path}`, headers });
      const body = check.json();
      if (body.code !== 20000) throw new Error(`${path}: ${check.body.slice(0, 300)}`);
      const total = `${body.data.total.toLocaleString('en')}${body.data.exact === false ? '+' : ''}`;
      const single = await cannon(`${address}/api/v1${path}`, headers, 1, DURATION, vary);
      // The baseline again, in one-second slices alternating with the line's: a shared machine's
      // speed drifts by half within minutes, and a ratio to a figure taken minutes earlier (or
      // even just before) measures the drift.
      const slices = { near: [] as Run[], many: [] as Run[] };
      for (let i = 0; i < DURATION; i++) {
        slices.near.push(await cannon(`${address}/api/v1/config`, {}, CONNECTIONS, 1));
        slices.many.push(await cannon(`${address}/api/v1${path}`, headers, CONNECTIONS, 1, vary));
        await drain();
      }
      const near = { rps: mean(slices.near.map((r) => r.rps)), cpu: mean(slices.near.map((r) => r.cpu)), pg: mean(slices.near.map((r) => r.pg)) };
      const many = { rps: mean(slices.many.map((r) => r.rps)), cpu: mean(slices.many.map((r) => r.cpu)), pg: mean(slices.many.map((r) => r.pg)), non2xx: slices.many.reduce((n, r) => n + r.non2xx, 0) };
      const ratio = many.rps / near.rps;
      const ok = single.p95 < 50 && ratio >= 0.3 && single.non2xx + many.non2xx === 0;
      if (!ok) missed.push(line.label);
      console.log(
        `${line.label.padEnd(34)} 1 user p50 ${String(single.p50).padStart(3)} ms p95 ${String(single.p95).padStart(4)} ms   ` +
          `${CONNECTIONS} users ${many.rps.toFixed(0).padStart(5)} req/s = ${ratio.toFixed(2)}× config (${near.rps.toFixed(0)}) ${(many.rps / info.many.rps).toFixed(2)}× info   total ${total.padStart(9)}` +
          `   cpu µs/req node ${many.cpu.toFixed(0)} pg ${many.pg.toFixed(0)} (config ${near.cpu.toFixed(0)} + ${near.pg.toFixed(0)})` +
          `${single.non2xx + many.non2xx ? `   ${single.non2xx + many.non2xx} errors` : ''}${ok ? '' : '   MISSED'}`,
      );
    }
    console.log(missed.length ? `missed (p95 ≥ 50 ms or < 0.3× config): ${missed.join(', ')}` : 'every line met both targets');
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    await app.close();
  });
}

await main();
