import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/** Errors browsers report (POST /client/errors) and their log (issue #39). */
describe('browser error log', () => {
  let t: TestApp;
  let admin: string;
  let sub: string;
  const report = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/v1/client/errors', payload, headers: { 'user-agent': 'TestBrowser/1.0', ...headers } });
  const list = async (query = '') =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/logs/clienterrors?${query}`, headers: bearer(admin) })).json();

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.login();
    await t.createUser({ username: 'ce-admin', password: 'ce-admin-pass', role: 'ADMIN' });
    sub = await t.login('ce-admin', 'ce-admin-pass');
  });
  afterAll(() => t.close());

  it('keeps a report without a session: the route without its query, the build, the browser', async () => {
    const res = await report({
      kind: 'error',
      message: 'TypeError: x is undefined',
      stack: 'at DeviceTable (assets/DeviceTable-abc.js:1:200)',
      route: '/device/list?q=secret-term#top',
      version: '0.1.0+abc1234',
    });
    expect(res.json()).toMatchObject({ code: 20000 });
    const page = await list('q=x%20is%20UNDEFINED');
    expect(page.code).toBe(20000);
    expect(page.data.items).toEqual([
      expect.objectContaining({
        kind: 'error',
        message: 'TypeError: x is undefined',
        route: '/device/list',
        version: '0.1.0+abc1234',
        userAgent: 'TestBrowser/1.0',
      }),
    ]);
    // Filters: kind, route prefix, version.
    await report({ kind: 'chunk', message: 'Failed to fetch dynamically imported module', route: '/sys/menu', version: '0.1.0+def5678' });
    expect((await list('kind=chunk&route=/sys')).data.items.map((e: { route: string }) => e.route)).toEqual(['/sys/menu']);
    expect((await list('route=/device')).data.items).toHaveLength(1);
    expect((await list('version=0.1.0%2Bdef5678')).data.items).toHaveLength(1);
    expect((await list('version=0.1.0%2B')).data.items).toHaveLength(0); // a version is matched whole
    expect((await list('q=x%20is%20undefined&order=asc')).data.items.map((e: { kind: string }) => e.kind)).toEqual(['error']);
  });

  it('refuses a report over its size, naming the field', async () => {
    const res = await report({ kind: 'error', message: 'x'.repeat(501), route: '/', version: '1' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('message');
    const bad = await report({ kind: 'crash', message: 'x', route: '/', version: '1' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('kind');
  });

  it('only a holder of log:client reads them (the super administrator by default)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/logs/clienterrors', headers: bearer(sub) });
    expect(res.statusCode).toBe(403);
    const anon = await t.app.inject({ method: 'GET', url: '/api/v1/logs/clienterrors' });
    expect(anon.statusCode).toBe(401);
  });

  it('exports the filtered reports as a spreadsheet in the language asked', async () => {
    await report({ kind: 'chunk', message: 'Loading chunk 7 failed', route: '/card/index', version: '0.1.0' });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/logs/clienterrorexport?kind=chunk&route=/card&lang=es', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = XLSX.read(res.rawPayload);
    const rows = XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(['Hora', 'Tipo', 'Mensaje', 'Página', 'Versión', 'Navegador', 'Pila']);
    expect(rows).toHaveLength(2);
    expect(rows[1]![2]).toBe('Loading chunk 7 failed');
    expect(rows[1]![3]).toBe('/card/index');
  });

  it('takes at most 20 reports a minute from one address', async () => {
    const from = { 'x-forwarded-for': '203.0.113.9' };
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) {
      codes.push((await t.app.inject({
        method: 'POST',
        url: '/api/v1/client/errors',
        remoteAddress: '203.0.113.9',
        headers: from,
        payload: { kind: 'rejection', message: `burst ${i}`, route: '/', version: '1' },
      })).statusCode);
    }
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(20);
    expect(codes).toContain(429);
  });
});
