/**
 * Bulk import benchmark: one .xlsx of device rows through POST /api/v1/device/import (parse off
 * the event loop, validate every row, check SNs, insert), on PostgreSQL (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL) and on embedded PGlite, over real HTTP. While the import runs, autocannon
 * keeps calling `GET /config` and the device list (4 connections each), and their latency is
 * printed beside the same calls measured just before on the idle server (the baseline).
 *
 *   npm run bench                          # 10,000 rows
 *   npm run bench -- --rows 100000 --postgres-only   # the largest sheet PostgreSQL takes
 *   npm run bench -- --rows 20000          # the largest sheet the embedded PGlite takes
 *   npm run bench -- --rows 100000 --any-size         # PGlite too, over its limit
 *
 * Targets (issue #14): 100,000 rows in under 10 s on PostgreSQL, other requests' p99 under 200 ms
 * meanwhile.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import type { Database } from '../apps/server/src/db/client.js';
import { onEachEngine, startApp } from './engines.js';
import { writeSheet } from '../apps/server/src/lib/sheet.js';
import { DEVICE_SHEET_COLUMNS, IMPORT_MAX_ROWS, IMPORT_MAX_ROWS_EMBEDDED } from '../packages/contract/src/index.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const ROWS = Number(opt('rows') ?? process.env.BENCH_ROWS ?? 10_000);
const POSTGRES_ONLY = argv.includes('--postgres-only');
/** Connections per concurrent call during the import. */
const CONNECTIONS = 4;
const BASELINE_S = 5;

async function sheet(prefix: string): Promise<Buffer> {
  const rows: unknown[][] = [DEVICE_SHEET_COLUMNS.map((c) => c.en)];
  for (let i = 0; i < ROWS; i++) {
    const row: Record<string, unknown> = {
      name: `Pack ${i}`, sn: `${prefix}-${String(i).padStart(6, '0')}`, type: 'BMU', project: 'Bench project', address: `Bay ${i % 50}`,
      lng: 121 + (i % 100) / 100, lat: 31 + (i % 100) / 100, alarmPhone: '+86 138 0000 0000', btCode: `BT${i}`, version4g: 'EC20',
      hardwareVersion: 'HW3', simNumber: `8986${String(i).padStart(16, '0')}`, imei: `86${String(i).padStart(13, '0')}`,
      manufacturerModel: 'LFP-48V', remarks: '', description: '',
    };
    rows.push(DEVICE_SHEET_COLUMNS.map((c) => row[c.key] ?? ''));
  }
  return writeSheet('devices', rows);
}

function multipart(data: Buffer) {
  const boundary = `----bench${crypto.randomBytes(6).toString('hex')}`;
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

type Latency = { p50: number; p99: number; max: number; requests: number; non2xx: number };

/** autocannon on one URL until `until` settles (or for `seconds`). */
async function load(url: string, headers: Record<string, string>, until: Promise<unknown> | number): Promise<Latency> {
  // Without a callback autocannon returns its instance, which is also a promise of the result.
  const instance = autocannon({ url, connections: CONNECTIONS, headers, duration: typeof until === 'number' ? until : 3600 }) as unknown as
    Promise<autocannon.Result> & { stop(): void };
  if (typeof until !== 'number') void until.finally(() => instance.stop());
  const r = await instance;
  return { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, requests: r.requests.total, non2xx: r.non2xx + r.errors };
}

const fmt = (l: Latency) =>
  `p50 ${String(l.p50).padStart(4)} ms  p99 ${String(l.p99).padStart(4)} ms  max ${String(l.max).padStart(5)} ms  (${l.requests.toLocaleString('en')} requests${l.non2xx ? `, ${l.non2xx} failed` : ''})`;

/** Uploads a sheet; resolves with the answer and the time it took. */
async function upload(base: string, auth: Record<string, string>, file: Buffer) {
  const body = multipart(file);
  const t0 = performance.now();
  const res = await fetch(`${base}/device/import?mode=all`, { method: 'POST', headers: { ...auth, ...body.headers }, body: body.payload });
  const json = (await res.json()) as { code: number; message: string; data: { imported: number; errors: unknown[] } };
  if (json.code !== 20000) throw new Error(`import failed: ${JSON.stringify(json).slice(0, 300)}`);
  return { data: json.data, ms: performance.now() - t0 };
}

const importLine = (label: string, what: string, r: { data: { imported: number; errors: unknown[] }; ms: number }) =>
  console.log(
    `${label.padEnd(10)} ${what.padEnd(14)} ${r.data.imported.toLocaleString('en')}/${ROWS.toLocaleString('en')} rows in ${(r.ms / 1000).toFixed(2)} s ` +
      `(${Math.round(ROWS / (r.ms / 1000)).toLocaleString('en')} rows/s, ${r.data.errors.length} errors)`,
  );

async function run(label: string, database: Database, files: { alone: Buffer; loaded: Buffer }) {
  // The row limit a real deployment of this engine has (100,000 on PostgreSQL, 20,000 on PGlite);
  // `--any-size` lifts it to measure a larger sheet anyway.
  const limit = argv.includes('--any-size') ? IMPORT_MAX_ROWS : label === 'postgres' ? IMPORT_MAX_ROWS : IMPORT_MAX_ROWS_EMBEDDED;
  if (ROWS > limit) {
    console.log(`${label.padEnd(10)} skipped: ${ROWS.toLocaleString('en')} rows are over this engine's import limit (${limit.toLocaleString('en')}; --any-size measures anyway)`);
    return;
  }
  const { app, auth } = await startApp(database, { DEMO: 'off', API_RATE_LIMIT: '0', IMPORT_MAX_ROWS: String(limit) });
  await app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: auth, payload: { name: 'Bench project' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
  const calls = { 'GET /config': `${base}/config`, 'GET /device/list': `${base}/device/list?limit=20` };

  // The import alone, then the same calls on the idle server (the baseline), then a second
  // import (other SNs) while those calls keep coming.
  importLine(label, 'import alone', await upload(base, auth, files.alone));
  const idle: Record<string, Latency> = {};
  for (const [name, url] of Object.entries(calls)) idle[name] = await load(url, auth, BASELINE_S);
  const importing = upload(base, auth, files.loaded);
  const during = await Promise.all(Object.values(calls).map((url) => load(url, auth, importing)));
  importLine(label, 'under load', await importing);
  Object.keys(calls).forEach((name, i) => {
    console.log(`  ${name.padEnd(17)} idle    ${fmt(idle[name]!)}`);
    console.log(`  ${''.padEnd(17)} import  ${fmt(during[i]!)}   p99 ${(during[i]!.p99 / Math.max(idle[name]!.p99, 1)).toFixed(1)}× idle`);
  });
  await app.close();
}

async function main() {
  const t0 = performance.now();
  const files = { alone: await sheet('BENCH'), loaded: await sheet('LOADED') };
  console.log(
    `bench  built two ${ROWS.toLocaleString('en')}-row sheets (${(files.alone.length / 1024).toFixed(0)} KiB each) in ${((performance.now() - t0) / 1000).toFixed(2)} s; ` +
      `${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${CONNECTIONS} connections per concurrent call`,
  );
  await onEachEngine((label, database) => run(label, database, files), { postgresOnly: POSTGRES_ONLY });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
