import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

/** The probes of load balancers (issue #37): no session, no data, 503 naming what is down. */
describe('health and readiness probes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('/healthz answers without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz checks the database, and answers 503 naming a part that is down or silent', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    // A lone instance leads (decision 0038): it says so, beside the checks.
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' }, leader: true });

    t.app.readiness.set('broker', async () => {
      throw new Error('not connected to the external broker');
    });
    t.app.readiness.set('redis', () => new Promise(() => undefined));
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', broker: 'not connected to the external broker', redis: 'no answer within 2000 ms' },
      leader: true,
    });
    t.app.readiness.delete('broker');
    t.app.readiness.delete('redis');
  });
});
