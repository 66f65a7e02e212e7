/**
 * `npm run bench:redis-bus` — what the Redis fan-out (lib/redis-bus.ts, decision 0035) costs an
 * event: two buses on one channel of the Redis at REDIS_URL (default redis://127.0.0.1:6379), as
 * two instances would be. Prints the emit → other instance delivery latency (p50 / p99 of
 * `--pings` events sent one at a time, default 500) and the throughput of `--events` device
 * values emitted back to back (default 20,000), with the load average.
 *
 *   npm run bench:redis-bus -- --events 20000
 */
import os from 'node:os';
import { Redis } from 'ioredis';
import { createRedisBus } from '../apps/server/src/lib/redis-bus.js';

const argv = process.argv;
const opt = (name: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const URL_ = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PINGS = Number(opt('pings') ?? 500);
const EVENTS = Number(opt('events') ?? 20_000);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
// A typical BMU report's values.
const values = (deviceId: number) => ({ deviceId, ts: new Date().toISOString(), values: { '01111001': 52.4, '02109001': 81, '10000006': 2 } });

async function main() {
  const log = { info() {}, warn() {}, error() {} } as never;
  const channel = `iot-bench:${process.pid}:${Date.now()}`;
  const a = createRedisBus(URL_, log, { channel });
  const b = createRedisBus(URL_, log, { channel });
  const raw = new Redis(URL_);
  for (;;) {
    const [, n] = (await raw.pubsub('NUMSUB', channel)) as [string, number];
    if (Number(n) >= 2) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  let arrived: () => void = () => {};
  let counted = 0;
  b.on('device.values', (p) => {
    if (p.deviceId < 0) arrived();
    else if (++counted === EVENTS) arrived();
  });

  const latency: number[] = [];
  for (let i = 0; i < PINGS; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((r) => {
      arrived = r;
      a.emit('device.values', values(-1));
    });
    latency.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }

  const t1 = process.hrtime.bigint();
  await new Promise<void>((r) => {
    arrived = r;
    for (let i = 0; i < EVENTS; i++) a.emit('device.values', values(i));
  });
  const seconds = Number(process.hrtime.bigint() - t1) / 1e9;

  console.log(
    `redis bus: ${PINGS} events one at a time, emit → other instance p50 ${pct(latency, 50).toFixed(2)} ms, p99 ${pct(latency, 99).toFixed(2)} ms; ` +
      `${EVENTS} back to back: ${Math.round(EVENTS / seconds)} events/s; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  await Promise.all([a.close(), b.close()]);
  raw.disconnect();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
