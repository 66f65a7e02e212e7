import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/**
 * API answers carry personal data: none is kept by a browser or a proxy (`Cache-Control:
 * no-store`), whether data, download or error. The console's own files keep their caching.
 */
describe('Cache-Control on API answers', () => {
  let t: TestApp;
  let token: string;
  let dist: string;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-nostore1.js'), 'console.log(1)');
    t = await buildTestApp({ WEB_DIST: dist });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = bearer(token)) => t.app.inject({ method: 'GET', url, headers });

  it('the signed-in user’s own data is never stored', async () => {
    const res = await get('/api/v1/user/info');
    expect(res.json().code).toBe(20000);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('downloads are never stored: an .xlsx export and a template', async () => {
    for (const url of ['/api/v1/device/export?lang=en', '/api/v1/device/importtemplate?lang=en']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('errors are never stored: no token, bad input, an unknown API path', async () => {
    const answers = await Promise.all([
      get('/api/v1/user/info', {}),
      get('/api/v1/device/export?lang=xx'),
      get('/api/v1/no/such/route'),
      t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: '{"bad json', headers: { 'content-type': 'application/json' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([401, 400, 404, 400]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the console’s files keep their own caching', async () => {
    const asset = await get('/assets/app-nostore1.js', {});
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await get('/devices', {});
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
