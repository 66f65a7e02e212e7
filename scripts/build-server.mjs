#!/usr/bin/env node
// Compiles the server to JavaScript, apps/server/dist/main.js and its chunks (issue #37: `npm start`
// runs compiled code, not a TypeScript loader). The workspace packages (@iot/contract,
// @iot/sim-model: TypeScript sources) are bundled in; every other package stays an import of
// node_modules. The files the server reads beside its code at run time are copied next to it:
// the migrations, the captcha's voice clips and the spreadsheet worker's modules.
import fs from 'node:fs';
import path from 'node:path';
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

export async function buildServer() {
  const started = Date.now();
  fs.rmSync(out, { recursive: true, force: true });
  const options = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
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
  };
  await build({
    ...options,
    entryPoints: [path.join(src, 'main.ts')],
    outdir: out,
    // Modules the server imports only when configured (db/postgres.ts) become chunks of their
    // own, loaded then; beside main.js, so their `import.meta.dirname` is the same folder.
    splitting: true,
    chunkNames: '[name]-[hash]',
    sourcemap: true,
  });
  for (const [from, to] of BESIDE) fs.cpSync(path.join(src, from), path.join(out, to), { recursive: true });
  // The embedded database template (db/template.ts: migrated and seeded), written by the server's
  // own code compiled for the purpose and removed after.
  const writer = path.join(out, 'template-writer.mjs');
  await build({ ...options, entryPoints: [path.join(src, 'db/template.ts')], outfile: writer });
  try {
    const { writeTemplate } = await import(writer);
    await writeTemplate(path.join(out, 'pglite-template.tar.gz'), path.join(src, 'db/migrations'));
  } finally {
    fs.rmSync(writer, { force: true });
  }
  return Date.now() - started;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ms = await buildServer();
  console.log(`server compiled to apps/server/dist/main.js in ${ms} ms`);
}
