/**
 * `npm run check`: every check of the repository, two at a time (or `CHECK_JOBS`). One after the
 * other they took about 120 s of a single core; each is CPU-bound and independent of the others,
 * so on a 2-core machine they share both cores (bench/README.md "CI time"). Each check's output is
 * printed whole when it ends, with its time; the exit code is 1 when any failed.
 * `node scripts/check.mjs tsc` runs only the checks whose name starts with `tsc` (`npm run typecheck`).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

const tsc = (project) => ({ name: `tsc -p ${project}`, command: `npx tsc -p ${project} --noEmit` });
/** Longest first, so that the last one to start is a short one. */
const CHECKS = [
  { name: 'eslint', command: 'npx eslint .' },
  tsc('apps/web'),
  tsc('apps/server'),
  { name: 'openapi', command: 'npx tsx scripts/openapi-check.ts' },
  tsc('apps/simulator'),
  tsc('packages/contract'),
  tsc('packages/sim-model'),
  { name: 'migrations', command: 'npx tsx scripts/migrations-check.ts' },
  { name: 'i18n', command: 'node scripts/i18n-check.mjs' },
];

const only = process.argv[2];
const checks = only ? CHECKS.filter((c) => c.name.startsWith(only)) : CHECKS;
const jobs = Math.max(1, Number(process.env.CHECK_JOBS) || Math.min(2, os.availableParallelism()));
const started = Date.now();
const failed = [];
let next = 0;

function run(check) {
  return new Promise((resolve) => {
    const t = Date.now();
    const child = spawn(check.command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      const s = ((Date.now() - t) / 1000).toFixed(1);
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      console.log(`check: ${check.name} ${code === 0 ? 'passed' : 'FAILED'} in ${s} s`);
      if (code !== 0) failed.push(check.name);
      resolve();
    });
  });
}

async function worker() {
  while (next < checks.length) await run(checks[next++]);
}

await Promise.all(Array.from({ length: jobs }, worker));
const total = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length) {
  console.error(`check: ${failed.length} failed (${failed.join(', ')}) in ${total} s`);
  process.exit(1);
}
console.log(`check: all ${checks.length} passed in ${total} s`);
