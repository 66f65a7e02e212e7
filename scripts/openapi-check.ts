/**
 * `npm run check` step: the OpenAPI document at /api/docs/json must stay usable. Builds the app
 * on an in-memory PGlite (as the tests do), validates the document with swagger-parser, generates
 * TypeScript types from it with openapi-typescript into a temporary folder and type-checks them.
 * Exits 1 with the reason when any step fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';

async function documentOfTheApp(): Promise<object> {
  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent-web-dist' });
  const database = await openDatabase({ dataDir: 'memory://' });
  const app = await buildApp(config, { database, logger: false });
  try {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    if (res.statusCode !== 200) throw new Error(`/api/docs/json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    await database.close();
  }
}

/** Type errors of a generated declaration file, as printable lines. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], { noEmit: true, strict: true, skipLibCheck: false, types: [] });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

async function main() {
  const doc = await documentOfTheApp();
  // Both tools resolve and rewrite the object they get: each gets its own copy.
  await SwaggerParser.validate(structuredClone(doc) as never);

  const types = astToString(await openapiTS(structuredClone(doc) as never, { silent: true }));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-openapi-'));
  try {
    const file = path.join(dir, 'api.d.ts');
    fs.writeFileSync(file, types);
    const errors = typeErrors(file);
    if (errors.length > 0) throw new Error(`the generated types do not compile:\n${errors.join('\n')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const { paths = {}, components = {} } = doc as { paths?: object; components?: { schemas?: object } };
  console.log(
    `openapi: valid, ${Object.keys(paths).length} paths, ${Object.keys(components.schemas ?? {}).length} named schemas; ` +
      `generated types compile (${types.split('\n').length} lines)`,
  );
}

main().catch((err: unknown) => {
  console.error(`openapi: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
