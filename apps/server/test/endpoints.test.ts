import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, PUBLIC, endpoint, noDataSchema } from '@iot/contract';
import { API_PREFIX } from '../src/plugins/auth.js';
import { NOT_ENDPOINTS } from '../src/plugins/endpoint.js';
import { ok } from '../src/plugins/envelope.js';
import { buildTestApp, type TestApp } from './helpers.js';

/**
 * One endpoint table (docs/ARCHITECTURE.md): the server's routes under /api/v1 are exactly the
 * contract's declarations, or the server does not start (and `npm run check`, which builds it
 * for the OpenAPI check, fails).
 */
describe('endpoint table parity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('the declared table equals the registered routes: method, path and permission', () => {
    const line = (method: string, url: string, permission: unknown) => `${method} ${url} ${JSON.stringify(permission)}`;
    const declared = ENDPOINTS.map((ep) => line(ep.method, API_PREFIX + ep.path, ep.permission)).sort();
    const registered = t.app.apiRoutes
      .filter((r) => !NOT_ENDPOINTS.has(`${r.method} ${r.url}`))
      .map((r) => line(r.method, r.url, r.permission))
      .sort();
    expect(registered).toEqual(declared);
    expect(new Set(declared).size).toBe(declared.length);
    // The one exemption is the live channel's WebSocket, and it is registered.
    expect([...NOT_ENDPOINTS]).toEqual([`GET ${API_PREFIX}/ws`]);
    expect(t.app.apiRoutes.some((r) => r.method === 'GET' && r.url === `${API_PREFIX}/ws`)).toBe(true);
  });

  it('every state-changing endpoint names its audit action or says it has none', () => {
    const silent = ENDPOINTS.filter((ep) => ep.method !== 'GET' && ep.audit === undefined);
    expect(silent.map((ep) => `${ep.method} ${ep.path}`)).toEqual([]);
  });
});

describe('endpoint table enforcement', () => {
  it('refuses a route under /api/v1 that is not declared', async () => {
    const t = await buildTestApp();
    try {
      expect(() =>
        t.app.get(`${API_PREFIX}/undeclared`, { config: { permission: PUBLIC } }, async () => ok(null)),
      ).toThrow(/GET \/api\/v1\/undeclared is not declared/);
      // Outside /api/v1 (the console's files) nothing is required.
      expect(() => t.app.get('/not-api', async () => 'x')).not.toThrow();
    } finally {
      await t.close();
    }
  });

  it('refuses a route made from a declaration that is not in the table', async () => {
    const t = await buildTestApp();
    try {
      const lookAlike = endpoint({ method: 'GET', path: '/undeclared', permission: PUBLIC, tags: ['test'], data: noDataSchema });
      expect(() =>
        t.app.get(`${API_PREFIX}/undeclared`, { config: { permission: PUBLIC, endpoint: lookAlike } }, async () => ok(null)),
      ).toThrow(/not declared/);
    } finally {
      await t.close();
    }
  });

  it('refuses to start when a declared endpoint has no route', async () => {
    const ghost = endpoint({ method: 'GET', path: '/ghost/list', permission: PUBLIC, tags: ['test'], data: noDataSchema });
    let t: TestApp | undefined;
    try {
      t = await buildTestApp({}, { endpoints: [...ENDPOINTS, ghost] });
      await expect(t.app.ready()).rejects.toThrow('Declared endpoints without a server route: GET /ghost/list');
    } finally {
      // The failed start leaves the services running: stop them as a normal close would.
      await t?.app.close().catch(() => undefined);
      await t?.database.close();
    }
  });
});
