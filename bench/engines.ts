import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { seed } from '../apps/server/src/db/seed/index.js';

/**
 * Runs a benchmark on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL; in a database it
 * creates and drops) and then on embedded in-memory PGlite (not with `postgresOnly`).
 */
export async function onEachEngine(
  run: (label: string, database: Database) => Promise<void>,
  opts: { postgresOnly?: boolean } = {},
): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `iot_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), statementTimeoutMs: 0 });
    try {
      await run('postgres', database);
    } finally {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  } else {
    console.log('postgres   skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  }
  if (opts.postgresOnly) return;
  const lite = await openDatabase({ dataDir: 'memory://' });
  try {
    await run('pglite', lite);
  } finally {
    await lite.close();
  }
}

/**
 * A PostgreSQL database for one benchmark (BENCH_DATABASE_URL, else TEST_DATABASE_URL): a new
 * one, dropped at the end unless `--keep` is on the command line; `--reuse <name>` measures a
 * database an earlier `--keep` left (`reused` is then true: skip the seeding); `--name <name>`
 * names the new database (e.g. with one's branch, to keep it apart from other runs').
 */
export async function withBenchDatabase(
  run: (database: Database, ctx: { name: string; reused: boolean; admin: pg.Client }) => Promise<void>,
): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL)');
  const argv = process.argv;
  const reuse = argv.includes('--reuse') ? argv[argv.indexOf('--reuse') + 1] : undefined;
  const keep = argv.includes('--keep') || reuse !== undefined;
  const named = argv.includes('--name') ? argv[argv.indexOf('--name') + 1] : undefined;
  if (named !== undefined && !/^[a-z_][a-z0-9_]*$/.test(named)) throw new Error('--name: lower-case letters, digits and _');
  const name = reuse ?? named ?? `iot_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  if (!reuse) await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  // No statement limit: seeding a million devices is one statement of minutes (the console's
  // connections stop a statement at 30 s, DATABASE_STATEMENT_TIMEOUT).
  const database = await openDatabase({ databaseUrl: url.toString(), statementTimeoutMs: 0 });
  try {
    await run(database, { name, reused: reuse !== undefined, admin });
  } finally {
    await database.close();
    if (keep) console.log(`kept database ${name} (drop it with: dropdb -h 127.0.0.1 -U postgres ${name})`);
    else await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The server on `database`, seeded with the administrator, and that administrator's auth header. */
export async function startApp(database: Database, env: Record<string, string> = {}) {
  const config = loadConfig({ CAPTCHA: 'off', ADMIN_PASSWORD: 'bench-pass', LOG_LEVEL: 'silent', WEB_DIST: '/none', ...env });
  await seed(database.db, { adminUsername: 'admin', adminPassword: 'bench-pass' });
  const app = await buildApp(config, { database, logger: false });
  const login = await app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'admin', password: 'bench-pass' } });
  return { app, auth: { authorization: `Bearer ${login.json().data.token}` } };
}
