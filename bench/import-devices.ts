/**
 * Bulk import benchmark: 10,000 device rows in one .xlsx through POST /api/v1/device/import
 * (parse, validate every row, check SNs, insert), on PostgreSQL (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL) and on embedded PGlite. Target: under 10 s on PostgreSQL.
 *
 *   npm run bench            # prints one line per engine
 */
import crypto from 'node:crypto';
import type { Database } from '../apps/server/src/db/client.js';
import { onEachEngine, startApp } from './engines.js';
import { writeSheet } from '../apps/server/src/lib/sheet.js';
import { DEVICE_SHEET_COLUMNS } from '../packages/contract/src/index.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);

function sheet(): Buffer {
  const rows: unknown[][] = [DEVICE_SHEET_COLUMNS.map((c) => c.en)];
  for (let i = 0; i < ROWS; i++) {
    rows.push([`Pack ${i}`, `BENCH-${String(i).padStart(6, '0')}`, 'BMU', 'Bench project', `Bay ${i % 50}`, 121 + (i % 100) / 100, 31 + (i % 100) / 100,
      '+86 138 0000 0000', i % 5, `BT${i}`, 'EC20', 'HW3', `8986${String(i).padStart(16, '0')}`, `86${String(i).padStart(13, '0')}`, 'LFP-48V', '', '']);
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

async function run(label: string, database: Database, file: Buffer) {
  const { app, auth } = await startApp(database);
  await app.inject({ method: 'POST', url: '/api/v1/project/addproject', headers: auth, payload: { name: 'Bench project' } });
  const body = multipart(file);
  const t0 = performance.now();
  const res = await app.inject({ method: 'POST', url: '/api/v1/device/import?mode=all', headers: { ...auth, ...body.headers }, payload: body.payload });
  const ms = performance.now() - t0;
  const report = res.json().data;
  const t1 = performance.now();
  const list = await app.inject({ method: 'GET', url: '/api/v1/device/list?q=BENCH-00999&limit=20', headers: auth });
  const listMs = performance.now() - t1;
  console.log(
    `${label.padEnd(10)} import ${report.imported}/${ROWS} rows in ${(ms / 1000).toFixed(2)} s ` +
      `(${Math.round(ROWS / (ms / 1000))} rows/s, ${report.errors.length} errors); ` +
      `filtered list over ${list.json().data.total} matches in ${listMs.toFixed(0)} ms`,
  );
  await app.close();
}

async function main() {
  const t0 = performance.now();
  const file = sheet();
  console.log(`built a ${ROWS}-row sheet (${(file.length / 1024).toFixed(0)} KiB) in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

  await onEachEngine((label, database) => run(label, database, file));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
