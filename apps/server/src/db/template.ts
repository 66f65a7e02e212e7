import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Db } from './client.js';
import * as schema from './schema/index.js';
import { seedTemplate } from './seed/index.js';

/**
 * Writes the compiled server's embedded database template (client.ts PGLITE_TEMPLATE; run by
 * scripts/build-server.mjs): every migration applied and the seed but the super administrator,
 * dumped gzipped. A new DATA_DIR starts from it instead of PGlite's initdb, the migrations and the
 * first seed; the server still runs both, which then only check it.
 */
export async function writeTemplate(file: string, migrationsFolder: string): Promise<void> {
  const client = new PGlite('memory://', { extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder });
    await seedTemplate(drizzle(client, { schema }) as unknown as Db);
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}
