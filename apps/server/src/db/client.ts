import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.js';

/** The database both engines expose: one SQL dialect, one schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything queries can run on: the database or a transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * Hears NOTIFY on a channel: on PostgreSQL over a connection of its own, reconnected after a
   * second when it drops (`down`, then `up` again once it listens); PGlite delivers in process.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  /** Listening: every notification committed from now on arrives. */
  up(): void;
  /** Not listening: notifications may be missed until the next `up`. */
  down(): void;
}

export interface Listener {
  /** Resolves once every notification committed before the call has been delivered. */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/** LISTEN on a dedicated PostgreSQL connection, reconnecting while not stopped. */
function listenPostgres(url: string, channel: string, h: ListenHandlers): Promise<Listener> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let syncs = 0;
  const waiting = new Map<string, () => void>();
  const connect = async () => {
    // Named for pg_stat_activity: an operator (or a test) can tell it from the pool.
    const c = new pg.Client({ connectionString: url, application_name: `listen ${channel}` });
    c.on('error', () => {});
    c.on('notification', (n) => {
      if (n.channel !== channel) return;
      const payload = n.payload ?? '';
      const done = waiting.get(payload);
      if (done) {
        waiting.delete(payload);
        done();
      } else h.notify(payload);
    });
    c.on('end', () => {
      if (client !== c) return;
      client = undefined;
      h.down();
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (stopped) return void (await c.end().catch(() => {}));
      client = c;
      h.up();
    } catch {
      await c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    }
  };
  return connect().then(() => ({
    async sync() {
      if (!client) return;
      // A notification of our own, sent after the call: PostgreSQL delivers in commit order.
      const token = `sync:${process.pid}:${++syncs}`;
      const heard = new Promise<void>((resolve) => waiting.set(token, resolve));
      await client.query('select pg_notify($1, $2)', [channel, token]);
      await heard;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  }));
}

const committedMigrations = path.join(import.meta.dirname, 'migrations');

/**
 * Opens PostgreSQL at `databaseUrl`, or embedded PGlite in `dataDir` (`memory://` for tests),
 * and applies the committed migrations.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  /**
   * PostgreSQL's `max_parallel_workers_per_gather` for these connections; default 0. The
   * console's queries are many small ones (a page, a capped count); a parallel plan's worker
   * start-up cost more than the query on the 2-core machine it was measured on (an agent's
   * alarm count: 66–151 ms parallel, 3–14 ms not; docs/ARCHITECTURE.md "Lists at fleet scale").
   */
  parallelWorkers?: number;
  /** The migrations to apply (default: the committed ones; an upgrade test applies fewer first). */
  migrationsFolder?: string;
}): Promise<Database> {
  const migrationsFolder = opts.migrationsFolder ?? committedMigrations;
  if (opts.databaseUrl) {
    // No JIT: PostgreSQL compiles a plan whose estimated cost passes jit_above_cost, and the
    // scoped lists' estimates do (their visibility InitPlans are costed high): an agent's card page
    // spent 0.6 s of its 0.7 s compiling (bench/README.md "Lists at fleet scale").
    const options = `-c max_parallel_workers_per_gather=${opts.parallelWorkers ?? 0} -c jit=off`;
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, options });
    // An idle client error (server restart) must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool), { migrationsFolder });
    const url = opts.databaseUrl;
    return {
      db,
      engine: 'postgres',
      close: async () => {
        await pool.end();
      },
      listen: (channel, h) => {
        if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
        return listenPostgres(url, channel, h);
      },
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  let client: PGlite;
  // The same extensions the migrations create on PostgreSQL.
  const extensions = { pg_trgm };
  if (dir.startsWith('memory://')) {
    client = new PGlite(dir, { extensions });
  } else {
    const pgDir = path.join(dir, 'pglite');
    fs.mkdirSync(pgDir, { recursive: true });
    client = new PGlite(pgDir, { extensions });
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    db,
    engine: 'pglite',
    close: () => client.close(),
    async listen(channel, h) {
      // PGlite hands a notification over (in a microtask) while reading the result of the
      // statement that committed it: it is heard before that statement's caller goes on.
      const unlisten = await client.listen(channel, (payload) => h.notify(payload));
      h.up();
      return {
        sync: () => new Promise<void>((resolve) => setImmediate(resolve)),
        async stop() {
          if (!client.closed) await unlisten();
          h.down();
        },
      };
    },
  };
}
