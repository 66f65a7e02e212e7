import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { SessionCache } from '../src/modules/auth/session-cache.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/**
 * A signed-in request's session, user and role codes come from memory for SESSION_CACHE_TTL
 * seconds; every change to them, committed anywhere, is heard at once.
 */
describe('the session cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SESSION_CACHE_TTL: '2' });
  });
  afterAll(() => t.close());

  const code = async (token: string, url = '/user/info') =>
    (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) })).json().code as number;
  const sessionOf = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(token) });
    expect(res.json().code).toBe(20000);
  };
  /** Revokes a user's sessions with the database's triggers off: no notification is sent. */
  const revokeUnheard = (username: string) =>
    t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update sessions set revoked_at = now(), revoked_reason = 'admin'
        where user_id = (select id from users where username = ${username}) and revoked_at is null`);
    });

  it('serves a session from memory, and no longer than SESSION_CACHE_TTL past a change it did not hear', async () => {
    await t.createUser({ username: 'quiet', password: 'quiet-pass-1', role: 'ADMIN' });
    const token = await t.login('quiet', 'quiet-pass-1');
    await sessionOf(token);
    await revokeUnheard('quiet');
    // Nothing told the cache: the session it read a moment ago is still served…
    expect(await code(token)).toBe(20000);
    // …until its two seconds are up; then the database says it ended.
    await new Promise((r) => setTimeout(r, 2100));
    expect(await code(token)).toBe(ErrorCode.TOKEN_REVOKED);
  });

  it('a session revoked behind the API’s back is refused at its next request', async () => {
    const token = await t.login();
    await sessionOf(token);
    await t.database.db.execute(sql`update sessions set revoked_at = now(), revoked_reason = 'admin'
      where user_id = 1 and revoked_at is null`);
    await t.app.authSync();
    expect(await code(token)).toBe(ErrorCode.TOKEN_REVOKED);
  });

  it('a user disabled or a grant taken away behind the API’s back is seen at the next request', async () => {
    await t.createUser({ username: 'op', password: 'op-pass-1', role: 'ADMIN' });
    const token = await t.login('op', 'op-pass-1');
    expect(await code(token, '/role/getlist')).toBe(20000);
    await t.database.db.execute(sql`delete from role_permissions where role_id = (select id from roles where identification = 'ADMIN')
      and permission_id = (select id from permissions where identification = 'role:list')`);
    await t.app.authSync();
    expect(await code(token, '/role/getlist')).toBe(ErrorCode.FORBIDDEN);
    expect(await code(token)).toBe(20000);
    await t.database.db.execute(sql`update users set enabled = false where username = 'op'`);
    await t.app.authSync();
    expect(await code(token)).toBe(ErrorCode.TOKEN_REVOKED);
  });

  it('logging out ends the session at once', async () => {
    const token = await t.login();
    await sessionOf(token);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: bearer(token) });
    expect(out.json().code).toBe(20000);
    expect(await code(token)).toBe(ErrorCode.TOKEN_REVOKED);
  });

  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'serves nothing from memory while its listener is down, and again once it listens',
    async () => {
      const until = async (what: () => Promise<boolean>, ms = 4000) => {
        const end = Date.now() + ms;
        while (!(await what())) {
          if (Date.now() > end) throw new Error('not within the time');
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await t.createUser({ username: 'down', password: 'down-pass-1', role: 'ADMIN' });
      const token = await t.login('down', 'down-pass-1');
      await sessionOf(token);
      await t.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'listen auth_changed'`);
      await revokeUnheard('down');
      // Refused well before the cache's two seconds: a dropped listener empties it.
      const started = Date.now();
      await until(async () => (await code(token)) === ErrorCode.TOKEN_REVOKED, 1500);
      expect(Date.now() - started).toBeLessThan(1500);
      // Reconnected (after about a second), it serves again: an unheard revocation is not seen.
      const again = await t.login('down', 'down-pass-1');
      await until(async () => {
        await t.database.db.transaction(async (tx) => {
          await tx.execute(sql`set local session_replication_role = replica`);
          await tx.execute(sql`update sessions set revoked_at = null where user_id = (select id from users where username = 'down')`);
        });
        await sessionOf(again);
        await revokeUnheard('down');
        return (await code(again)) === 20000;
      });
    },
  );
});

describe('SessionCache', () => {
  const auth = { sessionId: 7, userId: 1, username: 'a', type: 0, path: '/1/', roleId: 1, role: 'ADMIN', language: 'en' };
  const read = { auth, expiresAt: 10_000, lastUsedAt: 0 };

  it('keeps nothing while not listening, and forgets what it held when the listener drops', () => {
    const c = new SessionCache(5000);
    c.put('h', read, c.epoch(), 0);
    expect(c.get('h', 1)).toBeUndefined();
    c.setLive(true);
    c.put('h', read, c.epoch(), 0);
    expect(c.get('h', 1)?.auth).toBe(auth);
    c.setLive(false);
    expect(c.get('h', 1)).toBeUndefined();
  });

  it('drops a read that a change overtook, and what the notifications name', () => {
    const c = new SessionCache(5000);
    c.setLive(true);
    const before = c.epoch();
    c.heard('s:99');
    c.put('h', read, before, 0);
    expect(c.get('h', 1)).toBeUndefined();
    c.put('h', read, c.epoch(), 0);
    c.heard('s:8,9');
    expect(c.get('h', 1)?.auth).toBe(auth);
    c.heard('s:7');
    expect(c.get('h', 1)).toBeUndefined();
    c.put('h', read, c.epoch(), 0);
    c.heard('*');
    expect(c.get('h', 1)).toBeUndefined();
  });

  it('serves a session neither past its TTL nor past its expiry, and holds at most its size', () => {
    const c = new SessionCache(5000, 2);
    c.setLive(true);
    c.put('h', read, c.epoch(), 0);
    expect(c.get('h', 4999)).toBeDefined();
    expect(c.get('h', 5000)).toBeUndefined();
    c.put('h', { ...read, expiresAt: 100 }, c.epoch(), 0);
    expect(c.get('h', 100)).toBeUndefined();
    for (const [i, h] of ['a', 'b', 'c'].entries()) c.put(h, { ...read, auth: { ...auth, sessionId: i } }, c.epoch(), 0);
    expect(c.get('a', 1)).toBeUndefined();
    expect(c.get('c', 1)).toBeDefined();
  });
});
