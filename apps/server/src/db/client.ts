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
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');

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
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      options: `-c max_parallel_workers_per_gather=${opts.parallelWorkers ?? 0}`,
    });
    // An idle client error (server restart) must not crash the process; the pool reconnects.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool), { migrationsFolder });
    return { db, engine: 'postgres', close: () => pool.end() };
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
  return { db, engine: 'pglite', close: () => client.close() };
}
