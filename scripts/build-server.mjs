#!/usr/bin/env node
// Compiles the server to one JavaScript module, apps/server/dist/main.js (issue #37: `npm start`
// runs compiled code, not a TypeScript loader). The workspace packages (@iot/contract,
// @iot/sim-model: TypeScript sources) are bundled in; every other package stays an import of
// node_modules. The files the server reads beside its code at run time are copied next to it:
// the migrations, the captcha's voice clips and the spreadsheet worker's modules.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'apps/server/src');
const out = path.join(root, 'apps/server/dist');

/** Files read at run time relative to the module (see each `import.meta` use in the server). */
const BESIDE = [
  ['db/migrations', 'migrations'],
  ['modules/auth/captcha-voice.json', 'captcha-voice.json'],
  ['lib/sheet.worker.mjs', 'sheet.worker.mjs'],
  ['lib/xlsx-rows.mjs', 'xlsx-rows.mjs'],
  ['lib/xlsx-zip.mjs', 'xlsx-zip.mjs'],
];

/**
 * An embedded database with every migration applied, dumped (db/client.ts PGLITE_TEMPLATE): a new
 * DATA_DIR starts from it instead of PGlite's initdb and the migrations (several seconds less
 * at the first start). The server still runs the migrations after loading it, so a template
 * older than the migrations only costs the missing ones.
 */
async function writeTemplate(file) {
  const db = new PGlite('memory://', { extensions: { pg_trgm } });
  try {
    await migrate(drizzle(db), { migrationsFolder: path.join(src, 'db/migrations') });
    const dump = await db.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
}

export async function buildServer() {
  const started = Date.now();
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(src, 'main.ts')],
    outfile: path.join(out, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          // Bare imports stay imports, but the workspace's own TypeScript packages.
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@iot/') ? undefined : { path: args.path, external: true }));
        },
      },
    ],
  });
  for (const [from, to] of BESIDE) fs.cpSync(path.join(src, from), path.join(out, to), { recursive: true });
  await writeTemplate(path.join(out, 'pglite-template.tar.gz'));
  return Date.now() - started;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ms = await buildServer();
  console.log(`server compiled to apps/server/dist/main.js in ${ms} ms`);
}
