import type { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { HEAVY_CONNECTIONS, STATEMENT_TIMEOUT_MS, type Database, type Db, type ListenHandlers, type Listener } from './client.js';
import { leadPostgres } from './leader.js';
import * as schema from './schema/index.js';

// PostgreSQL mode (DATABASE_URL): loaded by openDatabase only then, so an embedded console never
// loads the pg driver (bench/README.md "Production start").

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

/** A heavy pool's client for the caller behind `signal`: its statement is cancelled when the caller leaves. */
async function heavyClient(heavy: pg.Pool, main: pg.Pool, signal: AbortSignal): Promise<pg.PoolClient> {
  signal.throwIfAborted();
  const client = await heavy.connect();
  if (signal.aborted) {
    client.release();
    signal.throwIfAborted();
  }
  const pid = (client as unknown as { processID: number }).processID;
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    // PostgreSQL would otherwise read on for nobody until the statement ends or times out.
    main.query('select pg_cancel_backend($1)', [pid]).catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  const release = client.release.bind(client);
  client.release = (err?: Error | boolean) => {
    signal.removeEventListener('abort', cancel);
    // A cancel may still be on its way to this backend: the connection is closed, never reused.
    release(cancelled ? true : err);
  };
  return client;
}

/**
 * The console's pool: statements of a heavy read (`inHeavyScope`) check a client out of the heavy
 * pool, everything else this one. Drizzle takes any pg Pool; `query` checks out through `connect`.
 */
class ConsolePool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly heavy: pg.Pool,
    private readonly scope: AsyncLocalStorage<AbortSignal>,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(cb: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    const signal = this.scope.getStore();
    if (!signal) return cb ? super.connect(cb) : super.connect();
    const got = heavyClient(this.heavy, this, signal);
    if (!cb) return got;
    got.then(
      (client) => cb(undefined, client, (err?: unknown) => client.release(err as Error | undefined)),
      (err: Error) => cb(err, undefined, () => {}),
    );
  }

  override async end(): Promise<void> {
    await Promise.all([super.end(), this.heavy.end()]);
  }
}

/** Opens PostgreSQL at `url` and applies the migrations (openDatabase's PostgreSQL half). */
export async function openPostgres(
  url: string,
  opts: { parallelWorkers?: number; statementTimeoutMs?: number; heavyConnections?: number; migrationsFolder: string },
  /** Set while a heavy read runs (client.ts inHeavyScope). */
  heavyScope: AsyncLocalStorage<AbortSignal>,
): Promise<Database> {
  // No JIT: PostgreSQL compiles a plan whose estimated cost passes jit_above_cost, and the
  // scoped lists' estimates do (their visibility InitPlans are costed high): an agent's card page
  // spent 0.6 s of its 0.7 s compiling (bench/README.md "Lists at fleet scale").
  const options = `-c max_parallel_workers_per_gather=${opts.parallelWorkers ?? 0} -c jit=off`;
  // A statement nobody should wait for is stopped by PostgreSQL itself: a request's reads end
  // within the limit whether or not its caller is still there.
  const limited = `${options} -c statement_timeout=${opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS}`;
  const heavy = new pg.Pool({
    connectionString: url,
    max: opts.heavyConnections ?? HEAVY_CONNECTIONS,
    options: limited,
    application_name: 'iot-console heavy',
  });
  const pool = new ConsolePool({ connectionString: url, max: 10, options: limited }, heavy, heavyScope);
  // An idle client error (server restart) must not crash the process; the pool reconnects.
  pool.on('error', () => {});
  heavy.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Migrations may rewrite large tables: their own connection, without the limit. Instances
  // starting together (several of them, an upgrade) migrate one after the other: a session
  // advisory lock on that one connection (never closed while idle), released as it ends.
  const migrator = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0, options });
  migrator.on('error', () => {});
  try {
    await migrator.query('select pg_advisory_lock(hashtext($1))', ['iot-console migrations']);
    await migratePg(drizzlePg(migrator), { migrationsFolder: opts.migrationsFolder });
  } finally {
    await migrator.end();
  }
  return {
    db,
    engine: 'postgres',
    url,
    close: async () => {
      await pool.end();
    },
    listen: (channel, h) => {
      if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
      return listenPostgres(url, channel, h);
    },
    lead: (name, o) => leadPostgres(url, name, o),
  };
}
