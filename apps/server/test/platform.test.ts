import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, ErrorCode, PUBLIC, endpoint, noDataSchema } from '@iot/contract';
import { COMPRESS_MIN_BYTES } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      mqttPort: 1883,
      adminUsername: 'admin',
      captcha: true,
      // Embedded database: the demo fleet is created on an empty one.
      demo: 'auto',
      sessionTtl: 12 * 3600,
      loginLockout: true,
    });
    expect(c.dataDir).toBe(path.resolve('./data'));
  });

  it('takes 100,000-row imports on PostgreSQL and 20,000 on the embedded database by default', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).importMaxRows).toBe(100_000);
    expect(loadConfig({}).importMaxRows).toBe(20_000);
    expect(loadConfig({ IMPORT_MAX_ROWS: '50000' }).importMaxRows).toBe(50_000);
    expect(() => loadConfig({ IMPORT_MAX_ROWS: '200000' })).toThrow(/IMPORT_MAX_ROWS/);
  });

  it('takes firmware uploads of FIRMWARE_MAX_MB, 128 MB by default', () => {
    expect(loadConfig({}).firmwareMaxBytes).toBe(128 * 1024 * 1024);
    expect(loadConfig({ FIRMWARE_MAX_MB: '512' }).firmwareMaxBytes).toBe(512 * 1024 * 1024);
    expect(() => loadConfig({ FIRMWARE_MAX_MB: '0' })).toThrow(/FIRMWARE_MAX_MB/);
    expect(() => loadConfig({ FIRMWARE_MAX_MB: 'lots' })).toThrow(/FIRMWARE_MAX_MB/);
  });

  it('runs the demo fleet by default only with the embedded database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).demo).toBe('off');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DEMO: 'on' }).demo).toBe('on');
    expect(loadConfig({ DEMO: 'off' }).demo).toBe('off');
    expect(loadConfig({ DEMO: '' }).demo).toBe('auto');
    expect(() => loadConfig({ DEMO: 'yes' })).toThrow(/DEMO/);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', CAPTCHA: 'maybe', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', CAPTCHA: 'maybe', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      const msg = (err as Error).message;
      expect(msg).toMatch(/PORT:/);
      expect(msg).toMatch(/CAPTCHA:/);
      expect(msg).toMatch(/DATABASE_URL:/);
    }
  });

  it('reads the external broker settings: credentials from the URL unless given, a stable client id', () => {
    const c = loadConfig({ MQTT_URL: 'mqtts://console%40fleet:p%3Ass@broker.example:8883' });
    expect(c).toMatchObject({
      mqttUrl: 'mqtts://console%40fleet:p%3Ass@broker.example:8883',
      mqttUsername: 'console@fleet',
      mqttPassword: 'p:ss',
      mqttShareGroup: 'iot-console',
      mqttSessionExpiry: 3600,
    });
    expect(c.mqttClientId).toBe(`iot-console-${os.hostname().replace(/[^A-Za-z0-9_.:-]/g, '_')}`);
    expect(loadConfig({ MQTT_URL: 'mqtt://u:p@b', MQTT_USERNAME: 'other', MQTT_PASSWORD: 'secret' })).toMatchObject({ mqttUsername: 'other', mqttPassword: 'secret' });
    expect(loadConfig({ MQTT_SHARE_GROUP: 'fleet-a', MQTT_CLIENT_ID: 'console-1' })).toMatchObject({ mqttShareGroup: 'fleet-a', mqttClientId: 'console-1' });
    expect(() => loadConfig({ MQTT_SHARE_GROUP: 'a/b' })).toThrow(/MQTT_SHARE_GROUP/);
    expect(() => loadConfig({ MQTT_URL: 'http://broker' })).toThrow(/MQTT_URL/);
    expect(() => loadConfig({ BROKER_AUTH_SECRET: 'short' })).toThrow(/BROKER_AUTH_SECRET/);
  });

  it('reads durations with units', () => {
    expect(loadConfig({ SESSION_TTL: '30m' }).sessionTtl).toBe(1800);
    expect(loadConfig({ SESSION_TTL: '7d' }).sessionTtl).toBe(7 * 86400);
    expect(() => loadConfig({ SESSION_TTL: '10s' })).toThrow(/SESSION_TTL/);
  });
});

describe('envelope, docs and the served console', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    // A test-only route, declared like every route under /api/v1 (the endpoint table).
    const boom = endpoint({ method: 'GET', path: '/test/boom', permission: PUBLIC, tags: ['test'], data: noDataSchema });
    t = await buildTestApp({ WEB_DIST: dist }, { endpoints: [...ENDPOINTS, boom] });
    t.app.get('/api/v1/test/boom', { config: { permission: 'public', endpoint: boom } }, async () => {
      throw new Error('database exploded at secret.ts:12');
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('site config is public and localised', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.json().code).toBe(20000);
    expect(Object.keys(res.json().data)).toEqual(
      expect.arrayContaining(['title', 'titleEn', 'titleEs', 'titleJa', 'particleBackground', 'particleButton']),
    );
  });

  it('unknown API paths answer a 404 envelope, never the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: ErrorCode.NOT_FOUND, data: null });
  });

  it('an unexpected failure is a 500 envelope without details', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: ErrorCode.SERVER_ERROR, message: 'Internal server error', data: null });
  });

  it('client routes fall back to index.html; assets are served with long caching', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/device/type' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missing.statusCode).toBe(404);
    // A rebuilt console is served without a restart.
    fs.writeFileSync(path.join(dist, 'assets', 'app-new456.js'), 'console.log(2)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/app-new456.js' })).body).toBe('console.log(2)');
  });

  it("a file is sent as the build's brotli or gzip copy when the browser takes it", async () => {
    const js = `console.log(${JSON.stringify('x'.repeat(4000))})`;
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc.js'), js);
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc.js.br'), zlib.brotliCompressSync(js));
    fs.writeFileSync(path.join(dist, 'assets', 'big-abc.js.gz'), zlib.gzipSync(js));
    const get = (encoding?: string) =>
      t.app.inject({ method: 'GET', url: '/assets/big-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('a large API answer is compressed for a browser that takes it, a small one is not', async () => {
    const doc = (encoding?: string) =>
      t.app.inject({ method: 'GET', url: '/api/docs/json', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const plain = await doc();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const br = await doc('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gz = await doc('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const small = await t.app.inject({ method: 'GET', url: '/api/v1/config', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().code).toBe(20000);
  });

  it('the console address itself serves the console: /, /?x=1, HEAD / and folders', async () => {
    for (const url of ['/', '/?x=1', '/assets/', '/assets']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/v1/user/login'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/v1/user/info'].get).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});
