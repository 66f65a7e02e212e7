import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppDeps } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { roles, users } from '../src/db/schema/index.js';
import { seed } from '../src/db/seed/index.js';
import { hashPassword } from '../src/db/password.js';

export const ADMIN = { username: 'admin', password: 'admin-pass-1' };

/**
 * A fresh database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new database on
 * the server at TEST_DATABASE_URL that is dropped on close. Both start as a copy of the run's
 * migrated template (test/db-template.ts) when the project has one.
 */
export async function openTestDatabase(opts: { statementTimeoutMs?: number; heavyConnections?: number } = {}): Promise<Database> {
  const template = migratedTemplate();
  if (process.env.TEST_DB !== 'postgres') {
    return openDatabase({ dataDir: 'memory://', template: template ? new Blob([fs.readFileSync(template)]) : undefined });
  }
  const created = await createTestPostgres('iot_test', template);
  const database = await openDatabase({ databaseUrl: created.url, ...opts });
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

/** The migrated database of this run (test/db-template.ts), outside the server projects none. */
function migratedTemplate(): string | undefined {
  try {
    return inject('dbTemplate');
  } catch {
    // Not in a test worker: the web components' server (test/web-server.ts) migrates its own.
    return undefined;
  }
}

/**
 * A new database on the server at TEST_DATABASE_URL, empty or a copy of the database `template`:
 * its URL, and how to drop it.
 */
export async function createTestPostgres(prefix = 'iot_test', template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
  /** Logs in through the API and returns the token. */
  login(username?: string, password?: string): Promise<string>;
  /** Creates a user directly (the user admin API arrives with access control). */
  createUser(opts: { username: string; password: string; role: string; type?: number }): Promise<number>;
}

export async function buildTestApp(
  env: Record<string, string> = {},
  deps: Partial<AppDeps> = {},
): Promise<TestApp> {
  const config = loadConfig({
    CAPTCHA: 'off',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent-web-dist',
    // No demo fleet: tests see only the devices they create (a test may set DEMO itself).
    DEMO: 'off',
    // No weather provider: never the real network (a test may point WEATHER_URL at test/open-meteo.ts).
    WEATHER_URL: 'off',
    // Every answer checked by zod beside the compiled serializer (lib/serializer.ts).
    RESPONSE_CHECK: 'on',
    // Files the server keeps (firmware uploads) go to a folder of the test's own, never ./data.
    DATA_DIR: env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'iot-test-')),
    ...env,
  });
  // A database passed in is another instance's (test/cluster.test.ts): seeded there, closed by its owner.
  const shared = deps.database;
  const database = shared ?? (await openTestDatabase({ statementTimeoutMs: config.statementTimeoutMs, heavyConnections: config.heavyReads.total }));
  if (!shared) await seed(database.db, { adminUsername: config.adminUsername, adminPassword: config.adminPassword });
  const app = await buildApp(config, { logger: false, ...deps, database });
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      if (!shared) await database.close();
      if (!env.DATA_DIR) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
    async login(username = ADMIN.username, password = ADMIN.password) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/user/login',
        payload: { username, password },
      });
      const body = res.json();
      if (body.code !== 20000) throw new Error(`login failed: ${res.body}`);
      return body.data.token as string;
    },
    async createUser({ username, password, role, type = 0 }) {
      const db = database.db;
      const [r] = await db.select({ id: roles.id }).from(roles).where(eq(roles.identification, role));
      const [u] = await db
        .insert(users)
        .values({ username, passwordHash: await hashPassword(password), roleId: r!.id, type, parentId: 1 })
        .returning({ id: users.id });
      await db.update(users).set({ path: `/1/${u!.id}/` }).where(eq(users.id, u!.id));
      return u!.id;
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A multipart body with one file field, as a browser sends it. */
export function multipart(filename: string, data: Buffer) {
  const boundary = `----iotconsole${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export interface EnvelopeJson {
  code: number;
  message: string;
  data: any;
}

/**
 * Calls the API as one of several logged-in users (tokens by name), resolving the test app
 * lazily because suites build it in beforeAll. `ok` throws unless the answer is 20000.
 */
export function apiAs(app: () => TestApp, tokens: Record<string, string>) {
  const call = async (who: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) => {
    const res = await app().app.inject({
      method,
      url: `/api/v1${url}`,
      headers: bearer(tokens[who]!),
      payload: method === 'POST' ? body : undefined,
    });
    return res.json() as EnvelopeJson;
  };
  const ok = async (who: string, method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) => {
    const r = await call(who, method, url, body);
    if (r.code !== 20000) throw new Error(`${url}: ${JSON.stringify(r)}`);
    return r.data;
  };
  return { call, ok };
}

/** A device registered through the API as the holder of `token`: its id, SN and one-time secret. */
export async function addTestDevice(app: FastifyInstance, token: string, typeId: number, sn: string) {
  const r = (await app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(token), payload: { name: `Rack ${sn}`, sn, typeId } })).json();
  if (r.code !== 20000) throw new Error(`device/add ${sn}: ${JSON.stringify(r)}`);
  return { id: r.data.id as number, sn, secret: r.data.secret as string };
}

/**
 * An mqtt.js device connected to the embedded broker on `port` with its SN and secret, its client
 * id `<SN>@<random>` (docs/PROTOCOL.md) unless `extra` names one; kept in `clients` to be closed.
 */
export function connectTestDevice(port: number, d: { sn: string; secret: string }, clients: MqttClient[], extra: IClientOptions = {}) {
  return new Promise<MqttClient>((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      username: d.sn,
      password: d.secret,
      clientId: `${d.sn}@${Math.random().toString(36).slice(2)}`,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...extra,
    });
    clients.push(c);
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
}
