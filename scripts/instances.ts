/**
 * Starting real console instances from scripts: the compiled server (`npm run build`) in a
 * process of its own, as `npm start` runs it, on a fresh PostgreSQL database. Shared by
 * `npm run test:cluster` (scripts/cluster-check.ts) and `npm run bench:ingest -- --instances 2`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import pg from 'pg';
import { freePort } from './free-port.js';

const root = path.resolve(import.meta.dirname, '..');

/** The compiled server (`npm run build`), as `npm start` runs it. */
export const SERVER = path.join(root, 'apps/server/dist/main.js');

export class CheckFailed extends Error {}
export const fail = (msg: string): never => {
  throw new CheckFailed(msg);
};

/** Polls `check` until it answers truthy; fails naming `what` past `ms`. */
export async function until<T>(what: string, check: () => Promise<T> | T, ms = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) fail(`timed out after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Instance {
  name: string;
  base: string;
  port: number;
  /** Its MQTT_CLIENT_ID on the external broker. */
  clientId: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

/**
 * The compiled server on a free port with `env`; resolves when /readyz answers 200. Its broker
 * client id is `<clientIdPrefix>-<name>`, so a restarted instance of the same name takes its
 * session back.
 */
export async function startServer(name: string, env: NodeJS.ProcessEnv, clientIdPrefix: string, nodeArgs: string[] = []): Promise<Instance> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first`);
  const port = await freePort();
  const clientId = `${clientIdPrefix}-${name}`;
  const child = spawn(process.execPath, [...nodeArgs, '--enable-source-maps', SERVER], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', MQTT_CLIENT_ID: clientId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  await until(
    `instance ${name} ready`,
    async () => {
      if (child.exitCode !== null) fail(`instance ${name} exited at start:\n${output}`);
      return fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    },
    60_000,
  );
  return { name, base, port, clientId, child, output: () => output, exited, stop };
}

/** A new database on the PostgreSQL server at `baseUrl` (a URL to one of its databases). */
export async function createDatabase(baseUrl: string, prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await c.end();
    },
  };
}

/** Ends the instances' persistent broker sessions (a clean start with their client ids). */
export async function endBrokerSessions(brokerUrl: string, clientIds: string[]): Promise<void> {
  for (const clientId of clientIds) {
    const c = await mqtt.connectAsync(brokerUrl, { clientId, clean: true, protocolVersion: 5, reconnectPeriod: 0 }).catch(() => undefined);
    await c?.endAsync().catch(() => {});
  }
}

/** A counter or gauge of an instance's /metrics (0 when the series is absent). */
export async function metric(i: Pick<Instance, 'name' | 'base'>, token: string, series: string): Promise<number> {
  const res = await fetch(`${i.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) fail(`${i.name} /metrics: ${res.status}`);
  const line = (await res.text()).split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** The console's API as a signed-in administrator would call it: `call` fails the check on any answer but 20000. */
export function consoleApi(base: string, admin: { username: string; password: string }) {
  let token = '';
  const call = async <T = any>(method: string, url: string, body?: unknown): Promise<T> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; message: string; data: T };
    if (json.code !== 20000) fail(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    call,
    async login() {
      token = (await call<{ token: string }>('POST', '/user/login', { ...admin, captcha: '', key: '' })).token;
      return token;
    },
  };
}
