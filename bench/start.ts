/**
 * The production start (issue #37, decision 0036): how long the server takes until `/readyz`
 * answers, on an empty embedded database and on an existing one, and its resident memory once
 * the demo fleet runs. Measured in one run, each beside the others on the same machine:
 *
 *   1. the compiled server (`npm run build`) on an empty DATA_DIR: loads the migrated template;
 *   2. the server from its sources through tsx on an empty DATA_DIR: initdb and every migration
 *      (how `npm start` ran before);
 *   3. the compiled server again on the database of 1 (a later start; the baseline).
 *
 * Target: a first start ≤ 3 s and idle RSS with the demo fleet ≤ 300 MB.
 *
 * --before DIR: a second compiled server (DIR/apps/server/dist/main.js, e.g. another commit's
 * `git archive` built with scripts/build-server.mjs) is started the same way in each round, first
 * and later start, so a change is measured against its base at the same load.
 * --sources-too off: skips the run from the sources (it takes the longest).
 *
 *   npm run build && npm run bench:start [-- --rounds 3 --idle 20 --before /tmp/base --port 3400]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.js';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(opt('rounds') ?? 1);
const IDLE_S = Number(opt('idle') ?? 20);
const compiled = path.join(root, 'apps/server/dist/main.js');
const before = opt('before') ? path.join(path.resolve(opt('before')!), 'apps/server/dist/main.js') : undefined;
const SOURCES = opt('sources-too') !== 'off';
/** --port P: the servers listen on P (HTTP) and P + 1 (MQTT) instead of free ports (a shared machine's range). */
const PORT = opt('port') ? Number(opt('port')) : undefined;
if (!fs.existsSync(compiled)) throw new Error('apps/server/dist/main.js is missing: npm run build first');

/** Starts the server, waits for /readyz, optionally reads its RSS after `idleS`, stops it. */
async function start(label: string, args: string[], dataDir: string, idleS = 0) {
  const port = PORT ?? (await freePort());
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', MQTT_PORT: PORT ? String(PORT + 1) : '0', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'Bench-Start-2026!' },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label}: the server exited (${child.exitCode}): ${stderr.slice(0, 500)}`);
    if (Date.now() > deadline) throw new Error(`${label}: not ready within 120 s`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyMs = performance.now() - t0;
  let rssMb: number | undefined;
  if (idleS > 0) {
    await new Promise((r) => setTimeout(r, idleS * 1000));
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
  return { readyMs, rssMb };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`production start, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (let round = 1; round <= ROUNDS; round++) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  try {
    if (before) {
      const l0 = os.loadavg()[0]!;
      const bFirst = await start('before, empty', ['--enable-source-maps', before], path.join(base, 'c'), IDLE_S);
      const bLater = await start('before, existing', ['--enable-source-maps', before], path.join(base, 'c'));
      console.log(
        `round ${round}: BEFORE (${opt('before')}): first start ${fmt(bFirst.readyMs)}, later start ${fmt(bLater.readyMs)}; ` +
          `RSS after ${IDLE_S} s with the demo fleet ${bFirst.rssMb?.toFixed(0)} MB; load ${l0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
    const l0 = os.loadavg()[0]!;
    const first = await start('compiled, empty', ['--enable-source-maps', compiled], path.join(base, 'a'), IDLE_S);
    const sources = SOURCES ? await start('sources, empty', ['--import', 'tsx', 'apps/server/src/main.ts'], path.join(base, 'b')) : undefined;
    const later = await start('compiled, existing', ['--enable-source-maps', compiled], path.join(base, 'a'));
    console.log(
      `round ${round}: first start compiled ${fmt(first.readyMs)} (${(first.readyMs / later.readyMs).toFixed(1)}× a later start), ` +
        (sources ? `from sources ${fmt(sources.readyMs)} (${(sources.readyMs / later.readyMs).toFixed(1)}×), ` : '') +
        `later start ${fmt(later.readyMs)}; ` +
        `RSS after ${IDLE_S} s with the demo fleet ${first.rssMb?.toFixed(0)} MB; load ${l0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
console.log('targets: first start ≤ 3 s, idle RSS ≤ 300 MB');
