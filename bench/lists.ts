/**
 * Lists at fleet scale on randomized traffic (issue #31). Seeds PostgreSQL in SQL: 100 agents
 * with 3 sub-users and 11 projects each (a few huge projects, many small, some nearly empty, some
 * shared with another agent), `--devices` devices (default 100,000) over device types of very
 * different sizes (half the fleet in one, 3 devices in another), `--logs` operation-log rows
 * (default 1,000,000), a million login-log and device-log rows, 200,000 alarms, a SIM card for
 * every second device, 20,000 card orders and a price list. Then every list the console has, as
 * the administrator and as agents (scoped users), through the real server over HTTP.
 *
 * Each line is a generator of random requests of its kind: random pages (deep ones too, to page
 * 500 at size 20), page sizes of the console's pager, SN fragments, broad terms, projects the
 * user sees, state filters, sort columns and directions; never the same URL twice in a row, so
 * no cache of the benchmark's own URLs can carry a line. `--seed` fixes the random sequence.
 *
 *   one user:  1 connection, requests one after the other for `--duration` s: p50 / p95.
 *   N users:   `--connections` (default 50; 0 skips it) with autocannon, in one-second slices
 *              alternating with `GET /user/info` (a session plus one row by key) measured the
 *              same way: req/s, the baseline's, and the ratio.
 * Targets: one user p95 < 50 ms; N users ≥ 0.3× the req/s of GET /user/info.
 *
 *   npm run bench:lists                                  # 100,000 devices, 1 M log rows
 *   npm run bench:lists -- --devices 1000000 --connections 0
 *   npm run bench:lists -- --keep / --reuse iot_bench_…  # keep the seeded database / measure it again
 *   npm run bench:lists -- --only devices --seed 42      # lines whose label contains the text
 *   npm run bench:lists -- --session-cache-ttl 0          # sessions read on every request
 *
 * PostgreSQL only (BENCH_DATABASE_URL, else TEST_DATABASE_URL).
 */
import http from 'node:http';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { ALARM_SORTS, ALARM_STATES, AUDIT_ACTIONS, CARD_CARRIERS, CARD_STATUSES, ORDER_KINDS, ORDER_STATUSES } from '@iot/contract';
import type { Database } from '../apps/server/src/db/client.js';
import { startApp, withBenchDatabase } from './engines.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const DEVICES = Number(opt('devices') ?? 100_000);
const LOGS = Number(opt('logs') ?? 1_000_000);
const DURATION = Number(opt('duration') ?? 5);
const CONNECTIONS = Number(opt('connections') ?? 50);
const ONLY = opt('only');
const SEED = Number(opt('seed') ?? Math.floor(Math.random() * 2 ** 31));
const AGENTS = 100;
/** The console's pager (apps/web/src/lib/use-server-table.ts PAGE_SIZES). */
const PAGE_SIZES = [10, 20, 50, 100];
/** Rows a capped total counts to: the pager never goes past them. */
const CAP = 10_000;
const DEVICE_SORTS = ['createdAt', 'updatedAt', 'name', 'sn', 'lastSeenAt', 'warningLevel', 'id'];
const TYPES = [
  // code, name prefix, share of the fleet (the last: exactly 3 devices)
  ['BMU', 'Battery', 0.5],
  ['PCS', 'Inverter', 0.3],
  ['METER', 'Meter', 0.15],
  ['GW', 'Gateway', 0.05],
  ['LAB', 'Prototype', 0],
] as const;

/** `agents` agents (users of agent kind under the administrator) with 3 sub-users each, password bench-pass. */
export function agentsSql(agents: number) {
  return [
    sql`insert into users (username, password_hash, type, parent_id, path, role_id, corporate_name)
      select 'agent' || i, a.password_hash, 1, a.id, a.path, (select id from roles where identification = 'ADMIN'), 'Agent company ' || i
      from generate_series(1, ${agents}) i, (select * from users where username = 'admin') a`,
    sql`update users set path = (select path from users where username = 'admin') || id || '/' where username like 'agent%'`,
    sql`insert into users (username, password_hash, type, parent_id, path, role_id, corporate_name)
      select u.username || '_op' || j, u.password_hash, 1, u.id, u.path, u.role_id, u.corporate_name
      from users u, generate_series(1, 3) j where u.username ~ '^agent[0-9]+$'`,
    sql`update users set path = (select p.path from users p where p.id = users.parent_id) || id || '/' where username like 'agent%\_op%'`,
  ];
}

/** The fleet of this benchmark, seeded in SQL (bench/dashboard.ts seeds the same one). */
export async function seedFleet(db: Database['db']) {
  const t0 = performance.now();
  const step = async (label: string, ...queries: ReturnType<typeof sql>[]) => {
    const s = performance.now();
    for (const q of queries) await db.execute(q);
    console.log(`  ${label} (${((performance.now() - s) / 1000).toFixed(1)} s)`);
  };
  const N = DEVICES;
  await step(`${AGENTS} agents with 3 sub-users each`, ...agentsSql(AGENTS));
  // 11 projects per agent, in agent order: row k (0-based) is the agent's (k % 11 + 1)th project.
  await step(
    `${AGENTS * 11} projects, 2 shared with another agent each`,
    sql`insert into projects (name, owner_id, owner_path, address)
      select 'Site ' || substr(u.username, 6) || '-' || j, u.id, u.path, 'Street ' || j
      from users u, generate_series(1, 11) j where u.username ~ '^agent[0-9]+$' order by u.id, j`,
    sql`insert into project_users (project_id, user_id)
      select p.id, u.id from users u
      join (select row_number() over (order by id) - 1 as k, id from projects) p
        on p.k in ((substr(u.username, 6)::int * 37) % ${AGENTS * 11}, (substr(u.username, 6)::int * 53 + 5) % ${AGENTS * 11})
      where u.username ~ '^agent[0-9]+$' on conflict do nothing`,
  );
  await step(
    `${TYPES.length - 1} more device types`,
    sql`insert into device_types (code, name, name_en) values ${sql.join(
      TYPES.filter(([code]) => code !== 'BMU').map(([code, name]) => sql`(${code}, ${name}, ${name})`),
      sql`, `,
    )} on conflict (code) do nothing`,
  );
  // Device i: u (a low-discrepancy draw in [0, 1) from i) picks its project, skewed: project
  // rank floor(1000·u⁵) gets 25 % of the fleet at rank 0 and ~0.02 % at rank 999; the ranks are
  // spread over the agents' first 10 projects; one device in 997 goes to an 11th, nearly empty
  // project; one in 20 has no project (owned by an agent). A second draw picks the type by share.
  const shares = TYPES.filter(([, , s]) => s > 0);
  let acc = 0;
  const typeCase = sql.join(
    shares.map(([code, , s], k) => {
      acc += s;
      return k === shares.length - 1 ? sql`else ${code}` : sql`when v < ${acc} then ${code}`;
    }),
    sql` `,
  );
  await step(
    `${N.toLocaleString('en')} devices`,
    sql`insert into devices (sn, name, type_id, owner_path, project_id, imei, sim_number, address, online, warning_level, created_at)
      select 'BMS-' || lpad(d.i::text, 7, '0'), t.name || ' ' || d.i || ' Bay ' || (d.i % 500), t.id,
        coalesce(p.owner_path, a.path), p.id,
        '86' || lpad((d.i::bigint * 7919)::text, 13, '0'), '8986' || lpad((d.i::bigint * 104729)::text, 16, '0'),
        'Bay ' || (d.i % 500), d.w < 0.33, case when d.w < 0.01 then 4 when d.w < 0.03 then 3 when d.w < 0.07 then 2 when d.w < 0.15 then 1 else 0 end,
        now() - ((d.i / 20) * 60 || ' seconds')::interval
      from (
        select i, ((i::bigint * 2654435761) % 4294967296)::float8 / 4294967296 as u,
          ((i::bigint * 40503 + 7) % 65536)::float8 / 65536 as v,
          ((i::bigint * 69069 + 11) % 1000003)::float8 / 1000003 as w
        from generate_series(1, ${N}) i
      ) d
      cross join lateral (select case when d.i in (7, 70, 700) then 'LAB' else (select case ${typeCase} end from (select d.v) x(v)) end as code) c
      join (select code, name_en as name, id from device_types) t on t.code = c.code
      left join (select row_number() over (order by id) - 1 as k, id, owner_path from projects) p
        on d.i % 20 <> 0 and p.k = case when d.i % 997 = 0 then 11 * ((d.i / 997) % ${AGENTS}) + 10
          else 11 * (((floor(1000 * power(d.u, 5))::int * 7919 + 500) % 1000) / 10) + ((floor(1000 * power(d.u, 5))::int * 7919 + 500) % 10) end
      left join (select row_number() over (order by id) - 1 as k, path from users where username ~ '^agent[0-9]+$') a on a.k = d.i % ${AGENTS}`,
    // Sub-devices: every 100th device gets the next one as a child.
    sql`update devices c set parent_id = c.id - 1 where c.id % 100 = 1 and c.id > 1`,
    // device_presence has a row per device (its trigger): the online third heard within two
    // minutes, the rest within 30 days, 2 % never.
    sql`update device_presence p set last_seen_at = case when d.online then now() - ((p.device_id % 120) || ' seconds')::interval
        when p.device_id % 50 = 0 then null else now() - (((p.device_id::bigint * 7919) % 2592000) || ' seconds')::interval end
      from devices d where d.id = p.device_id`,
  );
  const actions = AUDIT_ACTIONS.slice(0, 12);
  await step(
    `${LOGS.toLocaleString('en')} operation-log rows`,
    sql`insert into operation_logs (user_id, username, user_path, role, action, entity, entity_id, entity_name, summary, ip, result, created_at)
      select u.id, u.username, u.path, 'ADMIN', a.action, split_part(a.action, '.', 1), (i % ${N})::text, 'BMS-' || lpad((i % ${N})::text, 7, '0'),
        '{"name":"Battery ' || (i % ${N}) || '"}', '10.0.' || (i % 250) || '.' || (i % 200), case when i % 50 = 0 then 'failure' else 'success' end,
        now() - (i * 3 || ' seconds')::interval
      from generate_series(1, ${LOGS}) i
      join (select row_number() over (order by id) - 1 as k, id, username, path from users where username like 'agent%') u on u.k = (i * 7 + i / 1000) % ${AGENTS * 4}
      join (select row_number() over () - 1 as k, action from unnest(${sql`array[${sql.join(
        actions.map((a) => sql`${a}`),
        sql`, `,
      )}]::text[]`}) action) a on a.k = i % ${actions.length}`,
  );
  await step(
    '1,000,000 login-log rows',
    sql`insert into login_logs (user_id, username, result, ip, user_agent, created_at)
      select u.id, u.username, case when i % 20 = 0 then 'failure' else 'success' end, '10.1.' || (i % 250) || '.1', 'Mozilla/5.0', now() - (i * 30 || ' seconds')::interval
      from generate_series(1, 1000000) i
      join (select row_number() over (order by id) - 1 as k, id, username from users where username like 'agent%') u on u.k = i % ${AGENTS * 4}`,
  );
  await step(
    '1,000,000 device-log rows',
    sql`insert into device_logs (device_id, sn, kind, reason, detail, owner_path, created_at)
      select d.id, d.sn, (array['connected', 'disconnected', 'rejected', 'command'])[1 + i % 4], case when i % 4 = 2 then 'badPayload' end, '{}', d.owner_path,
        now() - (i * 5 || ' seconds')::interval
      from generate_series(1, 1000000) i join devices d on d.id = 1 + ((i::bigint * 7919) % ${N})`,
  );
  await step(
    '200,000 alarms',
    sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, message, message_en, value, started_at, ended_at, state)
      select d.id, 'r' || (i % 7), 'rule', '01111001', 1 + i % 4, '过压', 'Overvoltage', '58.1', now() - (i * 20 || ' seconds')::interval,
        case when i > 100000 or i % 3 <> 0 then now() - (i * 20 - 60 || ' seconds')::interval end, case when i % 2 = 0 then 'processed' else 'untreated' end
      from generate_series(1, 200000) i join devices d on d.id = 1 + (i::bigint * 7 % ${N})`,
  );
  // A SIM card for every second device (9 in 10 linked to it by ICCID), expiring over two years.
  const carriers = sql`array[${sql.join(CARD_CARRIERS.map((c) => sql`${c}`), sql`, `)}]::text[]`;
  const statuses = sql`array[${sql.join(CARD_STATUSES.map((c) => sql`${c}`), sql`, `)}]::text[]`;
  await step(
    `${Math.floor(N / 2).toLocaleString('en')} SIM cards, 12 prices, 20,000 orders`,
    sql`insert into sim_cards (iccid, msisdn, imsi, carrier, plan, status, activated_at, expires_at, data_used_mb, data_allowance_mb, project_id, owner_path, created_at)
      select case when d.id % 10 = 0 then '8985' || lpad(d.id::text, 16, '0') else d.sim_number end, '14' || lpad(d.id::text, 9, '0'), '46000' || lpad(d.id::text, 10, '0'),
        (${carriers})[1 + d.id % 4], (array['IoT 30MB', 'IoT 100MB', 'IoT 1GB'])[1 + d.id % 3],
        case when d.id % 17 = 0 then (${statuses})[1 + d.id % 5] else 'active' end,
        current_date - 400 + (d.id % 300), current_date - 60 + (d.id % 730), d.id % 100, 100, d.project_id, d.owner_path, d.created_at
      from devices d where d.id % 2 = 0`,
    sql`insert into card_prices (kind, plan, topup_mb, unit_price_cents)
      select k, p || case when k = 'topup' then ' top-up' else '' end, case when k = 'topup' then 100 else 0 end, 100 + n * 50
      from unnest(array['IoT 30MB', 'IoT 100MB', 'IoT 1GB', 'IoT 2GB', 'IoT 5GB', 'IoT 10GB']) with ordinality x(p, n), unnest(${sql`array[${sql.join(
        ORDER_KINDS.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[]`}) k`,
    sql`insert into card_orders (order_no, kind, plan, months, unit_price_cents, amount_cents, status, owner_path, created_by, created_by_name, pay_before, paid_at, provider, created_at)
      select 'ORD' || lpad(i::text, 12, '0'), (array['renewal', 'topup'])[1 + i % 2], 'IoT 100MB', 12, 150, 150 * (1 + i % 3),
        (${sql`array[${sql.join(ORDER_STATUSES.map((s) => sql`${s}`), sql`, `)}]::text[]`})[1 + (i * 7) % 5], c.owner_path, null, 'agent', now() + interval '1 hour',
        case when (i * 7) % 5 = 1 then now() - (i * 600 || ' seconds')::interval end, 'simulated', now() - (i * 600 || ' seconds')::interval
      from generate_series(1, 20000) i
      join (select row_number() over (order by id) - 1 as k, owner_path from sim_cards) c on c.k = (i::bigint * 3) % greatest(1, ${Math.floor(N / 2)})`,
    sql`insert into card_order_items (order_id, card_id, iccid, msisdn)
      select o.id, c.id, c.iccid, c.msisdn from card_orders o, generate_series(0, 2) j
      join sim_cards c on true
      where j <= o.id % 3 and c.id = 2 * (1 + ((o.id::bigint * 3 + j) % greatest(1, ${Math.floor(N / 2)})))`,
  );
  // What autovacuum does to insert-mostly tables in production (PostgreSQL 13+): statistics and
  // the visibility map, without which no index-only scan can count.
  await db.execute(sql`vacuum analyze`);
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

// ---------------------------------------------------------------- random requests

/** A seeded generator (mulberry32): the same seed sends the same sequence. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (from: number, to: number) => from + Math.floor(next() * (to - from + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rand = ReturnType<typeof rng>;
const hash = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** Who sends a line's requests: the administrator or agents (scoped to their subtree). */
interface Who {
  name: string;
  auth: Record<string, string>;
  userId: number;
  /** Projects it sees (owned in its subtree or shared with it). */
  projects: number[];
  /** Device numbers (the N of BMS-000000N) it sees, for SN fragments that find something. */
  devices: number[];
  /** Usernames of its subtree. */
  users: string[];
}

interface Ctx {
  types: number[];
  devices: number;
}

/** Query text from parameters, dropping the undefined ones. */
export const qs = (params: Record<string, string | number | boolean | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** A page size of the pager and a page: mostly the first few, a third anywhere up to the cap (page 500 at size 20). */
function paging(r: Rand, rows = CAP, deep = true) {
  const limit = r.pick(PAGE_SIZES);
  const last = Math.max(1, Math.ceil(Math.min(rows, CAP) / limit));
  const page = deep && r.chance(0.35) ? r.int(1, last) : r.chance(0.6) ? 1 : r.int(1, Math.min(last, 5));
  return { page, limit };
}
const sn = (n: number) => String(n).padStart(7, '0');
/** A digit substring of a device's SN (3 to 7 digits) or an SN prefix (`BMS-00123`). */
function snFragment(r: Rand, devices: number[]) {
  const digits = sn(r.pick(devices));
  if (r.chance(0.3)) return `BMS-${digits.slice(0, r.int(2, 6))}`;
  const len = r.int(3, 7);
  const at = r.int(0, 7 - len);
  return digits.slice(at, at + len);
}
/** A term matching thousands of devices: `Battery 1`, `Bay 4`, `Inverter 23`. */
const broadTerm = (r: Rand) => (r.chance(0.4) ? `Bay ${r.int(1, 49)}` : `${r.pick(TYPES.slice(0, 4)).at(1)} ${r.int(1, 99)}`);
const since = (r: Rand, maxHours: number) => new Date(Date.now() - r.int(1, maxHours) * 3_600_000).toISOString();

type Gen = (r: Rand, who: Who, ctx: Ctx) => string;
interface Line {
  label: string;
  /** Agents (scoped users) instead of the administrator. */
  agent?: boolean;
  gen: Gen;
}

const devicePages: Gen = (r) =>
  `/device/list?${qs({ topLevel: true, ...paging(r), sort: r.pick(DEVICE_SORTS), order: r.pick(['asc', 'desc']) })}`;
const deviceLastSeen: Gen = (r, who) =>
  `/device/list?${qs({
    topLevel: true,
    ...paging(r),
    sort: 'lastSeenAt',
    order: r.chance(0.7) ? 'desc' : 'asc',
    online: r.chance(0.2) ? r.chance(0.5) : undefined,
    projectId: r.chance(0.2) ? r.pick(who.projects) : undefined,
  })}`;
const deviceSearch =
  (kind: 'sn' | 'broad' | 'both'): Gen =>
  (r, who) =>
    `/device/list?${qs({
      q: kind === 'sn' || (kind === 'both' && r.chance(0.5)) ? snFragment(r, who.devices) : broadTerm(r),
      ...paging(r, CAP, kind !== 'sn'),
      sort: r.chance(0.7) ? undefined : r.pick(DEVICE_SORTS),
      order: r.pick(['asc', 'desc']),
    })}`;
const deviceFilters: Gen = (r, who, ctx) => {
  const filters = {
    projectId: r.chance(0.6) ? r.pick(who.projects) : undefined,
    online: r.chance(0.4) ? r.chance(0.5) : undefined,
    warningLevel: r.chance(0.3) ? r.int(0, 4) : undefined,
    typeId: r.chance(0.4) ? r.pick(ctx.types) : undefined,
    enabled: r.chance(0.05) ? false : undefined,
  };
  if (Object.values(filters).every((v) => v === undefined)) filters.online = r.chance(0.5);
  return `/device/list?${qs({ topLevel: true, ...filters, ...paging(r, CAP, r.chance(0.3)), sort: r.chance(0.5) ? undefined : r.pick(DEVICE_SORTS), order: r.pick(['asc', 'desc']) })}`;
};
const alarmPages: Gen = (r) => `/device/alarmlist?${qs({ ...paging(r), sort: r.pick(ALARM_SORTS), order: r.pick(['asc', 'desc']) })}`;
const alarmFilters: Gen = (r, who, ctx) => {
  const f = {
    state: r.chance(0.4) ? r.pick(ALARM_STATES) : undefined,
    level: r.chance(0.3) ? r.int(1, 4) : undefined,
    activity: r.chance(0.3) ? r.pick(['active', 'ended']) : undefined,
    projectId: r.chance(0.3) ? r.pick(who.projects) : undefined,
    typeId: r.chance(0.15) ? r.pick(ctx.types) : undefined,
    device: r.chance(0.25) ? snFragment(r, who.devices) : undefined,
    from: r.chance(0.2) ? since(r, 24 * 30) : undefined,
  };
  if (Object.values(f).every((v) => v === undefined)) f.state = 'untreated';
  return `/device/alarmlist?${qs({ ...f, ...paging(r, CAP, false), sort: r.chance(0.6) ? undefined : r.pick(ALARM_SORTS), order: r.pick(['asc', 'desc']) })}`;
};
const projects: Gen = (r, who) =>
  `/project/list?${qs({
    name: r.chance(0.4) ? (r.chance(0.5) ? `Site ${r.int(1, AGENTS)}` : `${r.int(1, 99)}-${r.int(1, 11)}`) : undefined,
    ...paging(r, who.projects.length),
    sort: r.pick(['createdAt', 'name', 'id']),
    order: r.pick(['asc', 'desc']),
  })}`;
const users: Gen = (r, who) =>
  `/user/list?${qs({
    kind: r.pick(['agent', 'user', 'admin']),
    username: r.chance(0.4) ? r.pick(who.users).slice(0, r.int(3, 9)) : undefined,
    enabled: r.chance(0.1) ? r.chance(0.8) : undefined,
    ...paging(r, who.users.length),
    sort: r.pick(['createdAt', 'username', 'id']),
    order: r.pick(['asc', 'desc']),
  })}`;
const opLogs =
  (filtered: boolean): Gen =>
  (r, who) => {
    const f = filtered
      ? {
          username: r.chance(0.4) ? r.pick(who.users) : undefined,
          action: r.chance(0.4) ? (r.chance(0.8) ? r.pick(AUDIT_ACTIONS) : r.pick(AUDIT_ACTIONS).split('.')[0]) : undefined,
          entity: r.chance(0.1) ? r.pick(['device', 'user', 'project']) : undefined,
          result: r.chance(0.2) ? r.pick(['success', 'failure']) : undefined,
          from: r.chance(0.3) ? since(r, 24 * 7) : undefined,
        }
      : {};
    if (filtered && Object.values(f).every((v) => v === undefined)) f.result = 'failure';
    return `/logs/list?${qs({ ...f, ...paging(r, CAP, !filtered || r.chance(0.3)), order: r.chance(0.8) ? 'desc' : 'asc' })}`;
  };
const loginLogs: Gen = (r, who) =>
  `/logs/loginlist?${qs({
    username: r.chance(0.4) ? r.pick(who.users) : undefined,
    result: r.chance(0.2) ? r.pick(['success', 'failure']) : undefined,
    from: r.chance(0.2) ? since(r, 24 * 30) : undefined,
    ...paging(r),
    order: r.chance(0.8) ? 'desc' : 'asc',
  })}`;
const deviceLogs: Gen = (r, who) =>
  `/logs/devicelogs?${qs({
    sn: r.chance(0.3) ? `BMS-${sn(r.pick(who.devices))}` : undefined,
    kind: r.chance(0.3) ? r.pick(['connected', 'disconnected', 'rejected', 'command']) : undefined,
    from: r.chance(0.2) ? since(r, 24 * 7) : undefined,
    ...paging(r),
  })}`;
const cards: Gen = (r, who) =>
  `/card/getSimList?${qs({
    q: r.chance(0.25) ? (r.chance(0.5) ? `14${sn(r.pick(who.devices)).slice(0, r.int(3, 7))}` : snFragment(r, who.devices)) : undefined,
    status: r.chance(0.2) ? r.pick(CARD_STATUSES) : undefined,
    carrier: r.chance(0.2) ? r.pick(CARD_CARRIERS) : undefined,
    projectId: r.chance(0.2) ? r.pick(who.projects) : undefined,
    expiringWithin: r.chance(0.1) ? r.int(7, 90) : undefined,
    linked: r.chance(0.1) ? r.chance(0.5) : undefined,
    ...paging(r),
    sort: r.pick(['createdAt', 'iccid', 'msisdn', 'expiresAt', 'activatedAt', 'status', 'id']),
    order: r.pick(['asc', 'desc']),
  })}`;
const expiring: Gen = (r) => `/card/getExpirationSimList?${qs({ days: r.int(7, 120), ...paging(r) })}`;
const orders: Gen = (r) =>
  `/card/getCardOrderList?${qs({
    q: r.chance(0.2) ? `ORD${String(r.int(1, 20000)).padStart(12, '0').slice(0, r.int(9, 15))}` : undefined,
    status: r.chance(0.3) ? r.pick(ORDER_STATUSES) : undefined,
    kind: r.chance(0.2) ? r.pick(ORDER_KINDS) : undefined,
    ...paging(r),
    sort: r.pick(['createdAt', 'paidAt', 'amountCents', 'id']),
    order: r.pick(['asc', 'desc']),
  })}`;
const prices: Gen = (r) =>
  `/card/getPriceList?${qs({ q: r.chance(0.3) ? `IoT ${r.int(1, 10)}` : undefined, kind: r.chance(0.3) ? r.pick(ORDER_KINDS) : undefined, ...paging(r, 12), sort: r.pick(['plan', 'unitPriceCents', 'updatedAt', 'id']), order: r.pick(['asc', 'desc']) })}`;
const roles: Gen = (r) => `/role/getlist?${qs({ name: r.chance(0.3) ? r.pick(['Admin', 'Battery', 'Super', 'x']) : undefined, ...paging(r, 3), sort: r.pick(['createdAt', 'name', 'id']), order: r.pick(['asc', 'desc']) })}`;
const deviceTypes: Gen = (r) =>
  `/devicetype/list?${qs({ name: r.chance(0.3) ? r.pick(['Bat', 'Inv', 'Meter', 'Gate', 'Proto']) : undefined, ...paging(r, TYPES.length), sort: r.pick(['createdAt', 'name', 'code', 'id']), order: r.pick(['asc', 'desc']) })}`;

const LINES: Line[] = [
  { label: 'devices pages × sizes × sorts', gen: devicePages },
  { label: 'devices sort by last seen', gen: deviceLastSeen },
  { label: 'devices SN fragments', gen: deviceSearch('sn') },
  { label: 'devices broad terms', gen: deviceSearch('broad') },
  { label: 'devices project + state filters', gen: deviceFilters },
  { label: 'agent devices pages × sorts', agent: true, gen: devicePages },
  { label: 'agent devices last seen', agent: true, gen: deviceLastSeen },
  { label: 'agent devices search', agent: true, gen: deviceSearch('both') },
  { label: 'agent devices filters', agent: true, gen: deviceFilters },
  { label: 'alarms pages × sorts', gen: alarmPages },
  { label: 'alarms filters', gen: alarmFilters },
  { label: 'agent alarms', agent: true, gen: (r, w, c) => (r.chance(0.5) ? alarmPages(r, w, c) : alarmFilters(r, w, c)) },
  { label: 'projects', gen: projects },
  { label: 'agent projects', agent: true, gen: projects },
  { label: 'users', gen: users },
  { label: 'agent users', agent: true, gen: users },
  { label: 'roles', gen: roles },
  { label: 'device types', gen: deviceTypes },
  { label: 'op logs pages', gen: opLogs(false) },
  { label: 'op logs filters', gen: opLogs(true) },
  { label: 'agent op logs', agent: true, gen: (r, w, c) => opLogs(r.chance(0.5))(r, w, c) },
  { label: 'login logs', gen: loginLogs },
  { label: 'agent login logs', agent: true, gen: loginLogs },
  { label: 'device logs', gen: deviceLogs },
  { label: 'agent device logs', agent: true, gen: deviceLogs },
  { label: 'cards', gen: cards },
  { label: 'agent cards', agent: true, gen: cards },
  { label: 'cards expiring', gen: expiring },
  { label: 'orders', gen: orders },
  { label: 'agent orders', agent: true, gen: orders },
  { label: 'prices', gen: prices },
];

/** A line's request source: each call another URL (never the previous one), from one of `whos`. */
function source(line: Line, whos: Who[], ctx: Ctx) {
  const r = rng(SEED ^ hash(line.label));
  let last = '';
  return () => {
    for (;;) {
      const who = r.pick(whos);
      const path = `/api/v1${line.gen(r, who, ctx)}`;
      if (path === last) continue;
      last = path;
      return { path, headers: who.auth };
    }
  };
}
type Source = ReturnType<typeof source>;

// ---------------------------------------------------------------- measuring

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/** One GET on a keep-alive agent: its status and body. */
export function getOnce(base: URL, agent: http.Agent, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get({ host: base.hostname, port: base.port, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** One user: one keep-alive connection, each request after the previous answer; every answer checked. */
async function oneUser(base: URL, next: Source, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  /** The slowest request so far, to name what a missed line spends its time on. */
  let slowest = { ms: 0, path: '' };
  let errors = 0;
  let firstError = '';
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const { path, headers } = next();
    const t = performance.now();
    const { status, body } = await getOnce(base, agent, path, headers);
    const took = performance.now() - t;
    times.push(took);
    if (took > slowest.ms) slowest = { ms: took, path };
    if (status !== 200 || !body.startsWith('{"code":20000')) {
      errors++;
      firstError ||= `${path}: ${status} ${body.slice(0, 200)}`;
    }
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 0.5), p95: percentile(times, 0.95), errors, firstError, slowest };
}

/** N connections with autocannon for `seconds`, each request from `next`: req/s. */
async function many(base: URL, next: Source, connections: number, seconds: number) {
  const requests = [{ method: 'GET' as const, setupRequest: (req: object) => ({ ...req, ...next() }) }];
  const r = await autocannon({ url: base.origin, connections, duration: seconds, requests });
  return { rps: r.requests.total / seconds, errors: r.non2xx + r.errors + r.timeouts };
}

const ms = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(5);

async function main() {
  await withBenchDatabase(async (database, { name, reused, admin }) => {
    const { app, auth } = await startApp(database, {
      DEMO: 'off',
      API_RATE_LIMIT: '0',
      // The fleet stays as seeded: with the default five minutes the presence sweep marks the
      // online third offline during the run.
      DEVICE_OFFLINE_AFTER: String(86_400),
      ...(opt('session-cache-ttl') ? { SESSION_CACHE_TTL: opt('session-cache-ttl')! } : {}),
    });
    if (!reused) await seedFleet(database.db);
    const rows = async <T>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
    const fleet = (await rows<{ n: number }>(sql`select count(*)::int as n from devices`))[0]!.n;
    const ctx: Ctx = { devices: fleet, types: (await rows<{ id: number }>(sql`select id from device_types order by id`)).map((t) => t.id) };
    const every = Array.from({ length: 2000 }, (_, k) => 1 + Math.floor((k * fleet) / 2000));
    const adminUser = (await rows<{ id: number }>(sql`select id from users where username = 'admin'`))[0]!;
    const adminWho: Who = {
      name: 'admin',
      auth,
      userId: adminUser.id,
      projects: (await rows<{ id: number }>(sql`select id from projects`)).map((p) => p.id),
      devices: every,
      users: (await rows<{ username: string }>(sql`select username from users where username like 'agent%' order by id`)).map((u) => u.username),
    };
    // Three agents: the one with the most devices, the median one and the one with the fewest.
    const sized = await rows<{ id: number; username: string; path: string; n: number }>(sql`
      select u.id, u.username, u.path, coalesce(c.n, 0)::int as n from users u
      left join (select owner_path, count(*) as n from devices group by owner_path) c on c.owner_path = u.path
      where u.username ~ '^agent[0-9]+$' order by n desc, u.id`);
    const chosen = [sized[0]!, sized[Math.floor(sized.length / 2)]!, sized[sized.length - 1]!];
    const agents: Who[] = [];
    for (const a of chosen) {
      const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: a.username, password: 'bench-pass' } });
      const seen = await rows<{ id: number }>(sql`
        select id from projects where owner_path like ${`${a.path}%`}
        union select project_id from project_users pu join users u on u.id = pu.user_id where u.path like ${`${a.path}%`}`);
      const own = await rows<{ n: number }>(sql`select substr(sn, 5)::int as n from devices where owner_path like ${`${a.path}%`} order by id limit 2000`);
      const subtree = await rows<{ username: string }>(sql`select username from users where path like ${`${a.path}%`} and id <> ${a.id}`);
      agents.push({
        name: `${a.username} (${a.n.toLocaleString('en')} devices)`,
        auth: { authorization: `Bearer ${login.json().data.token}` },
        userId: a.id,
        projects: seen.length ? seen.map((p) => p.id) : adminWho.projects.slice(0, 1),
        devices: own.length ? own.map((d) => d.n) : every,
        users: subtree.length ? subtree.map((u) => u.username) : [a.username],
      });
    }
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const base = new URL(address);
    console.log(
      `bench:lists  database ${name}, ${fleet.toLocaleString('en')} devices, seed ${SEED}, ${DURATION} s per measure, ` +
        `${CONNECTIONS} connections, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    );
    console.log(`agents: ${agents.map((a) => a.name).join(', ')}`);
    /** Wait until the database runs no query of ours: a slow line's backlog is not charged to the next one. */
    const drain = async () => {
      for (let i = 0; i < 600; i++) {
        const r = await admin.query(`select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()`, [name]);
        if (r.rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    // The baseline has one URL: the cheapest signed-in call (session cache included), one row by key.
    const info: Source = () => ({ path: '/api/v1/user/info', headers: auth });
    const infoOne = await oneUser(base, info, DURATION);
    console.log(`${'GET /user/info (baseline)'.padEnd(34)} 1 user p50 ${ms(infoOne.p50)} ms p95 ${ms(infoOne.p95)} ms`);
    const missed: string[] = [];
    for (const line of LINES) {
      if (ONLY && !line.label.includes(ONLY)) continue;
      const next = source(line, line.agent ? agents : [adminWho], ctx);
      // Warm-up and check: 5 requests of the line (their answers must be envelopes with code 20000).
      for (let i = 0; i < 5; i++) {
        const { path, headers } = next();
        const res = await app.inject({ method: 'GET', url: path, headers });
        if (!res.body.startsWith('{"code":20000')) throw new Error(`${line.label}: ${path}: ${res.body.slice(0, 300)}`);
      }
      const one = await oneUser(base, next, DURATION);
      let rate = '';
      let okMany = true;
      if (CONNECTIONS > 0) {
        const slices = { info: [] as number[], line: [] as number[], errors: 0 };
        for (let i = 0; i < DURATION; i++) {
          slices.info.push((await many(base, info, CONNECTIONS, 1)).rps);
          await drain();
          const m = await many(base, next, CONNECTIONS, 1);
          slices.line.push(m.rps);
          slices.errors += m.errors;
          await drain();
        }
        const lineRps = slices.line.reduce((a, b) => a + b, 0) / slices.line.length;
        const infoRps = slices.info.reduce((a, b) => a + b, 0) / slices.info.length;
        const ratio = lineRps / infoRps;
        okMany = ratio >= 0.3 && slices.errors === 0;
        rate = `${String(Math.round(lineRps)).padStart(5)} req/s  info ${String(Math.round(infoRps)).padStart(5)}  ${ratio.toFixed(2)}× ${okMany ? 'met   ' : 'MISSED'}${slices.errors ? ` ${slices.errors} errors` : ''}`;
      }
      const okOne = one.p95 < 50 && one.errors === 0;
      if (!okOne || !okMany) missed.push(line.label);
      const row =
        `${line.label.padEnd(34)} 1 user p50 ${ms(one.p50)} ms p95 ${ms(one.p95)} ms ${okOne ? 'met   ' : 'MISSED'} (${one.n} req)` +
        `${rate ? `   ${CONNECTIONS} users ${rate}` : ''}${one.errors ? `   ${one.errors} errors: ${one.firstError}` : ''}`;
      console.log(row);
      if (!okOne) console.log(`${''.padEnd(34)} slowest ${one.slowest.ms.toFixed(0)} ms: ${decodeURIComponent(one.slowest.path)}`);
    }
    console.log(missed.length ? `missed: ${missed.join(', ')}` : 'every line met its targets');
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    await app.close();
  });
}

// Run only as a script: bench/dashboard.ts imports seedFleet.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
