import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { touchIntervalMs } from '../src/modules/auth/auth.service.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/**
 * SESSION_TTL=60: a session used every 15 s must never expire. Time is simulated by moving the
 * session's timestamps back, as if the requests had come 15 s apart.
 */
describe('sliding session expiry with a short TTL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SESSION_TTL: '60' });
  });
  afterAll(() => t.close());

  const age = async (seconds: number) => {
    await t.database.db.execute(
      sql`update sessions set last_used_at = last_used_at - make_interval(secs => ${seconds}),
          expires_at = expires_at - make_interval(secs => ${seconds})`,
    );
    await t.app.authSync();
  };
  const info = async (token: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(token) })).json().code;

  it('writes the expiry at most every min(60 s, TTL / 4)', () => {
    expect(touchIntervalMs(60)).toBe(15_000);
    expect(touchIntervalMs(12 * 3600)).toBe(60_000);
  });

  it('a session used every 15 s stays alive for many lifetimes', async () => {
    const token = await t.login();
    for (let step = 1; step <= 12; step++) {
      await age(15);
      expect(await info(token), `after ${step * 15} s`).toBe(20000);
    }
  });

  it('an idle session still expires after the TTL', async () => {
    const token = await t.login();
    await age(61);
    expect(await info(token)).toBe(ErrorCode.TOKEN_EXPIRED);
  });
});
