/**
 * Stores, rentals and the agent view at scale on randomized traffic (issue #38). Seeds PostgreSQL
 * in SQL: 100 agents with 3 sub-users each, `--stores` stores (default 2,000) owned skewed over
 * those 400 users (the first agents own hundreds, the last a few), `--packs` packs (default
 * 100,000; four in five stocked, with battery figures, a third offline, some alarms) and
 * `--rentals` rentals and sales (default 200,000 over two years: one open rental per pack at most,
 * reserved, active and overdue ones, the rest returned, sold, cancelled or lost), then
 *
 *   the store list:   random pages and sizes, sorts, name/code/address terms, status;
 *   the rental list:  random pages (deep ones too), sorts, and filters of store, state, kind,
 *                     customer phone prefix, SN fragment and start ranges;
 *   /rent/summary:    the agent view (/rent/overview), periods, time zones, one store or all;
 *
 * as the administrator and as agents (the one with the most stores, the median one and one with
 * few), through the real server over HTTP. Each line alternates one-second slices of its own
 * requests with `GET /user/info` (a session and one row by key) from `--users` concurrent users
 * (default 4), each request after the previous answer: p50/p99 of both and the ratio of the p99s.
 * Targets: p50 < 50 ms and p99 < 150 ms at 4 users. A miss prints the slowest request.
 *
 *   npm run bench:rentals
 *   npm run bench:rentals -- --keep / --reuse iot_bench_…   # keep the seeded database / measure it again
 *   npm run bench:rentals -- --only rental --seed 42 --duration 10
 *
 * PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL); the database is created and dropped.
 */
import http from 'node:http';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { RENTAL_KINDS, RENTAL_STATES, REVENUE_PERIODS, STORE_STATUSES } from '@iot/contract';
import type { Database } from '../apps/server/src/db/client.js';
import { startApp, withBenchDatabase } from './engines.js';
import { agentsSql, getOnce, percentile, qs, rng, type Rand } from './lists.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const STORES = Number(opt('stores') ?? 2_000);
const PACKS = Number(opt('packs') ?? 100_000);
const RENTALS = Number(opt('rentals') ?? 200_000);
const DURATION = Number(opt('duration') ?? 6);
const USERS = Number(opt('users') ?? 4);
const ONLY = opt('only');
const SEED = Number(opt('seed') ?? Math.floor(Math.random() * 2 ** 31));
const AGENTS = 100;
const PAGE_SIZES = [10, 20, 50, 100];
const TARGET = { p50: 50, p99: 150 };
const ZONES = ['UTC', 'Asia/Shanghai', 'Europe/Madrid', 'America/New_York', 'Asia/Tokyo'];

async function seedRentals(db: Database['db']) {
  const t0 = performance.now();
  const step = async (label: string, ...queries: ReturnType<typeof sql>[]) => {
    const s = performance.now();
    for (const q of queries) await db.execute(q);
    console.log(`  ${label} (${((performance.now() - s) / 1000).toFixed(1)} s)`);
  };
  await step(`${AGENTS} agents with 3 sub-users each`, ...agentsSql(AGENTS));
  // Store k's owner: user rank floor(400·u²) (u = k/STORES), so the first users own many stores;
  // agents and their sub-users alternate in rank order.
  await step(
    `${STORES.toLocaleString('en')} stores`,
    sql`insert into stores (name, code, address, phone, status, min_soc, owner_id, owner_path, created_at)
      select 'Store ' || k, 'ST' || lpad(k::text, 5, '0'), 'Street ' || (k % 300) || ', District ' || (k % 17), '021-' || lpad((k * 7919 % 10000000)::text, 7, '0'),
        case when k % 23 = 0 then 'closed' when k % 31 = 0 then 'suspended' else 'open' end, 70 + k % 20, u.id, u.path,
        now() - (k || ' hours')::interval
      from generate_series(1, ${STORES}) k
      join (select row_number() over (order by id) - 1 as r, id, path from users where username like 'agent%') u
        on u.r = floor(${AGENTS * 4} * power((k - 1)::float8 / ${STORES}, 2))::int`,
  );
  // Pack i: stocked at store 1 + i % STORES unless i % 5 = 0, owned in that store's owner line.
  await step(
    `${PACKS.toLocaleString('en')} packs with battery figures`,
    sql`insert into devices (sn, name, type_id, owner_path, store_id, online, warning_level, created_at)
      select 'PK-' || lpad(i::text, 7, '0'), 'Pack ' || i, (select id from device_types where code = 'BMU'), s.owner_path,
        case when i % 5 <> 0 then s.id end, i % 3 <> 0, case when i % 97 = 0 then 3 when i % 13 = 0 then 1 else 0 end, now() - (i || ' minutes')::interval
      from generate_series(1, ${PACKS}) i join stores s on s.id = 1 + i % ${STORES}`,
    sql`insert into device_battery (device_id, soc, state, cell_delta_mv, max_cell_temp, updated_at)
      select id, (id * 37) % 101, (array['charging', 'idle', 'discharging'])[1 + id % 3], 10 + id % 90, 20 + id % 25, now() from devices
      on conflict (device_id) do nothing`,
  );
  // Rental j: the first tenth open (reserved, active, overdue) on distinct packs j; the rest
  // closed on any pack. Start over two years, newest first; a store is the pack's store.
  const open = Math.floor(RENTALS / 10);
  await step(
    `${RENTALS.toLocaleString('en')} rentals and sales`,
    sql`insert into rentals (kind, state, store_id, device_id, device_sn, device_name, customer_name, customer_phone, id_card_masked, currency,
        deposit_cents, price_per_day_cents, total_price_cents, charged_cents, start_at, due_at, returned_at, settled_at, created_at, updated_at)
      select case when x.state = 'sold' then 'sale' else 'rent' end, x.state, 1 + x.d % ${STORES}, x.d, 'PK-' || lpad(x.d::text, 7, '0'), 'Pack ' || x.d,
        'Customer ' || (x.j % 50000), '13' || lpad(((x.j::bigint * 7919) % 1000000000)::text, 9, '0'), '**************' || lpad((x.j % 10000)::text, 4, '0'),
        case when x.j % 10 = 0 then 'USD' else 'CNY' end, 50000, case when x.state <> 'sold' then 1000 + x.j % 1000 end,
        case when x.state = 'sold' then 200000 + x.j % 50000 end,
        case when x.state in ('returned', 'sold') then 5000 + x.j % 90000 end,
        x.start, case when x.state <> 'sold' then x.start + ((1 + x.j % 30) || ' days')::interval end,
        case when x.state = 'returned' then x.start + ((1 + x.j % 20) || ' days')::interval end,
        case when x.state = 'returned' then x.start + ((1 + x.j % 20) || ' days')::interval when x.state = 'sold' then x.start end,
        x.start, x.start
      from (
        select j, case when j <= ${open} then 1 + ((j - 1) % ${PACKS}) else 1 + ((j::bigint * 7919) % ${PACKS})::int end as d,
          case when j <= ${open} then (array['reserved', 'active', 'active', 'active', 'overdue'])[1 + j % 5]
            else (array['returned', 'returned', 'returned', 'returned', 'returned', 'returned', 'sold', 'cancelled', 'lost', 'returned'])[1 + j % 10] end as state,
          now() - (case when j <= ${open} then (j % 30) * 86400 + j % 86400 else ((j::bigint * 104729) % (730 * 86400)) end || ' seconds')::interval as start
        from generate_series(1, ${RENTALS}) j) x`,
  );
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

// ---------------------------------------------------------------- random requests

interface Who {
  name: string;
  auth: Record<string, string>;
  /** Its stores (ids) and how many rentals they hold. */
  stores: number[];
  rentals: number;
  /** Pack numbers (PK-000000N) at its stores, for SN fragments that find something. */
  packs: number[];
}
/** A page size and a page: mostly the first few, a third anywhere the rows reach (capped at 10,000). */
function paging(r: Rand, rows: number) {
  const limit = r.pick(PAGE_SIZES);
  const last = Math.max(1, Math.ceil(Math.min(rows, 10_000) / limit));
  return { page: r.chance(0.35) ? r.int(1, last) : r.chance(0.6) ? 1 : r.int(1, Math.min(last, 5)), limit };
}
const day = 86_400_000;

type Gen = (r: Rand, who: Who) => string;
const storeList: Gen = (r, who) =>
  `/store/list?${qs({
    q: r.chance(0.3) ? r.pick([`Store ${r.int(1, STORES)}`, `ST0${r.int(0, 9)}`, `Street ${r.int(1, 299)}`, `District ${r.int(1, 16)}`]) : undefined,
    status: r.chance(0.25) ? r.pick(STORE_STATUSES) : undefined,
    ...paging(r, who.stores.length),
    sort: r.pick(['createdAt', 'name', 'code', 'status']),
    order: r.pick(['asc', 'desc']),
  })}`;
const rentalList: Gen = (r, who) => {
  const from = r.chance(0.25) ? Date.now() - r.int(7, 700) * day : undefined;
  const f = {
    storeId: r.chance(0.3) ? r.pick(who.stores) : undefined,
    state: r.chance(0.35) ? r.pick(RENTAL_STATES) : undefined,
    kind: r.chance(0.15) ? r.pick(RENTAL_KINDS) : undefined,
    phone: r.chance(0.2) ? `13${String(r.int(0, 999_999_999)).padStart(9, '0').slice(0, r.int(1, 6))}` : undefined,
    sn: r.chance(0.2) ? String(r.pick(who.packs)).padStart(7, '0').slice(r.int(0, 2), 7) : undefined,
    from: from ? new Date(from).toISOString() : undefined,
    to: from && r.chance(0.7) ? new Date(from + r.int(1, 90) * day).toISOString() : undefined,
  };
  const filtered = Object.values(f).some((v) => v !== undefined);
  return `/rent/list?${qs({ ...f, ...paging(r, filtered ? 500 : who.rentals), sort: r.pick(['createdAt', 'startAt', 'dueAt', 'state']), order: r.pick(['asc', 'desc']) })}`;
};
const overview: Gen = (r, who) =>
  `/rent/summary?${qs({ period: r.pick(REVENUE_PERIODS), tz: r.pick(ZONES), storeId: r.chance(0.3) ? r.pick(who.stores) : undefined })}`;

const LINES: { label: string; agent: boolean; gen: Gen }[] = [
  { label: 'stores', agent: false, gen: storeList },
  { label: 'agent stores', agent: true, gen: storeList },
  { label: 'rentals', agent: false, gen: rentalList },
  { label: 'agent rentals', agent: true, gen: rentalList },
  { label: 'overview', agent: false, gen: overview },
  { label: 'agent overview', agent: true, gen: overview },
];

// ---------------------------------------------------------------- measuring

/** `users` clients, each request after its previous answer, for `seconds`: every answer checked. */
async function slice(base: URL, next: () => { path: string; headers: Record<string, string> }, users: number, seconds: number, into: number[], slow: { ms: number; path: string }) {
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (performance.now() < end) {
      const { path, headers } = next();
      const t = performance.now();
      const { status, body } = await getOnce(base, agent, path, headers);
      const took = performance.now() - t;
      into.push(took);
      if (took > slow.ms) Object.assign(slow, { ms: took, path });
      if (status !== 200 || !body.startsWith('{"code":20000')) throw new Error(`${path}: ${status} ${body.slice(0, 300)}`);
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: users }, client));
}

const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(5);

await withBenchDatabase(async (database, { name, reused }) => {
  const { app, auth } = await startApp(database, { DEMO: 'off', API_RATE_LIMIT: '0', DEVICE_OFFLINE_AFTER: String(86_400) });
  if (!reused) await seedRentals(database.db);
  const rows = async <T>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const counts = (await rows<{ stores: number; packs: number; rentals: number }>(
    sql`select (select count(*) from stores)::int as stores, (select count(*) from devices)::int as packs, (select count(*) from rentals)::int as rentals`,
  ))[0]!;
  const everyPack = Array.from({ length: 2000 }, (_, k) => 1 + Math.floor((k * counts.packs) / 2000));
  const admin: Who = { name: 'admin', auth, stores: (await rows<{ id: number }>(sql`select id from stores`)).map((s) => s.id), rentals: counts.rentals, packs: everyPack };
  // Agents by the stores of their line: the most, the median, and the tenth from last.
  const sized = await rows<{ username: string; path: string; n: number }>(sql`
    select u.username, u.path, (select count(*) from stores s where s.owner_path like u.path || '%')::int as n
    from users u where u.username ~ '^agent[0-9]+$' order by n desc, u.id`);
  const agents: Who[] = [];
  for (const a of [sized[0]!, sized[Math.floor(sized.length / 2)]!, sized[sized.length - 10]!]) {
    const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: a.username, password: 'bench-pass' } });
    const stores = (await rows<{ id: number }>(sql`select id from stores where owner_path like ${`${a.path}%`}`)).map((s) => s.id);
    const n = (await rows<{ n: number }>(sql`select count(*)::int as n from rentals where store_id = any(${`{${stores.join(',')}}`}::int[])`))[0]!.n;
    const packs = (await rows<{ n: number }>(sql`select substr(sn, 4)::int as n from devices where owner_path like ${`${a.path}%`} order by id limit 2000`)).map((p) => p.n);
    agents.push({ name: `${a.username} (${stores.length} stores, ${n.toLocaleString('en')} rentals)`, auth: { authorization: `Bearer ${login.json().data.token}` }, stores, rentals: n, packs });
  }
  const base = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
  console.log(
    `bench:rentals  database ${name}, ${counts.stores.toLocaleString('en')} stores, ${counts.packs.toLocaleString('en')} packs, ` +
      `${counts.rentals.toLocaleString('en')} rentals, seed ${SEED}, ${USERS} users, ${DURATION} s per line, ${os.cpus().length} cores, ` +
      `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  console.log(`agents: ${agents.map((a) => a.name).join(', ')}`);
  const info = () => ({ path: '/api/v1/user/info', headers: auth });
  const missed: string[] = [];
  for (const line of LINES) {
    if (ONLY && !line.label.includes(ONLY)) continue;
    const r = rng(SEED ^ [...line.label].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7));
    const whos = line.agent ? agents : [admin];
    let last = '';
    const next = () => {
      for (;;) {
        const who = r.pick(whos);
        const path = `/api/v1${line.gen(r, who)}`;
        if (path === last) continue;
        last = path;
        return { path, headers: who.auth };
      }
    };
    // Warm-up: 5 requests of the line.
    for (let i = 0; i < 5; i++) {
      const { path, headers } = next();
      const res = await app.inject({ method: 'GET', url: path, headers });
      if (!res.body.startsWith('{"code":20000')) throw new Error(`${line.label}: ${path}: ${res.body.slice(0, 300)}`);
    }
    const times = { line: [] as number[], info: [] as number[] };
    const slow = { ms: 0, path: '' };
    for (let i = 0; i < DURATION; i++) {
      await slice(base, info, USERS, 1, times.info, { ms: 0, path: '' });
      await slice(base, next, USERS, 1, times.line, slow);
    }
    times.line.sort((a, b) => a - b);
    times.info.sort((a, b) => a - b);
    const [p50, p99, i50, i99] = [percentile(times.line, 0.5), percentile(times.line, 0.99), percentile(times.info, 0.5), percentile(times.info, 0.99)];
    const met = p50 < TARGET.p50 && p99 < TARGET.p99;
    if (!met) missed.push(line.label);
    console.log(
      `${line.label.padEnd(16)} p50 ${ms(p50)} ms p99 ${ms(p99)} ms (${times.line.length} req)   /user/info p50 ${ms(i50)} ms p99 ${ms(i99)} ms   ` +
        `ratio p50 ${(p50 / i50).toFixed(1)}× p99 ${(p99 / i99).toFixed(1)}×  ${met ? 'met' : 'MISSED'}`,
    );
    if (!met) console.log(`${''.padEnd(16)} slowest ${slow.ms.toFixed(0)} ms: ${decodeURIComponent(slow.path)}`);
  }
  console.log(missed.length ? `missed: ${missed.join(', ')}` : 'every line met its targets');
  await app.close();
});
