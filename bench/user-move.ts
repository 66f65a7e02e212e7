/**
 * Moving a user to another parent (issue #32): `POST /user/edit` with a new parent rewrites the
 * path of the user's subtree and of every row its line owns in one transaction; device logs are
 * the large part. Seeds `--logs N` device log rows (default 1,000,000), `--share` of them (default
 * 0.1) under the moved user, plus `--devices` devices of its line with one alarm each (default
 * 10,000), then times the move and the move back through the route.
 *
 *   npx tsx bench/user-move.ts --logs 1000000   # PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL), then PGlite
 */
import { sql } from 'drizzle-orm';
import { onEachEngine, startApp } from './engines.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const LOGS = arg('logs', 1_000_000);
const SHARE = arg('share', 0.1);
const DEVICES = arg('devices', 10_000);

await onEachEngine(
  async (label, database) => {
    const { app, auth } = await startApp(database, { API_RATE_LIMIT: '0' });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = (await app.inject({ method, url: `/api/v1${url}`, headers: auth, payload })).json();
      if (r.code !== 20000) throw new Error(`${url}: ${JSON.stringify(r)}`);
      return r.data;
    };
    const roles = (await call('GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    const roleId = roles.find((r) => r.identification === 'ADMIN')!.id;
    const user = (username: string, parentId?: number) =>
      call('POST', '/user/add', { username, password: 'bench-pass-1', type: 1, roleId, ...(parentId ? { parentId } : {}) }).then((d) => d.id as number);
    const a = await user('agent-a');
    const b = await user('agent-b');
    const s = await user('sub-s', a);
    const other = await user('agent-c');
    const path = async (id: number) =>
      ((await database.db.execute(sql`select path from users where id = ${id}`)) as unknown as { rows: { path: string }[] }).rows[0]!.path;
    const moved = await path(s);
    const elsewhere = await path(other);
    const types = (await call('GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
    const typeId = types.find((t) => t.code === 'BMU')!.id;

    const t0 = performance.now();
    const mine = Math.round(LOGS * SHARE);
    await database.db.execute(sql`insert into device_logs (sn, kind, owner_path, created_at)
      select 'SN' || g, 'online', case when g <= ${mine} then ${moved} else ${elsewhere} end, now() - g * interval '1 second'
      from generate_series(1, ${LOGS}) g`);
    await database.db.execute(sql`insert into devices (name, sn, type_id, owner_path)
      select 'D' || g, 'MOVE-' || g, ${typeId}, ${moved} from generate_series(1, ${DEVICES}) g`);
    await database.db.execute(sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
      select id, 'bench', 'rule', 'T', 2, now() from devices where sn like 'MOVE-%'`);
    await database.db.execute(sql`analyze`);
    console.log(`${label.padEnd(10)} seeded ${LOGS} device logs (${mine} of the moved user), ${DEVICES} devices and alarms in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    for (const [to, name] of [[b, 'move'], [a, 'move back']] as const) {
      const m0 = performance.now();
      await call('POST', '/user/edit', { id: s, parentId: to });
      console.log(`           ${name.padEnd(9)} ${(performance.now() - m0).toFixed(0).padStart(6)} ms`);
    }
    await app.close();
  },
  { postgresOnly: process.argv.includes('--postgres-only') },
);
