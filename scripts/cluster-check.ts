/**
 * `npm run test:cluster` (issue #37, decisions 0035 and 0038): two real server processes on one
 * machine, as an operator runs them behind a load balancer: one fresh PostgreSQL database (made
 * here, dropped at the end), Redis (127.0.0.1:6379, REDIS_URL) and Mosquitto (127.0.0.1:1883,
 * MQTT_URL: both instances in one shared subscription group). Simulated devices (mqtt.js) publish
 * with QoS 1 through Mosquitto. The check:
 *
 * 1. a Chromium logged in on instance B sees live values, the online state and alarms of devices
 *    whose messages instance A took (A's /metrics counts them);
 * 2. instance A is killed (SIGKILL) while the devices publish: B keeps serving (API, live
 *    channel) and ingesting;
 * 3. nothing the broker acknowledged to a device is lost: what A had taken and not acknowledged
 *    stays in A's broker session, so when A comes back (same MQTT_CLIENT_ID) every message
 *    acknowledged before the kill is in the database, once.
 *
 * Needs the web console built (`npm run build`) and /usr/bin/chromium (CHROMIUM_PATH overrides).
 * Every wait polls with a deadline; exit 0 when every check holds, 1 otherwise.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { chromium, type Browser } from '@playwright/test';
import { CheckFailed, consoleApi, createDatabase, endBrokerSessions, fail, metric, startServer, until, type Instance } from './instances.js';

const root = path.resolve(import.meta.dirname, '..');
const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUN = randomBytes(4).toString('hex');
const ADMIN = { username: 'admin', password: 'cluster-admin-1' };
const METRICS_TOKEN = `cluster-metrics-${RUN}-token`;
const CLIENT_IDS = `iot-cluster-${RUN}`;
const DEVICES = 4;
const started = Date.now();

const log = (msg: string) => console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${msg}`);

const api = (base: string) => consoleApi(base, ADMIN);

/** Device messages an instance took from the external broker and stored (its /metrics). */
const taken = (i: Instance) => metric(i, METRICS_TOKEN, 'iot_ingest_messages_accepted_total{transport="mqtt-external"}');

async function main() {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) fail('the web console is not built: run `npm run build` first');
  if (!fs.existsSync(CHROMIUM)) fail(`no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const database = await createDatabase(PG, 'iot_cluster');
  const db = new pg.Client({ connectionString: database.url });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-cluster-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    REDIS_URL: REDIS,
    REDIS_CHANNEL: `iot-cluster:${RUN}`,
    MQTT_URL: BROKER,
    MQTT_SHARE_GROUP: `iot-cluster-${RUN}`,
    MQTT_SESSION_EXPIRY: '600',
    CAPTCHA: 'off',
    DEMO: 'off',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    METRICS_TOKEN,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  const instances: Instance[] = [];
  const devices: MqttClient[] = [];
  let browser: Browser | undefined;
  let passed = false;
  try {
    // A first: it migrates and seeds the new database; B finds it ready.
    const a = await startServer('a', env, CLIENT_IDS);
    instances.push(a);
    const b = await startServer('b', env, CLIENT_IDS);
    instances.push(b);
    log(`instances up: A ${a.base}, B ${b.base}`);

    const onA = api(a.base);
    await onA.login();
    const typeId = (await onA.call<{ id: number }>('POST', '/devicetype/addtype', { code: `CL${RUN.slice(0, 4)}`, name: '集群检查', nameEn: 'Cluster check' })).id;
    await onA.call('POST', '/devicetype/addsetparam', {
      id: typeId,
      params: [
        { semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 },
        { semaphoreId: 'F', name: '故障', nameEn: 'Fault', dataType: 'integer', sort: 2 },
      ],
    });
    const fleet: { id: number; sn: string }[] = [];
    for (let i = 0; i < DEVICES; i++) {
      const sn = `CL-${RUN}-${i}`;
      fleet.push({ id: (await onA.call<{ id: number }>('POST', '/device/add', { name: `Rack ${sn}`, sn, typeId })).id, sn });
    }

    // The browser signs in on B and opens the device list; it records what its live channel gets.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const page = await (await browser.newContext({ baseURL: b.base, locale: 'en-US' })).newPage();
    const frames: { type: number; deviceId?: number; deviceIds?: number[]; alarms?: { deviceId: number; level: number }[]; event?: string }[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => frames.push(JSON.parse(String(payload)))));
    await page.goto('/login');
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/dashboard$/, { timeout: 30_000 });
    await page.goto('/device/list');
    const row = (sn: string) => page.getByTestId('table-devices').locator('tr.ant-table-row', { hasText: sn });
    await row(fleet[0]!.sn).getByTestId('online-tag').filter({ hasText: 'Offline' }).waitFor({ timeout: 30_000 });
    await until('the list follows the devices live', () => frames.some((f) => f.type === 141 && fleet.every((d) => f.deviceIds?.includes(d.id))));
    log('Chromium signed in on B, following the devices');

    // The devices publish through Mosquitto, QoS 1; what the broker acknowledged is remembered.
    const acked: { sn: string; ts: number }[] = [];
    for (const d of fleet) {
      devices.push(await mqtt.connectAsync(BROKER, { clientId: `${d.sn}-dev`, clean: true, reconnectPeriod: 0 }));
    }
    let ts = Date.now() - 60_000;
    /** The devices take turns publishing telemetry (each message its own device time) until stopped. */
    const stream = (base: number) => {
      let publishing = true;
      const done = (async () => {
        for (let n = 0; publishing; n++) {
          const i = n % DEVICES;
          const at = ++ts;
          await devices[i]!.publishAsync(`dev/${fleet[i]!.sn}/telemetry`, JSON.stringify({ ts: at, values: { T: base + (n % 10) } }), { qos: 1 });
          acked.push({ sn: fleet[i]!.sn, ts: at });
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      return async () => {
        publishing = false;
        await done;
      };
    };
    const stopFirst = stream(20);
    const valuesSeen = (d: { id: number }) => frames.filter((f) => f.type === 150 && f.deviceId === d.id).length;
    await until('Chromium on B gets every device’s live values', () => fleet.every((d) => valuesSeen(d) > 0));
    await until('each device shows online on B without a reload', async () => {
      for (const d of fleet) if ((await row(d.sn).getByTestId('online-tag').textContent())?.trim() !== 'Online') return false;
      return true;
    });
    const [takenA, takenB] = [await taken(a), await taken(b)];
    if (takenA === 0 || takenB === 0) fail(`the share group did not split the messages: A took ${takenA}, B ${takenB}`);
    log(`live values and online state on B; A took ${takenA} messages, B ${takenB}`);

    // Alarms, with telemetry paused and stored (so the counters move for the alarms alone): one
    // raise per device, dispatched round robin between the instances.
    await stopFirst();
    await db.connect();
    const storedOf = async () => {
      const res = await db.query<{ sn: string; ts: string }>(
        `select d.sn, (extract(epoch from t.ts) * 1000)::bigint::text as ts from telemetry t join devices d on d.id = t.device_id where d.sn like $1`,
        [`CL-${RUN}-%`],
      );
      return new Set(res.rows.map((r) => `${r.sn}@${r.ts}`));
    };
    const missing = (have: Set<string>, upTo: number) => acked.slice(0, upTo).filter((m) => !have.has(`${m.sn}@${m.ts}`));
    await until('the telemetry so far is stored', async () => missing(await storedOf(), acked.length).length === 0);
    const beforeAlarms = await taken(a);
    const beforeAlarmsB = await taken(b);
    for (const [i, d] of fleet.entries()) {
      await devices[i]!.publishAsync(`dev/${d.sn}/alarm`, JSON.stringify({ ts: ++ts, id: 'F', flag: 1, value: 7, level: 4 }), { qos: 1 });
    }
    await until('Chromium on B gets every device’s alarm', () =>
      fleet.every((d) => frames.some((f) => f.type === 160 && f.alarms?.some((x) => x.deviceId === d.id && x.level === 4))),
    );
    await until('both instances counted the alarms', async () => (await taken(a)) + (await taken(b)) === beforeAlarms + beforeAlarmsB + DEVICES, 5000);
    const alarmsByA = (await taken(a)) - beforeAlarms;
    if (alarmsByA === 0) fail('instance A took none of the alarms');
    const stored = await onA.call<{ total: number }>('GET', `/device/alarmlist?deviceId=${fleet[0]!.id}&limit=10`);
    if (stored.total !== 1) fail(`device 0 has ${stored.total} alarms stored, expected 1`);
    log(`every alarm reached the browser on B, ${alarmsByA} of the ${DEVICES} taken by A`);

    // A dies mid-stream.
    const stopSecond = stream(30);
    await until('a few messages in flight', () => acked.length > 200);
    a.child.kill('SIGKILL');
    await a.exited;
    const ackedAtKill = acked.length;
    log(`instance A killed (SIGKILL) with ${ackedAtKill} messages acknowledged by the broker`);

    const takenBAtKill = await taken(b);
    const framesAtKill = frames.filter((f) => f.type === 150).length;
    await until('B keeps ingesting', async () => (await taken(b)) > takenBAtKill + 20);
    await until('Chromium on B keeps getting live values', () => frames.filter((f) => f.type === 150).length > framesAtKill + 10);
    const onB = api(b.base);
    await onB.login();
    const list = await onB.call<{ total: number }>('GET', `/device/list?limit=20`);
    if (list.total < DEVICES) fail(`B lists ${list.total} devices`);
    await stopSecond();
    log(`B keeps serving and ingesting (${(await taken(b)) - takenBAtKill} messages since the kill)`);

    // A comes back with its client id: its broker session hands over what A had not acknowledged.
    const waiting = missing(await storedOf(), ackedAtKill).length;
    const a2 = await startServer('a', env, CLIENT_IDS);
    instances.push(a2);
    await until(
      'every message acknowledged before the kill is stored',
      async () => missing(await storedOf(), ackedAtKill).length === 0,
      30_000,
    );
    await until('every message acknowledged at all is stored', async () => missing(await storedOf(), acked.length).length === 0, 30_000);
    const rows = await db.query<{ n: string }>(`select count(*) as n from telemetry t join devices d on d.id = t.device_id where d.sn like $1`, [`CL-${RUN}-%`]);
    if (Number(rows.rows[0]!.n) !== acked.length) fail(`${rows.rows[0]!.n} telemetry rows for ${acked.length} messages`);
    log(`A restarted: all ${acked.length} acknowledged messages stored once (${waiting} had waited in A's broker session)`);
    console.log(`test:cluster passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    passed = true;
  } finally {
    await browser?.close().catch(() => {});
    for (const d of devices) await d.endAsync().catch(() => {});
    for (const i of instances) await i.stop();
    // The instances' broker sessions end with the run (clean start, no expiry).
    await endBrokerSessions(BROKER, [`${CLIENT_IDS}-a`, `${CLIENT_IDS}-b`]);
    await db.end().catch(() => {});
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!passed) for (const i of instances) console.log(`--- instance ${i.name} output ---\n${i.output()}`);
  }
}

main().catch((err) => {
  console.error(err instanceof CheckFailed ? `test:cluster FAILED: ${err.message}` : err);
  process.exitCode = 1;
});
