/**
 * `npm run test:docker` (issue #37): builds the image from `Dockerfile` and runs it the two ways
 * docs/DEPLOY.md describes, checking what an operator would notice:
 *
 * 1. **Embedded** (`docker run` with a volume, nothing else): /readyz answers, the administrator
 *    signs in, a device registered through the API connects to the container's embedded broker
 *    (port 1883 published) with its SN and secret and its telemetry is stored; the process runs as
 *    the unprivileged `node` user; after `docker restart` the device and its value are still there
 *    (the embedded database lives in the volume); Docker's health check reports it healthy.
 * 2. **External** (host network): the machine's PostgreSQL (a fresh database, dropped after),
 *    Redis and Mosquitto; /readyz checks all three; a device publishing through Mosquitto is stored.
 *
 * Needs a Docker daemon (not in CI: its machines have none) and the base image `node:20-bookworm-slim`
 * (pulled, or built locally where no registry is reachable). `--no-build` reuses `iot-console:check`.
 * Exit 0 when every check holds, 1 otherwise.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mqtt from 'mqtt';
import { CheckFailed, consoleApi, createDatabase, fail, until } from './instances.js';
import { freePort } from './free-port.js';

const root = path.resolve(import.meta.dirname, '..');
const IMAGE = 'iot-console:check';
const RUN = randomBytes(4).toString('hex');
const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
const ADMIN = { username: 'admin', password: `docker-check-${RUN}` };
const started = Date.now();
const log = (msg: string) => console.log(`  ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${msg}`);
const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();

const api = (base: string) => consoleApi(base, ADMIN);

const ready = (base: string, container: string) =>
  until(
    `${container} ready`,
    async () => {
      if (docker('inspect', '-f', '{{.State.Running}}', container) !== 'true') fail(`${container} stopped:\n${docker('logs', container)}`);
      const r = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
      return r?.ok ? ((await r.json()) as { checks: Record<string, string> }).checks : undefined;
    },
    90_000,
  );

/** A device type with a temperature parameter, and a device of it: its id, SN and secret. */
async function addDevice(c: ReturnType<typeof api>) {
  const typeId = (await c.call<{ id: number }>('POST', '/devicetype/addtype', { code: `DK${RUN.slice(0, 4)}`, name: '容器检查', nameEn: 'Docker check' })).id;
  await c.call('POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 }] });
  const sn = `DK-${RUN}`;
  const d = await c.call<{ id: number; secret: string }>('POST', '/device/add', { name: `Rack ${sn}`, sn, typeId });
  return { id: d.id, sn, secret: d.secret };
}

const latestT = async (c: ReturnType<typeof api>, id: number) =>
  (await c.call<{ semaphoreId: string; value: unknown }[]>('GET', `/device/latest?id=${id}`)).find((v) => v.semaphoreId === 'T')?.value;

async function publish(url: string, opts: mqtt.IClientOptions, sn: string, value: number) {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 10_000, ...opts });
  await client.publishAsync(`dev/${sn}/telemetry`, JSON.stringify({ ts: Date.now(), values: { T: value } }), { qos: 1 });
  await client.endAsync();
}

async function embedded() {
  const name = `iot-check-embedded-${RUN}`;
  const volume = `iot-check-data-${RUN}`;
  const [http, broker] = [await freePort(), await freePort()];
  try {
    docker('run', '-d', '--name', name, '-v', `${volume}:/data`, '-p', `127.0.0.1:${http}:8080`, '-p', `127.0.0.1:${broker}:1883`,
      '-e', 'CAPTCHA=off', '-e', 'DEMO=off', '-e', `ADMIN_PASSWORD=${ADMIN.password}`, IMAGE);
    const base = `http://127.0.0.1:${http}`;
    const checks = await ready(base, name);
    log(`embedded: ready ${JSON.stringify(checks)}`);
    if (docker('exec', name, 'id', '-un') !== 'node') fail('the server does not run as the node user');
    const c = api(base);
    await c.login();
    const d = await addDevice(c);
    await publish(`mqtt://127.0.0.1:${broker}`, { username: d.sn, password: d.secret, clientId: `${d.sn}@check` }, d.sn, 21.5);
    await until('the device’s value is stored', async () => (await latestT(c, d.id)) === 21.5);
    log('embedded: a device on the container’s broker is stored');
    docker('restart', name);
    await ready(base, name);
    const again = api(base);
    await again.login();
    if ((await latestT(again, d.id)) !== 21.5) fail('the value is gone after a restart');
    log('embedded: device and value kept across a restart (volume /data)');
    await until('Docker reports the container healthy (HEALTHCHECK)', () => docker('inspect', '-f', '{{.State.Health.Status}}', name) === 'healthy', 60_000);
    log('embedded: HEALTHCHECK healthy');
  } finally {
    try {
      docker('rm', '-f', name);
      docker('volume', 'rm', volume);
    } catch {
      // already gone
    }
  }
}

async function external() {
  const name = `iot-check-external-${RUN}`;
  const db = await createDatabase(PG, 'docker_check');
  const port = await freePort();
  try {
    docker('run', '-d', '--name', name, '--network', 'host', '-e', `PORT=${port}`, '-e', `DATABASE_URL=${db.url}`, '-e', `REDIS_URL=${REDIS}`,
      // A share group of its own: other consoles on this Mosquitto (tests) must not take its devices' messages.
      '-e', `MQTT_URL=${BROKER}`, '-e', `MQTT_CLIENT_ID=iot-docker-check-${RUN}`, '-e', `MQTT_SHARE_GROUP=iot-docker-check-${RUN}`,
      '-e', 'CAPTCHA=off', '-e', 'DEMO=off',
      '-e', `ADMIN_PASSWORD=${ADMIN.password}`, IMAGE);
    const base = `http://127.0.0.1:${port}`;
    const checks = await ready(base, name);
    for (const part of ['database', 'broker', 'redis']) if (checks[part] !== 'ok') fail(`/readyz: ${part} is ${checks[part]}`);
    log(`external: ready ${JSON.stringify(checks)}`);
    const c = api(base);
    await c.login();
    const d = await addDevice(c);
    // The machine's Mosquitto takes devices without credentials (OPERATIONS.md configures them).
    await publish(BROKER, { clientId: `${d.sn}-dev` }, d.sn, 7.25);
    await until('the value published through Mosquitto is stored', async () => (await latestT(c, d.id)) === 7.25);
    log('external: PostgreSQL, Redis and Mosquitto; a device through Mosquitto is stored');
  } finally {
    try {
      docker('rm', '-f', name);
    } catch {
      // already gone
    }
    await db.drop();
  }
}

// Fetch's sockets do not hold the process open: while a container starts nothing else would.
const awake = setInterval(() => {}, 1000);
try {
  if (!process.argv.includes('--no-build')) {
    log(`building ${IMAGE}`);
    execFileSync('docker', ['build', '--network', 'host', '-t', IMAGE, root], { stdio: 'inherit' });
  }
  log(`image ${IMAGE}: ${(Number(docker('image', 'inspect', '-f', '{{.Size}}', IMAGE)) / 1e6).toFixed(0)} MB`);
  await embedded();
  await external();
  log('docker check passed');
  clearInterval(awake);
} catch (e) {
  console.error(e instanceof CheckFailed ? `docker check FAILED: ${e.message}` : e);
  process.exit(1);
}
