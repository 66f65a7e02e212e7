import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';

const root = path.resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** The real server process (main.ts), as `npm start` runs it. */
function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', CAPTCHA: 'off', DEMO: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => {});
  return child;
}

async function waitUp(port: number, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/v1/config`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A fresh database of its own on PostgreSQL (TEST_DB=postgres): its URL. */
async function createPgDatabase(name: string): Promise<string> {
  const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * What each suite below runs its server processes in: a data directory, a PostgreSQL database of
 * its own when TEST_DB=postgres (created by `database()`), and the child processes to kill.
 * `cleanup()` undoes all of it.
 */
function scratch(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `iot-${prefix}-`));
  const pgName = `iot_${prefix.replace(/-/g, '_')}_${crypto.randomBytes(5).toString('hex')}`;
  const usePg = process.env.TEST_DB === 'postgres';
  const children: ChildProcess[] = [];
  return {
    dataDir,
    usePg,
    children,
    /** The DATABASE_URL for the server: a fresh PostgreSQL database, or '' for PGlite in dataDir. */
    databaseUrlOf: () => (usePg ? createPgDatabase(pgName) : Promise.resolve('')),
    async cleanup() {
      for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (usePg) {
        const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await c.connect();
        await c.query(`drop database if exists ${pgName} with (force)`);
        await c.end();
      }
    },
  };
}

/** Calls the API of the server process on `port`. */
const apiOf = (port: number) => async (method: string, url: string, token?: string, body?: object) => {
  const r = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await r.json()) as { code: number; data: any };
};

/** Logs in to the running server as its administrator and registers one battery device. */
async function registerDevice(port: number, sn: string): Promise<{ id: number; secret: string }> {
  const api = apiOf(port);
  const login = await api('POST', '/user/login', undefined, { username: 'admin', password: 'crash-admin-pass', captcha: '', key: '' });
  const token = login.data.token as string;
  const types = await api('GET', '/devicetype/typeoptionslist', token);
  const typeId = types.data.find((x: { code: string }) => x.code === 'BMU').id;
  const added = await api('POST', '/device/add', token, { name: 'Crash rack', sn, typeId });
  return added.data as { id: number; secret: string };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/**
 * At least once, for real: a device streams QoS 1 telemetry, the server process is killed with
 * SIGKILL mid-stream, and after a restart every message whose PUBACK the device received is in the
 * database.
 */
describe('crash safety of the ingestion path', () => {
  const { dataDir, usePg, children, databaseUrlOf, cleanup } = scratch('crash');
  let databaseUrl = '';

  afterAll(cleanup);

  it('keeps every acknowledged QoS 1 message through a SIGKILL', { timeout: 180_000 }, async () => {
    databaseUrl = await databaseUrlOf();
    const [port, mqttPort] = [await freePort(), await freePort()];
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'crash-admin-pass',
      // The device streams as fast as it can: past the default rate it would be held back.
      DEVICE_RATE_LIMIT: '100000',
    };
    let server = startServer(env);
    children.push(server);
    await waitUp(port);

    const { id: deviceId, secret } = await registerDevice(port, 'CRASH-1');

    // The device streams; each message has its own device time, so it can be found afterwards.
    const client = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, { username: 'CRASH-1', password: secret, clientId: 'CRASH-1', reconnectPeriod: 0 });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    client.on('error', () => {});
    const base = Date.now() - 60_000;
    const acked: number[] = [];
    let i = 0;
    let killed = false;
    const inFlight = new Set<Promise<void>>();
    while (!killed) {
      const ts = base + i++;
      const p = client
        .publishAsync('dev/CRASH-1/telemetry', JSON.stringify({ ts, values: { '02109001': i % 100 } }), { qos: 1 })
        .then(() => {
          acked.push(ts);
        })
        .catch(() => undefined)
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 20) await Promise.race(inFlight);
      if (acked.length >= 300 && !killed) {
        server.kill('SIGKILL');
        killed = true;
      }
    }
    await exited(server);
    client.end(true);
    const ackedAtKill = [...acked];
    expect(ackedAtKill.length).toBeGreaterThanOrEqual(300);

    // Restart on the same data; then read the database directly.
    server = startServer(env);
    children.push(server);
    await waitUp(port);
    server.kill('SIGTERM');
    await exited(server);

    const database = await openDatabase(usePg ? { databaseUrl } : { dataDir });
    try {
      const rows = (await database.db.execute(
        sql`select (extract(epoch from ts) * 1000)::bigint as ms from telemetry where device_id = ${deviceId}`,
      )) as unknown as { rows: { ms: string | number }[] };
      const stored = new Set(rows.rows.map((r) => Number(r.ms)));
      const lost = ackedAtKill.filter((ts) => !stored.has(ts));
      expect(lost, `${lost.length} acknowledged messages lost`).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

/**
 * Graceful shutdown with a backlog: a device keeps many QoS 1 messages in flight, so that the
 * server holds taken-but-unacknowledged messages in its queue when SIGTERM arrives. The process
 * must exit on its own (not by the 10 s forced exit) after draining, every message whose PUBACK
 * the device received is in the database, and every message stored was acknowledged.
 */
describe('SIGTERM drains the ingestion queue', () => {
  const { dataDir, usePg, children, databaseUrlOf, cleanup } = scratch('term');

  afterAll(cleanup);

  it('keeps every acknowledged QoS 1 message when SIGTERM arrives mid-stream', { timeout: 180_000 }, async () => {
    const databaseUrl = await databaseUrlOf();
    const [port, mqttPort] = [await freePort(), await freePort()];
    const server = startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'crash-admin-pass',
      DEVICE_RATE_LIMIT: '100000',
    });
    children.push(server);
    await waitUp(port);
    const { id: deviceId, secret } = await registerDevice(port, 'TERM-1');

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      username: 'TERM-1',
      password: secret,
      clientId: 'TERM-1',
      reconnectPeriod: 0,
    });
    client.on('error', () => {});
    const base = Date.now() - 60_000;
    const acked: number[] = [];
    const inFlight = new Set<Promise<void>>();
    let i = 0;
    let terminated = false;
    let ackedAtTerm = 0;
    let exitCode: number | null = null;
    const exit = new Promise<void>((resolve) =>
      server.once('exit', (code) => {
        exitCode = code;
        resolve();
      }),
    );
    // Up to 400 messages in flight: the server's queue is never empty while the stream runs.
    while (!terminated) {
      const ts = base + i++;
      const p = client
        .publishAsync('dev/TERM-1/telemetry', JSON.stringify({ ts, values: { '02109001': i % 100 } }), { qos: 1 })
        .then(() => {
          acked.push(ts);
        })
        .catch(() => undefined)
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 400) await Promise.race(inFlight);
      if (acked.length >= 1000) {
        ackedAtTerm = acked.length;
        server.kill('SIGTERM');
        terminated = true;
      }
    }
    const inFlightAtTerm = inFlight.size;
    await exit;
    client.end(true);
    // Drained and exited on its own: 0, not the forced exit (1) after 10 s.
    expect(exitCode).toBe(0);
    expect(inFlightAtTerm).toBeGreaterThan(0);

    const database = await openDatabase(usePg ? { databaseUrl } : { dataDir });
    try {
      const rows = (await database.db.execute(
        sql`select (extract(epoch from ts) * 1000)::bigint as ms from telemetry where device_id = ${deviceId}`,
      )) as unknown as { rows: { ms: string | number }[] };
      const stored = new Set(rows.rows.map((r) => Number(r.ms)));
      const lost = acked.filter((ts) => !stored.has(ts));
      expect(lost, `${lost.length} acknowledged messages lost`).toEqual([]);
      // The backlog was written, not dropped: more than what was acknowledged when SIGTERM came
      // is stored, each message once (whether its PUBACK still reached the device before the
      // broker closed or not: a message stored but not acknowledged is sent again and stored once).
      expect(stored.size).toBeGreaterThan(ackedAtTerm);
      expect(rows.rows.length).toBe(stored.size);
      // What was stored was acknowledged: the queue is written while the connections are open, so
      // the device is never left to resend what the server already has.
      expect(acked.length).toBe(stored.size);
    } finally {
      await database.close();
    }
  });
});

/**
 * The same with an external broker (MQTT_URL, the machine's Mosquitto): the device's PUBACK comes
 * from the broker, so what must survive is the console's side. The server is killed mid-stream,
 * the device goes on publishing while it is down, and after a restart (same client id, so the
 * same persistent session) every message the broker acknowledged is in the database.
 */
describe('crash safety with an external broker', () => {
  const BROKER = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';
  const run = crypto.randomBytes(4).toString('hex');
  const clientId = `iot-crash-${run}`;
  const sn = `CRASH-EXT-${run}`;
  const { dataDir, usePg, children, databaseUrlOf, cleanup } = scratch('crash-ext');

  afterAll(async () => {
    await cleanup();
    // End the console's session at the broker.
    const c = await mqtt.connectAsync(BROKER, { clientId, clean: true, protocolVersion: 5, reconnectPeriod: 0 }).catch(() => undefined);
    await c?.endAsync();
  });

  it('keeps every message the broker acknowledged through a SIGKILL of the server', { timeout: 180_000 }, async () => {
    let databaseUrl = '';
    databaseUrl = await databaseUrlOf();
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'crash-admin-pass',
      DEVICE_RATE_LIMIT: '100000',
      MQTT_URL: BROKER,
      MQTT_CLIENT_ID: clientId,
      MQTT_SHARE_GROUP: `iot-crash-${run}`,
      MQTT_SESSION_EXPIRY: '300',
    };
    let server = startServer(env);
    children.push(server);
    await waitUp(port);

    const { id: deviceId } = await registerDevice(port, sn);

    const device = await mqtt.connectAsync(BROKER, { clientId: `${sn}-dev`, reconnectPeriod: 0 });
    const base = Date.now() - 60_000;
    const acked: number[] = [];
    const inFlight = new Set<Promise<void>>();
    const publish = (i: number) => {
      const ts = base + i;
      const p = device
        .publishAsync(`dev/${sn}/telemetry`, JSON.stringify({ ts, values: { '02109001': i % 100 } }), { qos: 1 })
        .then(() => {
          acked.push(ts);
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      return p;
    };
    let i = 0;
    // Let the console take part of the stream, then kill it while messages are in flight.
    while (acked.length < 300) {
      void publish(i++);
      if (inFlight.size >= 20) await Promise.race(inFlight);
    }
    server.kill('SIGKILL');
    await exited(server);
    // The device keeps publishing while the console is down: the broker keeps them in its session.
    for (const stop = i + 200; i < stop; ) {
      void publish(i++);
      if (inFlight.size >= 20) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    await device.endAsync();
    const last = base + i - 1;

    server = startServer(env);
    children.push(server);
    await waitUp(port);
    const api = apiOf(port);
    const token2 = (await api('POST', '/user/login', undefined, { username: 'admin', password: 'crash-admin-pass', captcha: '', key: '' })).data
      .token as string;
    // The broker delivers in order: once the last one is in, the rest was taken, and SIGTERM
    // stores what was taken before the process ends.
    await expect
      .poll(async () => Date.parse(((await api('GET', `/device/latest?id=${deviceId}`, token2)).data as { ts: string }[])[0]?.ts ?? ''), {
        timeout: 60_000,
      })
      .toBe(last);
    server.kill('SIGTERM');
    await exited(server);

    const database = await openDatabase(usePg ? { databaseUrl } : { dataDir });
    try {
      const rows = (await database.db.execute(
        sql`select (extract(epoch from ts) * 1000)::bigint as ms from telemetry where device_id = ${deviceId}`,
      )) as unknown as { rows: { ms: string | number }[] };
      const stored = new Set(rows.rows.map((r) => Number(r.ms)));
      const lost = acked.filter((ts) => !stored.has(ts));
      expect(acked.length).toBe(i);
      expect(lost, `${lost.length} acknowledged messages lost`).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
