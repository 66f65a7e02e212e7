/**
 * `npm run bench:ingest -- [--devices N] [--rate R] [--seconds S] [--batch K] [--burst] [--rules N] [--instances N [--broker URL]]`
 *
 * N devices publish 10-parameter telemetry at R messages/s in total (QoS 1) for S seconds:
 *   1. against a bare Aedes broker with nothing attached (the baseline, same library, same load);
 *   2. against the real server (a separate process running main.ts, as `npm start` does) on
 *      PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL, a database created and dropped here),
 *      or PGlite with --pglite.
 * Prints sustained messages/s and datapoints/s (a message counts once its PUBACK arrived: the
 * server acknowledges after the commit), publish→PUBACK latency (= broker→commit), publish→
 * WebSocket latency for 200 followed devices, the server's peak RSS, and the ratio to the raw
 * broker. --burst adds a run at 3×R for 60 s and checks that every acknowledged message is stored.
 * --rules N: the same server and fleet run twice, first with no alarm rules on the device type,
 * then with N rules on the parameters the devices send (some breach and recover as the values
 * swing, so alarms start and end during the run); prints both rates, their ratio and the load
 * average (target: with rules ≥ 0.9× without).
 * --batch K: each message carries K samples (`[{ts, values}, …]`, protocol 1.1 batches), so the
 * figures are messages/s and K × 10 values per message; the target is ≥ 200,000 values/s.
 * At saturation (`--rate 20000`) the target is ≥ 0.5× the raw broker's rate in the same run.
 * --instances N (issue #37): N compiled servers over PostgreSQL, Redis and an external Mosquitto
 * (shared subscription) against one instance in the same run; see clusterMain. Target: the
 * fan-out costs under 20 % of one instance's throughput; nothing acknowledged is lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import WebSocket from 'ws';
import { freePort } from '../scripts/free-port.js';
import { createDatabase, endBrokerSessions, metric, startServer, type Instance } from '../scripts/instances.js';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const DEVICES = arg('devices', 2000);
const RATE = arg('rate', 5000);
const SECONDS = arg('seconds', 20);
const BURST = args.includes('--burst');
const PGLITE = args.includes('--pglite');
const RULES = arg('rules', 0);
const BATCH = Math.max(1, arg('batch', 1));
/** --instances N: N compiled servers over PostgreSQL, Redis and Mosquitto against one (clusterMain). */
const INSTANCES = arg('instances', 0);
/** --profile DIR: the server writes a V8 CPU profile there (open it in Chrome DevTools). */
const PROFILE = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : undefined;
const FOLLOWED = Math.min(200, DEVICES);
const SECRET = (sn: string) => `bench-secret-${sn}`;
const sn = (i: number) => `BENCH-${String(i).padStart(6, '0')}`;
/** Secrets the server generated (PGlite runs register devices through the API). */
const SECRETS = new Map<string, string>();

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN);
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function peakRss(pid: number, field = 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Connects N devices, 50 at a time; `idSuffix` keeps their client ids apart on a shared broker. */
async function connectFleet(url: string, auth: boolean, idSuffix = ''): Promise<MqttClient[]> {
  const clients: MqttClient[] = new Array(DEVICES);
  let next = 0;
  const worker = async () => {
    while (next < DEVICES) {
      const i = next++;
      const id = sn(i);
      clients[i] = await new Promise<MqttClient>((resolve, reject) => {
        const c = mqtt.connect(url, {
          clientId: id + idSuffix,
          ...(auth ? { username: id, password: SECRETS.get(id) ?? SECRET(id) } : {}),
          reconnectPeriod: 0,
          keepalive: 120,
          connectTimeout: 60_000,
        });
        c.once('connect', () => resolve(c));
        c.once('error', reject);
      });
      clients[i]!.on('error', () => {});
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  return clients;
}

function sample(i: number, ts: number) {
  const v = (k: number) => Math.round((50 + 10 * Math.sin(ts / 10_000 + i + k)) * 100) / 100;
  return {
    ts,
    values: {
      '01111001': v(1), '01112001': v(2) - 50, '02109001': v(3), '02110001': 98, '01118001': v(5) - 20,
      '01120001': v(6) - 25, '01117001': 3.3, '01117002': 3.31, '01117003': 3.29, '01117004': 3.3,
    },
  };
}

/** One message: a sample, or with --batch K the K samples before `ts`, 1 s apart (a backlog). */
function telemetry(i: number, ts: number) {
  if (BATCH === 1) return JSON.stringify(sample(i, ts));
  return JSON.stringify(Array.from({ length: BATCH }, (_, k) => sample(i, ts - (BATCH - 1 - k) * 1000)));
}

/** Alarm rules on the parameters `telemetry()` sends; values swing 40…60 every ~60 s. */
const RULE_POOL = [
  { semaphoreId: '01111001', comparison: 'gt', threshold: 58, holdSeconds: 2 },
  { semaphoreId: '01112001', comparison: 'lt', threshold: -8, holdSeconds: 2 },
  { semaphoreId: '02109001', comparison: 'outside', threshold: 41, threshold2: 59, holdSeconds: 0 },
  { semaphoreId: '02110001', comparison: 'lt', threshold: 90, holdSeconds: 0 },
  { semaphoreId: '01118001', comparison: 'gt', threshold: 38, holdSeconds: 5 },
  { semaphoreId: '01120001', comparison: 'gt', threshold: 33, holdSeconds: 5 },
  { semaphoreId: '01117001', comparison: 'gt', threshold: 3.65, holdSeconds: 10 },
  { semaphoreId: '01117002', comparison: 'lt', threshold: 2.8, holdSeconds: 10 },
  { semaphoreId: '01117003', comparison: 'gt', threshold: 3.65, holdSeconds: 10 },
  { semaphoreId: '01117004', comparison: 'lt', threshold: 2.8, holdSeconds: 10 },
];
const rules = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    ...RULE_POOL[i % RULE_POOL.length]!,
    // Past 10 the same parameters again, at other levels (distinct rules).
    level: ((i + Math.floor(i / RULE_POOL.length)) % 4) + 1,
    message: `bench rule ${i + 1}`,
  }));
const loadavg = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');

interface RunResult {
  sent: number;
  acked: number;
  failed: number;
  seconds: number;
  latencies: number[];
  ackedTs: Map<number, number[]>;
}

/** Publishes at `rate` msg/s round-robin for `seconds`; counts PUBACKs and their latency. */
async function load(clients: MqttClient[], rate: number, seconds: number, keepAcked = false): Promise<RunResult> {
  const latencies: number[] = [];
  const ackedTs = new Map<number, number[]>();
  let sent = 0;
  let acked = 0;
  let failed = 0;
  let inFlight = 0;
  let cursor = 0;
  const start = Date.now();
  const end = start + seconds * 1000;
  const tickMs = 10;
  let skipped = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = Date.now();
      if (now >= end) {
        clearInterval(timer);
        resolve();
        return;
      }
      // Catch up with the schedule (timers drift), but never past 20,000 in flight: a server that
      // falls behind slows the publishers (back-pressure) and the missed sends are not made up.
      const target = Math.floor((rate * (now - start)) / 1000);
      while (sent + skipped < target) {
        if (inFlight >= 20_000) {
          skipped = target - sent;
          break;
        }
        const i = cursor++ % clients.length;
        const ts = Date.now() * 1000 + (cursor % 1000);
        const t0 = performance.now();
        inFlight++;
        sent++;
        clients[i]!.publish(`dev/${sn(i)}/telemetry`, telemetry(i, Math.floor(ts / 1000)), { qos: 1 }, (err) => {
          inFlight--;
          if (err) {
            failed++;
            return;
          }
          acked++;
          if (Date.now() <= end) latencies.push(performance.now() - t0);
          if (keepAcked) {
            const list = ackedTs.get(i) ?? [];
            list.push(Math.floor(ts / 1000));
            ackedTs.set(i, list);
          }
        });
      }
    }, tickMs);
  });
  // Let the last acknowledgements arrive.
  const drainEnd = Date.now() + 15_000;
  while (inFlight > 0 && Date.now() < drainEnd) await new Promise((r) => setTimeout(r, 50));
  return { sent, acked, failed, seconds, latencies: latencies.sort((a, b) => a - b), ackedTs };
}

function report(label: string, r: RunResult, extra = '') {
  const rate = r.acked / r.seconds;
  console.log(
    `${label.padEnd(30)} ${fmt(rate).padStart(7)} msg/s  ${BATCH > 1 ? `${fmt(rate * BATCH).padStart(8)} samples/s  ` : ''}${fmt(rate * 10 * BATCH).padStart(8)} datapoints/s  ` +
      `PUBACK p50 ${fmt(pct(r.latencies, 0.5), 1)} ms p99 ${fmt(pct(r.latencies, 0.99), 1)} ms  ` +
      `(sent ${fmt(r.sent)}, acked ${fmt(r.acked)}, failed ${fmt(r.failed)})${extra}`,
  );
  return rate;
}

async function rawBroker(): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
    const { Aedes } = await import('aedes');
    const net = await import('node:net');
    const broker = await Aedes.createBroker();
    net.createServer(broker.handle).listen(${port}, '127.0.0.1', () => console.log('ready'));
  `], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const clients = await connectFleet(`mqtt://127.0.0.1:${port}`, false);
  const r = await load(clients, RATE, SECONDS);
  const rate = report(`raw broker (${DEVICES} devices)`, r, `  RSS ${fmt(peakRss(child.pid!))} MB`);
  for (const c of clients) c.end(true);
  child.kill('SIGKILL');
  return rate;
}

type ApiAnswer = { code: number; data: Record<string, unknown> & { token?: string; secret?: string; items?: { id: number }[] } };
/** The console's API at `base` (http://host:port). */
const apiOf = (base: string) => async (method: string, url: string, token?: string, body?: object) =>
  (await (await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })).json()) as ApiAnswer;

/** The fleet, registered in one statement (secrets derived from the SN for the bench). */
async function insertFleet(databaseUrl: string, typeId: number) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const rows = Array.from({ length: DEVICES }, (_, i) => ({
    sn: sn(i), name: `Bench ${i}`, type_id: typeId, owner_path: '/1/',
    credential_hash: crypto.createHash('sha256').update(SECRET(sn(i))).digest('hex'),
  }));
  await c.query(
    `insert into devices (sn, name, type_id, owner_path, credential_hash)
     select sn, name, type_id, owner_path, credential_hash from json_to_recordset($1::json)
     as x(sn text, name text, type_id int, owner_path text, credential_hash text)`,
    [JSON.stringify(rows)],
  );
  await c.end();
}

/**
 * A browser's live channel signed in at `base`, following the first FOLLOWED devices by SN:
 * publish→WebSocket latency of each value push, from the message's own ts (= its publish time).
 */
async function followLive(base: string, token: string) {
  const ids = (await apiOf(base)('GET', `/device/list?limit=${FOLLOWED}&sort=sn&order=asc`, token)).data.items!.map((d) => d.id);
  const latencies: number[] = [];
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/ws`);
  await new Promise<void>((r) => ws.once('open', () => r()));
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: number; ts?: string };
    if (m.type === 150 && m.ts) latencies.push(Date.now() - Date.parse(m.ts));
  });
  const loggedIn = new Promise<void>((resolve) =>
    ws.on('message', (raw) => {
      if ((JSON.parse(String(raw)) as { type: number }).type === 111) resolve();
    }),
  );
  ws.send(JSON.stringify({ type: 110, userId: 1, token, timestamp: Date.now() }));
  await loggedIn;
  ws.send(JSON.stringify({ type: 140, deviceIds: ids }));
  return { latencies, close: () => ws.close() };
}

async function waitUp(port: number) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/config`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

async function main() {
  console.log(
    `bench:ingest  ${DEVICES} devices, ${fmt(RATE)} msg/s offered, ${SECONDS} s, ` +
      `${BATCH > 1 ? `${BATCH} samples of 10 values` : '10 values'} per message, QoS 1, ${os.cpus().length} cores`,
  );
  const raw = await rawBroker();

  // The server, in its own process, on a fresh database.
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  let databaseUrl = '';
  let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
  let dataDir = '';
  if (!PGLITE) {
    if (!base) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL (or pass --pglite)');
    database = await createDatabase(base, 'iot_bench');
    databaseUrl = database.url;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  }
  const [port, mqttPort] = [await freePort(), await freePort()];
  const server: ChildProcess = spawn(process.execPath, [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []), '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir || path.join(os.tmpdir(), 'unused'), ADMIN_PASSWORD: 'bench-pass', CAPTCHA: 'off', LOG_LEVEL: 'warn',
      DEMO: 'off', DEVICE_RATE_LIMIT: '100000', LOGIN_LOCKOUT: 'off', API_RATE_LIMIT: '0',
      // 10,000 devices connect from this one address.
      MQTT_CONNECTS_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUp(port);
    const api = apiOf(`http://127.0.0.1:${port}`);
    const token = (await api('POST', '/user/login', undefined, { username: 'admin', password: 'bench-pass', captcha: '', key: '' })).data.token!;
    const types = (await api('GET', '/devicetype/typeoptionslist', token)).data as unknown as { id: number; code: string }[];
    const typeId = types.find((t) => t.code === 'BMU')!.id;

    if (databaseUrl) {
      await insertFleet(databaseUrl, typeId);
    } else {
      for (let i = 0; i < DEVICES; i++) {
        const r = await api('POST', '/device/add', token, { name: `Bench ${i}`, sn: sn(i), typeId });
        // PGlite: the registry's own secret, saved in memory for the clients below.
        SECRETS.set(sn(i), r.data.secret!);
      }
    }
    const live = await followLive(`http://127.0.0.1:${port}`, token);
    const wsLat = live.latencies;

    const setRules = async (n: number) => {
      const res = await api('POST', '/devicetype/addsetalarm', token, { id: typeId, rules: rules(n) });
      if (res.code !== 20000) throw new Error(`addsetalarm: ${JSON.stringify(res)}`);
    };
    if (RULES > 0) await setRules(0);

    const t0 = Date.now();
    const clients = await connectFleet(`mqtt://127.0.0.1:${mqttPort}`, true);
    console.log(`server: ${DEVICES} devices connected in ${fmt((Date.now() - t0) / 1000, 1)} s`);
    const r = await load(clients, RATE, SECONDS);
    wsLat.sort((a, b) => a - b);
    const rate = report(
      `server, ${PGLITE ? 'PGlite' : 'PostgreSQL'}${RULES > 0 ? ', no rules' : ''}`,
      r,
      `  WS p50 ${fmt(pct(wsLat, 0.5))} ms p99 ${fmt(pct(wsLat, 0.99))} ms (${fmt(wsLat.length)} pushes)  RSS peak ${fmt(peakRss(server.pid!))} MB  load ${loadavg()}`,
    );
    console.log(`ratio to the raw broker: ${fmt(rate / raw, 2)}×  (target ≥ 0.5× and ≥ 5,000 msg/s with 10,000 devices on PostgreSQL)`);

    if (RULES > 0) {
      await setRules(RULES);
      const withRules = report(`server, ${RULES} rules per type`, await load(clients, RATE, SECONDS), `  load ${loadavg()}`);
      // Again without rules: the machine's load drifts; the mean of the two runs without is the reference.
      await setRules(0);
      const again = report('server, no rules (again)', await load(clients, RATE, SECONDS), `  load ${loadavg()}`);
      let alarms = '';
      if (databaseUrl) {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        const a = await c.query('select count(*)::int as n, count(ended_at)::int as ended from alarms');
        await c.end();
        alarms = `; ${a.rows[0].n} alarms opened, ${a.rows[0].ended} ended`;
      }
      const ref = (rate + again) / 2;
      console.log(`alarm rules: ${fmt(withRules / ref, 2)}× the rate without rules (target ≥ 0.90×)${alarms}`);
    }

    if (BURST) {
      const rssBefore = peakRss(server.pid!);
      // The server's resident memory every 5 s of the burst: flat means the queue is bounded.
      const samples: number[] = [];
      const sampler = setInterval(() => samples.push(peakRss(server.pid!, 'VmRSS')), 5000);
      const b = await load(clients, RATE * 3, 60, true);
      clearInterval(sampler);
      report(`burst 3× for 60 s`, b, `  RSS peak ${fmt(rssBefore)} → ${fmt(peakRss(server.pid!))} MB`);
      console.log(`burst: server RSS every 5 s (MB): ${samples.map((x) => fmt(x)).join(' ')}`);
      if (databaseUrl) {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        let lost = 0;
        for (const [i, list] of b.ackedTs) {
          const res = await c.query(
            `select (extract(epoch from ts) * 1000)::bigint as ms from telemetry t join devices d on d.id = t.device_id where d.sn = $1`,
            [sn(i)],
          );
          const stored = new Set(res.rows.map((x: { ms: string }) => Number(x.ms)));
          lost += list.filter((ts) => !stored.has(ts)).length;
        }
        await c.end();
        console.log(`burst: acknowledged but not stored: ${lost}`);
      }
    }
    for (const c of clients) c.end(true);
    live.close();
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/**
 * --instances N: the compiled server as N instances over PostgreSQL, Redis (REDIS_URL) and an
 * external Mosquitto in shared-subscription mode (MQTT_URL, one MQTT_SHARE_GROUP), as an operator
 * runs them behind a load balancer, against one instance with the same settings in the same run:
 * one instance, then N (the live client on the last one, so most values it shows were taken by
 * another instance and crossed Redis), then one again (the machine's load drifts; the mean of the
 * two single runs is the reference). Devices publish QoS 1 through Mosquitto; a message counts
 * as acknowledged when Mosquitto's PUBACK arrives, and every phase checks that each acknowledged
 * message became a telemetry row (rows with the phase's device times).
 *
 * The broker is a Mosquitto started here on a free port with OPERATIONS.md's settings (a queue
 * of 100,000 messages per session: at the default 1,000 Mosquitto drops what a busy instance has
 * not taken yet) unless --broker URL names one.
 */
async function clusterMain() {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL (--instances runs on PostgreSQL)');
  const run = crypto.randomBytes(4).toString('hex');
  const metricsToken = `bench-metrics-${run}-token`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-instances-'));
  const database = await createDatabase(base, 'iot_bench');
  let broker = args.includes('--broker') ? args[args.indexOf('--broker') + 1]! : '';
  let mosquitto: ChildProcess | undefined;
  const instances: Instance[] = [];
  let clients: MqttClient[] = [];
  try {
    if (!broker) {
      const port = await freePort();
      fs.writeFileSync(
        path.join(tmp, 'mosquitto.conf'),
        `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n`,
      );
      mosquitto = spawn('mosquitto', ['-c', path.join(tmp, 'mosquitto.conf')], { stdio: 'ignore' });
      broker = `mqtt://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        const c = await mqtt.connectAsync(broker, { reconnectPeriod: 0, connectTimeout: 1000 }).catch(() => undefined);
        if (c) {
          await c.endAsync();
          break;
        }
        if (i > 50) throw new Error('mosquitto did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    console.log(
      `bench:ingest --instances ${INSTANCES}  ${DEVICES} devices, ${fmt(RATE)} msg/s offered, ${SECONDS} s per phase, 10 values per message, ` +
        `QoS 1 through Mosquitto (${broker}${mosquitto ? ', started here' : ''}), Redis, PostgreSQL, ${os.cpus().length} cores, load ${loadavg()}`,
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env, NODE_ENV: 'production', DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_CHANNEL: `iot-bench:${run}`,
      MQTT_URL: broker, MQTT_SHARE_GROUP: `iot-bench-${run}`, MQTT_SESSION_EXPIRY: '600',
      ADMIN_PASSWORD: 'bench-pass', CAPTCHA: 'off', DEMO: 'off', LOG_LEVEL: 'warn', METRICS_TOKEN: metricsToken, DATA_DIR: tmp,
      DEVICE_RATE_LIMIT: '100000', LOGIN_LOCKOUT: 'off', API_RATE_LIMIT: '0',
    };
    const clientIds = `iot-bench-${run}`;
    const start = async (name: string) => {
      const i = await startServer(name, env, clientIds, PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : []);
      instances.push(i);
      return i;
    };
    const a = await start('a');
    const api = apiOf(a.base);
    const token = (await api('POST', '/user/login', undefined, { username: 'admin', password: 'bench-pass', captcha: '', key: '' })).data.token!;
    const types = (await api('GET', '/devicetype/typeoptionslist', token)).data as unknown as { id: number; code: string }[];
    await insertFleet(database.url, types.find((t) => t.code === 'BMU')!.id);
    clients = await connectFleet(broker, false, `@${run}`);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const storedBetween = async (from: number, to: number) =>
      Number((await db.query(`select count(*) as n from telemetry where ts >= to_timestamp($1 / 1000.0) and ts <= to_timestamp($2 / 1000.0)`, [from, to])).rows[0].n);
    /** Waits while rows with device times in [from, to] still arrive, up to `acked` of them. */
    const settle = async (from: number, to: number, acked: number) => {
      let stored = await storedBetween(from, to);
      for (let still = 0; stored < acked && still < 100; ) {
        await new Promise((res) => setTimeout(res, 100));
        const n = await storedBetween(from, to);
        still = n === stored ? still + 1 : 0;
        stored = n;
      }
      return stored;
    };
    const taken = (i: Instance) => metric(i, metricsToken, 'iot_ingest_messages_accepted_total{transport="mqtt-external"}');

    interface Phase { label: string; acked: number; storedRate: number; lost: number; latencies: number[]; cpuPerK: number }
    /** One phase: load through the broker, the live client on `liveOn`, the rows counted after. */
    const phase = async (label: string, serving: Instance[], liveOn: Instance): Promise<Phase> => {
      const liveToken = (await apiOf(liveOn.base)('POST', '/user/login', undefined, { username: 'admin', password: 'bench-pass', captcha: '', key: '' })).data.token!;
      const live = await followLive(liveOn.base, liveToken);
      const takenBefore = await Promise.all(serving.map(taken));
      // What the instances burn with no device traffic (timers, sweeps, the leader's checks).
      const idle0 = serving.map((i) => cpuSeconds(i.child.pid!));
      await new Promise((res) => setTimeout(res, 5000));
      const idlePerS = serving.reduce((sum, i, k) => sum + cpuSeconds(i.child.pid!) - idle0[k]!, 0) / 5;
      const cpuBefore = serving.map((i) => cpuSeconds(i.child.pid!));
      const cpuFrom = Date.now();
      const from = Date.now();
      const r = await load(clients, RATE, SECONDS);
      const to = Date.now();
      const storedInRun = await storedBetween(from, to);
      // Every acknowledged message stored: wait while the count still grows.
      const stored = await settle(from, to, r.acked);
      const cpuAll = serving.reduce((sum, i, k) => sum + cpuSeconds(i.child.pid!) - cpuBefore[k]!, 0);
      const cpu = Math.max(0, cpuAll - (idlePerS * (Date.now() - cpuFrom)) / 1000);
      const takenBy = (await Promise.all(serving.map(taken))).map((n, k) => `${serving[k]!.name.toUpperCase()} ${fmt(n - takenBefore[k]!)}`);
      live.close();
      live.latencies.sort((x, y) => x - y);
      const storedRate = storedInRun / SECONDS;
      const lost = r.acked - stored;
      report(label, r);
      console.log(
        `${''.padEnd(30)} stored ${fmt(storedRate).padStart(7)} rows/s during the run, ${fmt(stored)} in all (taken: ${takenBy.join(', ')}); ` +
          `acknowledged but not stored ${fmt(lost)}; publish→live on ${liveOn.name.toUpperCase()} p50 ${fmt(pct(live.latencies, 0.5))} ms p99 ${fmt(pct(live.latencies, 0.99))} ms ` +
          `(${fmt(live.latencies.length)} pushes); server CPU ${fmt((cpu * 1000) / Math.max(1, stored), 3)} ms per message ` +
          `(${fmt(cpuAll, 1)} s, less ${fmt(idlePerS * 100)} % idle); RSS ${serving.map((i) => `${i.name.toUpperCase()} ${fmt(peakRss(i.child.pid!, 'VmRSS'))} MB`).join(', ')}; load ${loadavg()}`,
      );
      return { label, acked: r.acked, storedRate, lost, latencies: live.latencies, cpuPerK: (cpu * 1000) / Math.max(1, stored) };
    };

    // Warm-up, not counted: the first seconds of a new process (JIT, caches, pools) are slower.
    const warmUp = async () => {
      const warmFrom = Date.now();
      const warm = await load(clients, RATE, Math.min(5, SECONDS));
      await settle(warmFrom, Date.now(), warm.acked);
    };
    await warmUp();
    const one = await phase('1 instance, live on A', [a], a);
    const more: Instance[] = [];
    for (let k = 1; k < INSTANCES; k++) more.push(await start(String.fromCharCode(97 + k)));
    await warmUp();
    const many = await phase(`${INSTANCES} instances, live on ${more.at(-1)!.name.toUpperCase()}`, [a, ...more], more.at(-1)!);
    for (const i of more) await i.stop();
    await endBrokerSessions(broker, more.map((i) => i.clientId));
    const again = await phase('1 instance again, live on A', [a], a);
    await db.end();

    const ref = (one.storedRate + again.storedRate) / 2;
    const refCpu = (one.cpuPerK + again.cpuPerK) / 2;
    const lost = one.lost + many.lost + again.lost;
    console.log(
      `${INSTANCES} instances / 1: stored rows/s ${fmt(many.storedRate / ref, 2)}×, publish→live p50 ${fmt(pct(many.latencies, 0.5))} vs ` +
        `${fmt(pct(one.latencies, 0.5))}/${fmt(pct(again.latencies, 0.5))} ms, p99 ${fmt(pct(many.latencies, 0.99))} vs ` +
        `${fmt(pct(one.latencies, 0.99))}/${fmt(pct(again.latencies, 0.99))} ms, server CPU per message ${fmt(many.cpuPerK / refCpu, 2)}×; ` +
        `fan-out cost ${fmt((1 - many.storedRate / ref) * 100, 1)} % of the throughput (target < 20 %); ` +
        `acknowledged but not stored: ${lost}; load ${loadavg()}`,
    );
  } finally {
    for (const c of clients) c.end(true);
    for (const i of instances) await i.stop();
    await endBrokerSessions(broker, instances.map((i) => i.clientId)).catch(() => {});
    mosquitto?.kill('SIGTERM');
    await database.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

(INSTANCES > 0 ? clusterMain() : main()).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
