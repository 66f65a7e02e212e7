/**
 * The home dashboard's battery style (GET /home/battery, issue #34) at fleet scale, on PostgreSQL.
 * Seeds in SQL: 19 agents (subtrees of very different sizes), `--devices` BMU devices (default
 * 100,000) with realistic latest values (SOC, current, 16 cell voltages, 4 cell temperatures,
 * counters) in `device_latest`, their battery summary written by the ingestion path's own
 * statement (`upsertBattery`, timed: the migration's backfill costs the same), and 30 days of
 * hourly energy per owner line (`battery_energy_hour`, as the rollups write it).
 *
 * Then 20 users (the administrator and the 19 agents) call GET /home/battery?days=30 over real
 * HTTP, one request in flight each, for `--duration` s; then the same users call GET /user/info
 * (a session plus one row by key) the same way: p50 / p99 of both and the ratio. Also the
 * query the summary replaces (the figures read from device_latest's JSON), timed once.
 * Target (issue #34): p50 < 100 ms, p99 < 300 ms with 20 users at 100,000 devices.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/dashboard-battery.ts
 *   … -- --devices 100000 --duration 10 --keep / --reuse iot_bench_…
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { allowLongWork, type Database } from '../apps/server/src/db/client.js';
import { upsertBattery, writeBatch, type TelemetryRow } from '../apps/server/src/telemetry/ingest.repo.js';
import * as batteryRepo from '../apps/server/src/modules/home/battery.repo.js';
import { startApp, withBenchDatabase } from './engines.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const DEVICES = Number(opt('devices') ?? 100_000);
const DURATION = Number(opt('duration') ?? 10);
const AGENTS = 19;
const PASSWORD = 'bench-pass';

async function seedFleet(db: Database['db']) {
  const step = async (label: string, ...queries: ReturnType<typeof sql>[]) => {
    const s = performance.now();
    // Seeding statements run longer than a request may (the console's 30 s statement timeout).
    await db.transaction(async (tx) => {
      await allowLongWork(tx);
      for (const q of queries) await tx.execute(q);
    });
    const ms = performance.now() - s;
    console.log(`  ${label} (${(ms / 1000).toFixed(1)} s)`);
    return ms;
  };
  await step(
    `${AGENTS} agents`,
    sql`insert into users (username, password_hash, type, parent_id, path, role_id)
      select 'agent' || i, a.password_hash, 1, a.id, a.path, (select id from roles where identification = 'ADMIN')
      from generate_series(1, ${AGENTS}) i, (select * from users where username = 'admin') a`,
    sql`update users set path = (select path from users where username = 'admin') || id || '/' where username like 'agent%'`,
  );
  // Device i belongs to agent floor(19·u²) + 1 (u uniform): agent 1 owns ~23 % of the fleet, agent 19 ~1 %.
  await step(
    `${DEVICES.toLocaleString('en')} BMU devices`,
    sql`insert into devices (sn, name, type_id, owner_path, online)
      select 'BAT-' || lpad(i::text, 7, '0'), 'Pack ' || i, (select id from device_types where code = 'BMU'),
        (select path from users where username = 'agent' || (floor(${AGENTS} * power(((i::bigint * 2654435761) % 4294967296)::float8 / 4294967296, 2)) + 1)),
        i % 3 = 0
      from generate_series(1, ${DEVICES}) i`,
  );
  // Latest values as a BMU sends them ([value, epoch ms] per semaphore id); one device in 50 has none.
  await step(
    'device_latest (32 values per device)',
    sql`insert into device_latest (device_id, vals, ts)
      select d.id, (
        select jsonb_object_agg(k, jsonb_build_array(v, 1764230000000)) from (
          select '02109001' as k, to_jsonb(round((random() * 100)::numeric, 1)) as v
          union all select '01112001', to_jsonb(round((random() * 60 - 30)::numeric, 2))
          union all select '01111001', to_jsonb(round((48 + random() * 6)::numeric, 2))
          union all select '02116001', to_jsonb(round((random() * 10000)::numeric, 1))
          union all select '02117001', to_jsonb(round((random() * 10000)::numeric, 1))
          union all select '01118001', to_jsonb(round((20 + random() * 20)::numeric, 1))
          union all select '01117' || lpad(c::text, 3, '0'), to_jsonb(round((3.2 + random() * 0.1)::numeric, 3)) from generate_series(1, 16) c
          union all select '01119' || lpad(c::text, 3, '0'), to_jsonb(round((20 + random() * 25)::numeric, 1)) from generate_series(1, 4) c
          union all select '02105001', to_jsonb(20) union all select '02110001', to_jsonb(98)
        ) x where d.id > 0
      ), now()
      from devices d where d.id % 50 <> 0`,
  );
  const ids = ((await db.execute(sql`select device_id from device_latest order by device_id`)) as unknown as { rows: { device_id: number }[] }).rows.map(
    (r) => r.device_id,
  );
  const s = performance.now();
  for (let i = 0; i < ids.length; i += 2000) await upsertBattery(db, ids.slice(i, i + 2000));
  const perBatch = (performance.now() - s) / Math.ceil(ids.length / 2000);
  console.log(`  device_battery by upsertBattery, 2,000 devices a call as a batch would (${((performance.now() - s) / 1000).toFixed(1)} s, ${perBatch.toFixed(0)} ms per 2,000)`);
  await step(
    '30 days of hourly energy per owner line',
    sql`insert into battery_energy_hour (bucket, owner_path, project_id, charged_kwh, discharged_kwh, devices)
      select h, g.owner_path, null, g.n * random() * 0.5, g.n * random() * 0.5, g.n
      from generate_series(date_trunc('hour', now()) - interval '31 days', date_trunc('hour', now()), interval '1 hour') h,
        (select owner_path, count(*)::int as n from devices group by owner_path) g`,
    sql`insert into telemetry_rollup_days (day, final) select d::date, true
      from generate_series(now() - interval '32 days', now() - interval '1 day', interval '1 day') d on conflict do nothing`,
  );
  await db.execute(sql`analyze`);
}

/** `users` loops, one request in flight each, for `seconds`: the latencies (ms). */
async function load(base: string, tokens: string[], path: string, seconds: number): Promise<{ lat: number[]; errors: number }> {
  const lat: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    tokens.map(async (token) => {
      while (performance.now() < until) {
        const s = performance.now();
        const r = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const body = (await r.json()) as { code: number };
        lat.push(performance.now() - s);
        if (body.code !== 20000) errors++;
      }
    }),
  );
  return { lat: lat.sort((a, b) => a - b), errors };
}
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;

await withBenchDatabase(async (database, { reused }) => {
  const { app, auth } = await startApp(database);
  if (!reused) {
    console.log(`seeding ${DEVICES.toLocaleString('en')} devices…`);
    await seedFleet(database.db);
  }
  const tokens = [auth.authorization.slice('Bearer '.length)];
  for (let i = 1; i <= AGENTS; i++) {
    const r = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: `agent${i}`, password: PASSWORD } });
    const body = r.json();
    if (body.code !== 20000) throw new Error(`login agent${i}: ${r.body}`);
    tokens.push(body.data.token);
  }
  // What the summary replaces: the same figures from device_latest's JSON, once, as the administrator.
  const s = performance.now();
  await database.db.execute(sql`
    select width_bucket(least((vals -> '02109001' ->> 0)::float8, 99.999), 0, 100, 10) as b, count(*),
      max((select max((e.value ->> 0)::float8) from jsonb_each(vals) e where e.key like '01119___')),
      max((select (max((e.value ->> 0)::float8) - min((e.value ->> 0)::float8)) * 1000 from jsonb_each(vals) e where e.key like '01117___'))
    from device_latest group by 1`);
  console.log(`the same figures from device_latest's JSON, once: ${(performance.now() - s).toFixed(0)} ms`);

  // Each statement of the answer alone, one after the other (median of 5): the administrator
  // (the whole fleet) and the largest agent (~23 % of it).
  const big = ((await database.db.execute(sql`select path from users where username = 'agent1'`)) as unknown as { rows: { path: string }[] }).rows[0]!.path;
  const median = async (f: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await f();
      xs.push(performance.now() - t0);
    }
    return xs.sort((a, b) => a - b)[2]!.toFixed(1);
  };
  for (const [who, scope] of [['administrator', undefined], ['agent1', big]] as const) {
    console.log(
      `${who.padEnd(14)} counts ${await median(() => batteryRepo.counts(database.db, scope))} ms, energy 30 d ${await median(() => batteryRepo.energyPerDay(database.db, scope, 30, 'Asia/Shanghai'))} ms, ` +
        `lowest SOC ${await median(() => batteryRepo.top(database.db, scope, 'lowestSoc', 5))} ms, hottest ${await median(() => batteryRepo.top(database.db, scope, 'hottest', 5))} ms, ` +
        `imbalance ${await median(() => batteryRepo.top(database.db, scope, 'imbalance', 5))} ms`,
    );
  }
  // What the summary costs ingestion: a batch of 2,000 BMU messages (2,000 devices, 32 values) through
  // writeBatch, and the battery upsert alone on the same devices, alternating three times.
  const devs = ((await database.db.execute(sql`select device_id from device_latest order by device_id limit 2000`)) as unknown as { rows: { device_id: number }[] }).rows.map((r) => r.device_id);
  const vals = (i: number): Record<string, unknown> => {
    const v: Record<string, unknown> = { '02109001': (i * 7) % 100, '01112001': ((i % 7) - 3) * 4, '01111001': 52.1, '02116001': 5000 + i, '02117001': 6000 + i };
    for (let c = 1; c <= 16; c++) v[`01117${String(c).padStart(3, '0')}`] = 3.2 + ((i + c) % 9) / 100;
    for (let c = 1; c <= 4; c++) v[`01119${String(c).padStart(3, '0')}`] = 25 + ((i + c) % 11);
    return v;
  };
  const whole: number[] = [];
  const alone: number[] = [];
  for (let round = 0; round < 3; round++) {
    const ts = new Date(Date.now() + round * 1000).toISOString();
    const telemetry: TelemetryRow[] = devs.map((deviceId, i) => ({ deviceId, ts, vals: vals(i + round) }));
    let t0 = performance.now();
    await writeBatch(database.db, { telemetry, positions: [], logs: [], seen: [] });
    whole.push(performance.now() - t0);
    t0 = performance.now();
    await upsertBattery(database.db, devs);
    alone.push(performance.now() - t0);
  }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
  console.log(
    `ingestion batch of 2,000 messages: writeBatch ${med(whole).toFixed(0)} ms (battery upsert included), the battery upsert alone ${med(alone).toFixed(0)} ms (${((100 * med(alone)) / med(whole)).toFixed(0)} %)`,
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  // Warm-up: every user once.
  await load(base, tokens, '/api/v1/home/battery?days=30&tz=Asia%2FShanghai', 1);
  const battery = await load(base, tokens, '/api/v1/home/battery?days=30&tz=Asia%2FShanghai', DURATION);
  const info = await load(base, tokens, '/api/v1/user/info', DURATION);
  const line = (label: string, r: { lat: number[]; errors: number }) =>
    console.log(
      `${label.padEnd(30)} ${tokens.length} users  ${String(r.lat.length).padStart(6)} requests  p50 ${pct(r.lat, 50).toFixed(1)} ms  p99 ${pct(r.lat, 99).toFixed(1)} ms  errors ${r.errors}`,
    );
  line('GET /home/battery?days=30', battery);
  line('GET /user/info (baseline)', info);
  console.log(`ratio p50 ${(pct(battery.lat, 50) / pct(info.lat, 50)).toFixed(1)}×, p99 ${(pct(battery.lat, 99) / pct(info.lat, 99)).toFixed(1)}×; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  await app.close();
});
