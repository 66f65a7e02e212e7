import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';
import { alwaysLeading, type Leadership, type LeaderOptions } from './leader.js';
import { unpackDataDir } from './unpack-template.js';

export type { Leadership, LeaderOptions };

/** The database both engines expose: one SQL dialect, one schema. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything queries can run on: the database or a transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's address (not on PGlite): for a client of its own, such as a test's. */
  url?: string;
  close(): Promise<void>;
  /**
   * Hears NOTIFY on a channel: on PostgreSQL over a connection of its own, reconnected after a
   * second when it drops (`down`, then `up` again once it listens); PGlite delivers in process.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<Listener>;
  /** Leadership among the instances sharing this database (db/leader.ts); PGlite always leads. */
  lead(name: string, opts?: LeaderOptions): Promise<Leadership>;
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

/**
 * The file that names the process holding an embedded database open: `DATA_DIR/pglite.owner`.
 * PGlite itself does not stop a second process from opening the same folder (its postmaster.pid
 * is a placeholder), and two processes writing one data directory corrupt it. The server writes
 * this file and removes it on close; offline tools (backup, restore) refuse while it names a live
 * process. The server never refuses because of it: a stale file after a crash, with its process
 * id reused by another program, must not keep the console down.
 */
export const dataDirOwnerFile = (dataDir: string) => path.join(dataDir, 'pglite.owner');

export interface DataDirOwner {
  pid: number;
  host: string;
  since: string;
}

/** The live process (other than this one) holding the embedded database in `dataDir`, if any. */
export function dataDirInUse(dataDir: string): DataDirOwner | undefined {
  let owner: DataDirOwner;
  try {
    owner = JSON.parse(fs.readFileSync(dataDirOwnerFile(dataDir), 'utf8')) as DataDirOwner;
  } catch {
    return undefined;
  }
  if (owner.pid === process.pid && owner.host === os.hostname()) return undefined;
  // Another machine sharing the folder: its process cannot be checked from here.
  if (owner.host !== os.hostname()) return owner;
  try {
    process.kill(owner.pid, 0);
    return owner;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? owner : undefined;
  }
}

function claimDataDir(dataDir: string): () => void {
  const file = dataDirOwnerFile(dataDir);
  const owner: DataDirOwner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  fs.writeFileSync(file, JSON.stringify(owner));
  return () => {
    try {
      const now = JSON.parse(fs.readFileSync(file, 'utf8')) as DataDirOwner;
      if (now.pid === owner.pid && now.since === owner.since) fs.rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

const committedMigrations = path.join(import.meta.dirname, 'migrations');

/** The migrated PGlite data directory that scripts/build-server.mjs writes beside the compiled server. */
export const PGLITE_TEMPLATE = 'pglite-template.tar.gz';

/**
 * PGlite's shared_buffers. initdb writes PostgreSQL's 128MB, and PGlite's WebAssembly memory is
 * touched for all of it at start: 130 MB of the embedded server's resident memory went to buffers
 * for a database of 44 MB with the demo fleet (bench/README.md "Production start"). The data
 * files are real files: what does not fit is read from the operating system's page cache.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/** The default statement_timeout of the console's connections (DATABASE_STATEMENT_TIMEOUT). */
export const STATEMENT_TIMEOUT_MS = 30_000;
/** Connections heavy reads run on beside the pool of 10 (HEAVY_READS_TOTAL). */
export const HEAVY_CONNECTIONS = 4;
/**
 * The statement limit of work the console itself starts and nobody waits for in a request:
 * imports (up to 100,000 rows in one transaction), history rollups (a whole day of the fleet).
 */
export const JOB_STATEMENT_TIMEOUT_MS = 15 * 60_000;

/** Lifts the transaction `tx` to the jobs' statement limit (`SET LOCAL`: it ends with `tx`). */
export async function allowLongWork(tx: Tx): Promise<void> {
  await tx.execute(sql.raw(`set local statement_timeout = ${JOB_STATEMENT_TIMEOUT_MS}`));
}

/** The database answers a trivial statement (the readiness probe). */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** Set while a heavy read runs (`inHeavyScope`): its caller's signal, aborted when the caller leaves. */
const heavyScope = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `fn` as a heavy read: on PostgreSQL its statements take connections of the heavy pool
 * (never the pool ordinary requests use), and when `signal` aborts the statement running on
 * each of them is cancelled. On PGlite (one connection, in this thread) only the caller's
 * limits apply (lib/heavy-reads.ts).
 */
export function inHeavyScope<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  return heavyScope.run(signal, fn);
}

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
  /**
   * PostgreSQL's statement_timeout on the console's connections, in ms (0: none); default
   * STATEMENT_TIMEOUT_MS. Migrations run without it, jobs lift it (`allowLongWork`).
   */
  statementTimeoutMs?: number;
  /** The heavy pool's size (HEAVY_CONNECTIONS by default). */
  heavyConnections?: number;
  /**
   * PGlite only: a data directory (`dumpDataDir`) to start from instead of an empty one. Tests
   * load one migrated once per run (test/db-template.ts); migrations still run, from where it ends.
   */
  template?: Blob;
  /**
   * PGlite in a folder only: a file holding such a dump (gzipped), unpacked into the folder when it
   * holds no database yet (`unpackDataDir`, streaming). The compiled server ships one migrated at
   * build time (scripts/build-server.mjs): PGlite's own first start of a cluster costs several
   * times more than unpacking one.
   */
  templateFile?: string;
}): Promise<Database> {
  const migrationsFolder = opts.migrationsFolder ?? committedMigrations;
  if (opts.databaseUrl) {
    // Loaded only in PostgreSQL mode (the pg driver is not needed by an embedded console).
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(opts.databaseUrl, { ...opts, migrationsFolder }, heavyScope);
  }
  const dir = opts.dataDir ?? 'memory://';
  let client: PGlite;
  let release = () => {};
  // The same extensions the migrations create on PostgreSQL.
  const extensions = { pg_trgm };
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  if (dir.startsWith('memory://')) {
    client = new PGlite(dir, { extensions, loadDataDir: opts.template, startParams });
  } else {
    const pgDir = path.join(dir, 'pglite');
    fs.mkdirSync(pgDir, { recursive: true });
    release = claimDataDir(dir);
    const fresh = !fs.existsSync(path.join(pgDir, 'PG_VERSION'));
    if (fresh && opts.templateFile && fs.existsSync(opts.templateFile)) {
      try {
        await unpackDataDir(opts.templateFile, pgDir);
      } catch (err) {
        release();
        throw err;
      }
    }
    client = new PGlite(pgDir, { extensions, startParams });
  }
  try {
    await client.waitReady;
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    db,
    engine: 'pglite',
    async close() {
      try {
        await client.close();
      } finally {
        release();
      }
    },
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
    lead: async () => alwaysLeading(),
  };
}
