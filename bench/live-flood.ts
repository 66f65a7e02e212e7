/**
 * Live-channel flood (issue #32 part 2): one signed-in socket sends 2,000 follow requests of 100
 * devices each while four loops call `GET /config` over real HTTP; prints /config p50/p99/max
 * beside the same loops on the idle server, and the visibility lookups the flood cost.
 * Target: /config p99 < 200 ms during the flood.
 *
 *   npx tsx bench/live-flood.ts      # PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL), then PGlite
 */
import WebSocket from 'ws';
import { LiveType } from '@iot/contract';
import { onEachEngine, startApp } from './engines.js';

const REQUESTS = 2000;
const DEVICES = 300;
const IDLE_MS = 3000;

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return `p50 ${at(0.5).toFixed(0).padStart(4)} ms  p99 ${at(0.99).toFixed(0).padStart(4)} ms  max ${s.at(-1)!.toFixed(0).padStart(5)} ms  (${s.length} requests)`;
}

/** Four loops calling GET /config until `stop()` resolves; their latencies. */
async function configLoad(base: string, stop: Promise<void>) {
  const ms: number[] = [];
  let done = false;
  void stop.then(() => (done = true));
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!done) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/v1/config`);
        await res.arrayBuffer();
        ms.push(performance.now() - t0);
      }
    }),
  );
  return ms;
}

await onEachEngine(async (label, database) => {
  const { app, auth } = await startApp(database, { API_RATE_LIMIT: '0' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;
  try {
    const types = (await app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: auth })).json().data as { id: number; code: string }[];
    const typeId = types.find((t) => t.code === 'BMU')!.id;
    const ids: number[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const r = await app.inject({ method: 'POST', url: '/api/v1/device/add', headers: auth, payload: { name: `F${i}`, sn: `FLOOD-${i}`, typeId } });
      ids.push(r.json().data.id);
    }

    const idle = await configLoad(base, new Promise((r) => setTimeout(r, IDLE_MS)));

    const token = auth.authorization.slice('Bearer '.length);
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
    await new Promise<void>((r) => ws.once('open', () => r()));
    const last = ids.slice(DEVICES - 100);
    const finished = new Promise<void>((resolve) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        if (m.type === LiveType.LOGIN_OK) {
          for (let i = 0; i < REQUESTS - 1; i++) {
            const from = (i * 7) % (DEVICES - 100);
            ws.send(JSON.stringify({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: ids.slice(from, from + 100) }));
          }
          ws.send(JSON.stringify({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: last }));
        }
        if (m.type === LiveType.DEVICES_SUBSCRIBED && [...m.deviceIds].sort().join() === [...last].sort().join()) resolve();
      });
    });
    const before = app.realtime.queries().follow;
    const started = performance.now();
    const load = configLoad(base, finished.then(() => new Promise((r) => setTimeout(r, 500))));
    ws.send(JSON.stringify({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() }));
    await finished;
    const floodMs = performance.now() - started;
    const flood = await load;
    ws.close();

    console.log(`${label.padEnd(9)}  ${REQUESTS} follow requests of 100 devices on one socket: last one followed after ${floodMs.toFixed(0)} ms, ${app.realtime.queries().follow - before} lookups`);
    console.log(`  GET /config  idle   ${stats(idle)}`);
    console.log(`               flood  ${stats(flood)}`);
  } finally {
    await app.close();
  }
});
