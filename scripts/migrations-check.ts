/**
 * `npm run check` step: the Drizzle schema (apps/server/src/db/schema) and the committed
 * migrations (apps/server/src/db/migrations) must agree, i.e. `drizzle-kit generate` must have
 * nothing to write. Runs it against a copy of the migrations folder (the real one is never
 * touched) with the project's own drizzle config, only `out` pointing at the copy, and fails when
 * a new migration appears or drizzle-kit does not positively report "No schema changes" (it exits
 * 0 even on errors, and asks questions on a terminal for ambiguous renames).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import drizzleConfig from '../apps/server/drizzle.config.js';

const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'apps/server');
const drizzleKit = path.join(root, 'node_modules/.bin/drizzle-kit');

function sqlFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
}

function main(): number {
  const migrations = path.resolve(serverDir, drizzleConfig.out ?? 'drizzle');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-migrations-'));
  try {
    const copy = path.join(tmp, 'migrations');
    fs.cpSync(migrations, copy, { recursive: true });
    const before = sqlFiles(copy);

    // drizzle-kit prefixes `out` with "./": it must be relative to the folder it runs in.
    const config = path.join(tmp, 'drizzle.config.json');
    fs.writeFileSync(config, JSON.stringify({ ...drizzleConfig, out: path.relative(serverDir, copy) }));
    const run = spawnSync(drizzleKit, ['generate', '--config', config], {
      cwd: serverDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();

    const added = sqlFiles(copy).filter((f) => !before.includes(f));
    if (added.length > 0) {
      console.error('migrations: the schema and the committed migrations disagree; `npm run db:generate` would write:');
      for (const f of added) console.error(`\n-- ${f}\n${fs.readFileSync(path.join(copy, f), 'utf8').trim()}`);
      return 1;
    }
    if (run.error || run.status !== 0 || !/No schema changes/.test(output)) {
      console.error(
        'migrations: could not confirm that the schema and the migrations agree ' +
          '(drizzle-kit failed or wants an answer: run `npm run db:generate`):\n' +
          (run.error ? String(run.error) : output),
      );
      return 1;
    }
    console.log(`migrations: the schema matches the ${before.length} committed migrations`);
    return 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

process.exit(main());
