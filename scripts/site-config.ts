/**
 * `npm run site:config -- '<json>'`: stores fields of the site configuration (§1: titles, company,
 * contact details, login colours; contract `siteConfigSchema`) in the database the server opens
 * with the same environment (DATABASE_URL, or PGlite in DATA_DIR), creating and migrating it when
 * new (the super administrator edits them in the console too: System → Site settings). Fields
 * not given keep their stored value or default.
 * On PGlite, run it while the server is stopped: one process opens a DATA_DIR at a time.
 *
 *   npm run site:config -- '{"contactTel":"+86 21 5555 0100","email":"support@example.com"}'
 */
import { siteConfigSchema } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';

const arg = process.argv[2];
if (!arg) {
  console.error(`usage: npm run site:config -- '{"contactTel":"…"}' (fields: ${Object.keys(siteConfigSchema.shape).join(', ')})`);
  process.exit(2);
}
const fields = siteConfigSchema.partial().strict().safeParse(JSON.parse(arg));
if (!fields.success) {
  console.error(`site:config: ${fields.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}`);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  // Merged into the stored row (the server's seed adds the row only when it is missing).
  const data = JSON.stringify(fields.data);
  await database.db.execute(sql`insert into site_config (id, data) values (1, ${data}::jsonb)
    on conflict (id) do update set data = site_config.data || excluded.data, updated_at = now()`);
} finally {
  await database.close();
}
console.log(`site:config: stored ${Object.keys(fields.data).join(', ') || 'nothing'}`);
