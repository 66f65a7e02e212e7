/**
 * `npm run bench:shape` — the telemetry row shape, measured (docs/ARCHITECTURE.md): one row per
 * message with the values as jsonb (what migration 0008 chose) against one row per value, on
 * PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL; a database created and dropped here).
 * Writes BATCHES batches of 1,000 ten-value messages from 10,000 devices through the same
 * json_to_recordset statement shape the server uses, then reads one parameter of one device over
 * the whole range. Prints write time per batch, messages/s of writing alone, table + index size,
 * and the read time.
 */
import crypto from 'node:crypto';
import pg from 'pg';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 100);
const PER_BATCH = 1000;
const DEVICES = 10_000;
const IDS = ['01111001', '01112001', '02109001', '02110001', '01118001', '01120001', '01117001', '01117002', '01117003', '01117004'];

async function main() {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const name = `iot_shape_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    const day = new Date();
    day.setUTCHours(0, 0, 0, 0);
    const from = day.toISOString();
    const to = new Date(day.getTime() + 86_400_000).toISOString();
    await c.query(`
      create table per_message (device_id int not null, ts timestamptz not null, received_at timestamptz not null default now(), vals jsonb not null) partition by range (ts);
      create table per_message_d partition of per_message for values from ('${from}') to ('${to}');
      create index on per_message (device_id, ts);
      create table per_value (device_id int not null, ts timestamptz not null, received_at timestamptz not null default now(), semaphore_id varchar(32) not null, value jsonb not null) partition by range (ts);
      create table per_value_d partition of per_value for values from ('${from}') to ('${to}');
      create index on per_value (device_id, semaphore_id, ts);`);
    const start = day.getTime() + 3_600_000;
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      Array.from({ length: PER_BATCH }, (_, i) => {
        const n = b * PER_BATCH + i;
        return {
          device_id: n % DEVICES,
          ts: new Date(start + n * 2).toISOString(),
          vals: Object.fromEntries(IDS.map((id, k) => [id, Math.round((50 + 10 * Math.sin(n + k)) * 100) / 100])),
        };
      }),
    );
    const run = async (label: string, write: (rows: (typeof batches)[number]) => Promise<unknown>, table: string, read: string) => {
      const t0 = performance.now();
      for (const rows of batches) await write(rows);
      const ms = performance.now() - t0;
      await c.query(`analyze ${table}_d`);
      const size = (await c.query(`select pg_total_relation_size('${table}_d') as b`)).rows[0].b as string;
      const r0 = performance.now();
      const got = await c.query(read, [42]);
      const readMs = performance.now() - r0;
      console.log(
        `${label.padEnd(34)} ${(ms / BATCHES).toFixed(1).padStart(6)} ms/batch  ${Math.round((BATCHES * PER_BATCH) / (ms / 1000)).toLocaleString('en-US').padStart(7)} msg/s written  ` +
          `${(Number(size) / 1048576).toFixed(1).padStart(6)} MiB  one parameter of one device: ${got.rowCount} points in ${readMs.toFixed(1)} ms`,
      );
    };
    console.log(`telemetry shape: ${BATCHES} batches × ${PER_BATCH} messages × ${IDS.length} values, ${DEVICES} devices, PostgreSQL`);
    await run(
      'one row per message (jsonb vals)',
      (rows) =>
        c.query(
          `insert into per_message (device_id, ts, vals) select x.device_id, x.ts, x.vals
           from json_to_recordset($1::json) as x(device_id int, ts timestamptz, vals jsonb)`,
          [JSON.stringify(rows)],
        ),
      'per_message',
      `select ts, vals->'02109001' as v from per_message where device_id = $1 and vals ? '02109001' order by ts`,
    );
    await run(
      'one row per value',
      (rows) =>
        c.query(
          `insert into per_value (device_id, ts, semaphore_id, value) select x.device_id, x.ts, x.semaphore_id, x.value
           from json_to_recordset($1::json) as x(device_id int, ts timestamptz, semaphore_id text, value jsonb)`,
          [JSON.stringify(rows.flatMap((r) => Object.entries(r.vals).map(([k, v]) => ({ device_id: r.device_id, ts: r.ts, semaphore_id: k, value: v }))))],
        ),
      'per_value',
      `select ts, value as v from per_value where device_id = $1 and semaphore_id = '02109001' order by ts`,
    );
  } finally {
    await c.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
