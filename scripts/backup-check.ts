/**
 * `npm run test:backup [-- --mode pglite|postgres]`: proves that a backup restores the console.
 * For each mode it starts the real server on a fresh database, creates data through the API
 * (users, a project, devices, telemetry, an alarm, firmware images), stops it, runs
 * `npm run backup`, wipes everything (a new empty database, an empty DATA_DIR), runs
 * `npm run restore` and compares: the row count of every table, the SHA-256 of every firmware
 * file, and, with the server started again, a login, the device list, the alarm list and a
 * device's firmware download.
 *
 * PGlite always; PostgreSQL when TEST_DATABASE_URL (or, without it, the local
 * postgres://postgres@127.0.0.1:5432/postgres) answers: a database of its own, dropped at the end.
 * Exit 0 when every comparison holds, 1 otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { firmwareDownloadPath } from '@iot/contract';
import { openDatabase } from '../apps/server/src/db/client.js';
import { freePort } from './free-port.js';

const root = path.resolve(import.meta.dirname, '..');
const ADMIN = { username: 'admin', password: 'backup-admin-1' };
const AGENT = { username: 'backup-agent', password: 'backup-agent-1' };
const DEVICES = ['BK-0001', 'BK-0002', 'BK-0003'];

class CheckFailed extends Error {}
const fail = (msg: string): never => {
  throw new CheckFailed(msg);
};
const log = (msg: string) => console.log(`  ${msg}`);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Target {
  mode: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  env: NodeJS.ProcessEnv;
}

/** Runs a script of this repository with the target's environment: exit code and output. */
function runScript(t: Target, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: t.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The real server (apps/server/src/main.ts) on a port of its own; answers once /healthz does. */
async function startServer(t: Target): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...t.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) fail(`the server exited at start:\n${output}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      fail(`the server did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) fail(`the server stopped with exit code ${code}:\n${output}`);
    },
  };
}

interface Envelope {
  code: number;
  message: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function client(base: string) {
  let token = '';
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const json = (await res.json()) as Envelope;
    if (json.code !== 20000) fail(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    call,
    async login(who: { username: string; password: string }) {
      token = '';
      token = ((await call('POST', '/user/login', who)) as { token: string }).token;
    },
  };
}

const basic = (sn: string, secret: string) => `Basic ${Buffer.from(`${sn}:${secret}`).toString('base64')}`;

/** What the check creates, to look for after the restore. */
interface Created {
  versionId: number;
  image: Buffer;
  device: { sn: string; secret: string };
}

async function createData(base: string): Promise<Created> {
  const api = client(base);
  await api.login(ADMIN);
  const roles = (await api.call('GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
  const roleId = roles.find((r) => r.identification === 'ADMIN')!.id;
  await api.call('POST', '/user/add', { ...AGENT, type: 1, roleId });
  await api.login(AGENT);
  await api.call('POST', '/user/add', { username: 'backup-sub', password: 'backup-sub-1', type: 1, roleId });
  const projectId = (await api.call('POST', '/project/addproject', { name: 'Backup yard' })).id as number;
  const types = (await api.call('GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
  const typeId = types.find((x) => x.code === 'BMU')!.id;
  const devices: { sn: string; secret: string }[] = [];
  for (const sn of DEVICES) {
    const d = await api.call('POST', '/device/add', { name: `Rack ${sn}`, sn, typeId, projectId });
    devices.push({ sn, secret: d.secret as string });
  }
  const now = Date.now();
  for (const d of devices) {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/api/v1/ingest/telemetry`, {
        method: 'POST',
        headers: { authorization: basic(d.sn, d.secret), 'content-type': 'application/json' },
        body: JSON.stringify({ ts: now - (5 - i) * 60_000, values: { '02109001': 40 + i, '01111001': 48.5 } }),
      });
      if (!res.ok) fail(`telemetry of ${d.sn}: ${res.status} ${await res.text()}`);
    }
  }
  const alarm = await fetch(`${base}/api/v1/ingest/alarm`, {
    method: 'POST',
    headers: { authorization: basic(devices[0]!.sn, devices[0]!.secret), 'content-type': 'application/json' },
    body: JSON.stringify({ ts: now - 1000, id: '01111001', flag: 1, value: 61, level: 3 }),
  });
  if (!alarm.ok) fail(`alarm of ${devices[0]!.sn}: ${alarm.status} ${await alarm.text()}`);

  // Two images: one a version took, one only uploaded (both are files in DATA_DIR/firmware).
  const upload = async (data: Buffer, name: string) => {
    const form = new FormData();
    form.append('file', new Blob([data]), name);
    return (await api.call('POST', '/upgrade/upload', form)) as { fileKey: string };
  };
  const image = randomBytes(256 * 1024);
  const up = await upload(image, 'bmu-2.0.0.bin');
  await upload(randomBytes(10_000), 'bmu-2.0.1-rc.bin');
  const versionId = (await api.call('POST', '/upgrade/add', { name: 'BMU 2.0', manufacturer: 'Acme', module: 'BMS', softwareVersion: '2.0.0', info: 'backup check', fileKey: up.fileKey })).id as number;
  const alarms = (await api.call('GET', '/device/alarmlist?limit=10')).total as number;
  if (alarms < 1) fail('the alarm sent before the backup is not listed');
  return { versionId, image, device: devices[0]! };
}

/** Row counts of every table (the console's and the migrations' own) and the firmware files' hashes. */
async function snapshot(t: Target): Promise<{ tables: Record<string, number>; contents: Record<string, string>; firmware: Record<string, string> }> {
  const database = await openDatabase({ databaseUrl: t.databaseUrl, dataDir: t.dataDir });
  const tables: Record<string, number> = {};
  const contents: Record<string, string> = {};
  try {
    const exec = async <R>(q: string) => ((await database.db.execute(q as never)) as unknown as { rows: R[] }).rows;
    const names = await exec<{ s: string; t: string }>(
      `select schemaname as s, tablename as t from pg_tables where schemaname in ('public', 'drizzle') order by 1, 2`,
    );
    for (const { s, t: name } of names) {
      // `only`: a partitioned table's rows are counted once, in their day's partition.
      const [row] = await exec<{ n: number; h: string }>(
        `select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from only "${s}"."${name}" x`,
      );
      tables[`${s}.${name}`] = row!.n;
      // Beyond the counts: every row's text, so a restore that changed a value would show.
      contents[`${s}.${name}`] = row!.h;
    }
  } finally {
    await database.close();
  }
  const dir = path.join(t.dataDir, 'firmware');
  const firmware: Record<string, string> = {};
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) firmware[f] = sha(fs.readFileSync(path.join(dir, f)));
  return { tables, contents, firmware };
}

function compare(what: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const diff = keys.filter((k) => before[k] !== after[k]).map((k) => `${k}: ${String(before[k])} before, ${String(after[k])} after`);
  if (diff.length > 0) fail(`${what} differ after the restore:\n    ${diff.join('\n    ')}`);
}

async function checkMode(t: Target, wipe: () => Promise<void>): Promise<{ backupMs: number; restoreMs: number; size: number }> {
  let server = await startServer(t);
  let created: Created;
  try {
    created = await createData(server.base);
    log('data created through the API (users, project, 3 devices, 15 samples, an alarm, 2 firmware images)');
    if (t.mode === 'pglite') {
      const refused = await runScript(t, ['scripts/backup.ts', 'backup', '--out', path.join(t.dataDir, '..', 'refused.tar.gz')]);
      if (refused.code !== 1 || !refused.output.includes('stop the console first')) fail(`a backup while the server runs was not refused:\n${refused.output}`);
      log('a backup while the server has the embedded database open is refused');
    }
  } finally {
    await server.stop();
  }
  const before = await snapshot(t);
  const rows = Object.values(before.tables).reduce((a, b) => a + b, 0);
  // The comparison is worth something only if the data made it into the tables.
  const count = (prefix: string) => Object.entries(before.tables).filter(([k]) => k === `public.${prefix}` || k.startsWith(`public.${prefix}_p`)).reduce((a, [, n]) => a + n, 0);
  const expected = { users: 3, projects: 1, devices: 3, telemetry: 15, alarms: 1, firmware_versions: 1, operation_logs: 1 };
  for (const [table, min] of Object.entries(expected)) if (count(table) < min) fail(`${table} holds ${count(table)} rows before the backup, expected at least ${min}`);
  log(`${Object.keys(before.tables).length} tables, ${rows} rows, ${Object.keys(before.firmware).length} firmware files`);

  const archive = path.join(path.dirname(t.dataDir), `backup-${t.mode}.tar.gz`);
  let started = Date.now();
  const b = await runScript(t, ['scripts/backup.ts', 'backup', '--out', archive]);
  const backupMs = Date.now() - started;
  if (b.code !== 0) fail(`npm run backup failed:\n${b.output}`);
  const again = await runScript(t, ['scripts/backup.ts', 'backup', '--out', archive]);
  if (again.code !== 1 || !again.output.includes('--force')) fail(`an existing archive was not protected:\n${again.output}`);
  const size = fs.statSync(archive).size;
  log(`backup: ${(size / 1024 / 1024).toFixed(1)} MB in ${(backupMs / 1000).toFixed(1)} s`);

  await wipe();
  fs.rmSync(t.dataDir, { recursive: true, force: true });
  fs.mkdirSync(t.dataDir);
  log('wiped: an empty database and DATA_DIR');

  // A cut-off archive is refused before anything is put in place.
  const cut = `${archive}.cut.tar.gz`;
  fs.writeFileSync(cut, fs.readFileSync(archive).subarray(0, Math.floor(size * 0.6)));
  const damaged = await runScript(t, ['scripts/backup.ts', 'restore', cut]);
  if (damaged.code !== 1) fail(`a cut-off archive was restored:\n${damaged.output}`);
  if (fs.readdirSync(t.dataDir).length > 0) fail(`a refused restore left ${fs.readdirSync(t.dataDir).join(', ')} in DATA_DIR`);
  log('a cut-off archive is refused and leaves DATA_DIR empty');

  started = Date.now();
  const r = await runScript(t, ['scripts/backup.ts', 'restore', archive]);
  const restoreMs = Date.now() - started;
  if (r.code !== 0) fail(`npm run restore failed:\n${r.output}`);
  log(`restore: ${(restoreMs / 1000).toFixed(1)} s`);
  const onTop = await runScript(t, ['scripts/backup.ts', 'restore', archive]);
  if (onTop.code !== 1 || !onTop.output.includes('--force')) fail(`a restore over existing data was not refused:\n${onTop.output}`);
  // With --force it replaces them, the previous files set aside rather than deleted.
  const forced = await runScript(t, ['scripts/backup.ts', 'restore', archive, '--force']);
  if (forced.code !== 0) fail(`restore --force failed:\n${forced.output}`);
  const aside = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('replaced-'));
  if (aside.length !== 1 || !fs.readdirSync(path.join(t.dataDir, aside[0]!)).includes('firmware')) fail(`restore --force did not set the previous files aside: ${fs.readdirSync(t.dataDir).join(', ')}`);
  fs.rmSync(path.join(t.dataDir, aside[0]!), { recursive: true });
  log('a restore over data is refused, and with --force sets the previous files aside');

  const after = await snapshot(t);
  compare('row counts', before.tables, after.tables);
  compare('table contents', before.contents, after.contents);
  compare('firmware files', before.firmware, after.firmware);
  log('every table has its rows (same count, same contents) and every firmware file its SHA-256');

  server = await startServer(t);
  try {
    const api = client(server.base);
    await api.login(AGENT);
    const devices = (await api.call('GET', '/device/list?limit=50')) as { total: number; items: { sn: string }[] };
    const sns = devices.items.map((d) => d.sn).sort();
    if (sns.join() !== DEVICES.join()) fail(`the device list answers ${sns.join()} instead of ${DEVICES.join()}`);
    const alarms = (await api.call('GET', '/device/alarmlist?limit=10')) as { total: number };
    if (alarms.total < 1) fail('the alarm is not listed after the restore');
    const dl = await fetch(`${server.base}${firmwareDownloadPath(created.versionId)}`, { headers: { authorization: basic(created.device.sn, created.device.secret) } });
    if (!dl.ok) fail(`the firmware download answers ${dl.status}`);
    if (sha(Buffer.from(await dl.arrayBuffer())) !== sha(created.image)) fail('the downloaded firmware image differs from the one uploaded');
    await api.login(ADMIN);
    log('the restored server logs in, lists the devices and the alarm, and serves the firmware image');
  } finally {
    await server.stop();
  }
  return { backupMs, restoreMs, size };
}

function baseEnv(dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    CAPTCHA: 'off',
    DEMO: 'off',
    LOG_LEVEL: 'warn',
    MQTT_PORT: '0',
    API_RATE_LIMIT: '0',
    LOGIN_LOCKOUT: 'off',
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const arg = process.argv.indexOf('--mode');
  const only = arg > 0 ? process.argv[arg + 1] : undefined;
  if (only && only !== 'pglite' && only !== 'postgres') {
    console.error('usage: npm run test:backup [-- --mode pglite|postgres]');
    process.exit(2);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-backup-check-'));
  const results: string[] = [];
  try {
    if (only !== 'postgres') {
      console.log('PGlite (embedded):');
      const dataDir = path.join(work, 'pglite-data');
      fs.mkdirSync(dataDir);
      const r = await checkMode({ mode: 'pglite', dataDir, env: baseEnv(dataDir) }, async () => {});
      results.push(`PGlite: backup ${(r.backupMs / 1000).toFixed(1)} s, restore ${(r.restoreMs / 1000).toFixed(1)} s, archive ${(r.size / 1024 / 1024).toFixed(1)} MB`);
    }
    if (only !== 'pglite') {
      const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
      if (!(await reachable(admin))) {
        if (only === 'postgres') fail(`PostgreSQL at ${admin} does not answer`);
        console.log(`PostgreSQL: skipped (${admin} does not answer; set TEST_DATABASE_URL)`);
      } else {
        console.log('PostgreSQL:');
        const name = `iot_backup_check_${randomBytes(5).toString('hex')}`;
        const sql = async (q: string) => {
          const c = new pg.Client({ connectionString: admin });
          await c.connect();
          try {
            await c.query(q);
          } finally {
            await c.end();
          }
        };
        await sql(`create database ${name}`);
        const url = new URL(admin);
        url.pathname = `/${name}`;
        const dataDir = path.join(work, 'postgres-data');
        fs.mkdirSync(dataDir);
        try {
          const r = await checkMode({ mode: 'postgres', dataDir, databaseUrl: url.toString(), env: baseEnv(dataDir, url.toString()) }, async () => {
            await sql(`drop database ${name} with (force)`);
            await sql(`create database ${name}`);
          });
          results.push(`PostgreSQL: backup ${(r.backupMs / 1000).toFixed(1)} s, restore ${(r.restoreMs / 1000).toFixed(1)} s, archive ${(r.size / 1024 / 1024).toFixed(1)} MB`);
        } finally {
          await sql(`drop database if exists ${name} with (force)`);
        }
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(`backup check passed. ${results.join('; ')}`);
}

main().catch((err: unknown) => {
  console.error(`backup check FAILED: ${err instanceof CheckFailed ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
