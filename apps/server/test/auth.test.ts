import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { ADMIN, bearer, buildTestApp, type TestApp } from './helpers.js';
import { captchas, sessions } from '../src/db/schema/index.js';

const login = (t: TestApp, payload: object, ip = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload, remoteAddress: ip });

describe('login without captcha (CAPTCHA=off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('logs in with a trimmed username and returns an opaque token and the user', async () => {
    const res = await login(t, { username: `  ${ADMIN.username} `, password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(20000);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.user).toMatchObject({ username: 'admin', type: 0 });
    // Only a hash of the token is stored.
    const rows = await t.database.db.select({ h: sessions.tokenHash }).from(sessions);
    expect(rows.map((r) => r.h)).not.toContain(body.data.token);
  });

  it('rejects a short password with the spec message, naming the field', async () => {
    const res = await login(t, { username: 'admin', password: '12345' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: ErrorCode.VALIDATION,
      message: 'password: the password can not be less than 6 digits',
      data: { field: 'password' },
    });
  });

  it('names a missing field and rejects malformed JSON without a stack trace', async () => {
    const missing = await login(t, { password: 'whatever' });
    expect(missing.json()).toMatchObject({ code: 40000, data: { field: 'username' } });
    expect(missing.json().message).toBe('username: required');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(40000);
    expect(bad.body).not.toMatch(/at .*\.ts|stack/i);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const a = await login(t, { username: 'admin', password: 'wrong-password' }, '10.0.0.1');
    const b = await login(t, { username: 'ghost', password: 'wrong-password' }, '10.0.0.1');
    expect(a.statusCode).toBe(401);
    expect(a.json()).toEqual(b.json());
    expect(a.json().code).toBe(ErrorCode.BAD_CREDENTIALS);
  });

  it('locks a username for one address after 5 failures, even for the right password', async () => {
    const ip = '10.0.0.2';
    for (let i = 0; i < 4; i++) {
      expect((await login(t, { username: 'admin', password: 'bad-pass' }, ip)).json().code).toBe(
        ErrorCode.BAD_CREDENTIALS,
      );
    }
    const fifth = await login(t, { username: 'admin', password: 'bad-pass' }, ip);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().code).toBe(ErrorCode.ACCOUNT_LOCKED);
    const right = await login(t, { username: 'admin', password: ADMIN.password }, ip);
    expect(right.json().code).toBe(ErrorCode.ACCOUNT_LOCKED);
    expect(right.json().data.retryAfter).toBeGreaterThan(14 * 60);
    // Another address is not locked out.
    expect((await login(t, { username: 'admin', password: ADMIN.password }, '10.0.0.3')).json().code).toBe(20000);
    // Lock ends after 15 minutes.
    await t.database.db.execute(sql`update login_throttle set locked_until = now() - interval '1 second'`);
    expect((await login(t, { username: 'admin', password: ADMIN.password }, ip)).json().code).toBe(20000);
  });

  it('a success resets the failure count', async () => {
    const ip = '10.0.0.4';
    for (let i = 0; i < 4; i++) await login(t, { username: 'admin', password: 'bad-pass' }, ip);
    expect((await login(t, { username: 'admin', password: ADMIN.password }, ip)).json().code).toBe(20000);
    for (let i = 0; i < 4; i++) await login(t, { username: 'admin', password: 'bad-pass' }, ip);
    expect((await login(t, { username: 'admin', password: ADMIN.password }, ip)).json().code).toBe(20000);
  });

  it('rate-limits logins per address', async () => {
    const ip = '10.0.0.9';
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) {
      codes.push((await login(t, { username: `user${i}`, password: 'bad-pass' }, ip)).json().code);
    }
    expect(codes.slice(0, 30).every((c) => c === ErrorCode.BAD_CREDENTIALS)).toBe(true);
    expect(codes.at(-1)).toBe(ErrorCode.RATE_LIMITED);
  });

  it('takes another login budget from LOGIN_RATE_LIMIT', async () => {
    const few = await buildTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await login(few, { username: 'admin', password: ADMIN.password }, '10.0.0.10')).json().code);
      expect(codes).toEqual([20000, 20000, 20000, ErrorCode.RATE_LIMITED]);
      // Another address has its own budget.
      expect((await login(few, { username: 'admin', password: ADMIN.password }, '10.0.0.11')).json().code).toBe(20000);
    } finally {
      await few.close();
    }
  });
});

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const info = (token?: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: token ? bearer(token) : {} });

  it('no or unknown token → 50008', async () => {
    expect((await info()).json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
    expect((await info()).statusCode).toBe(401);
    expect((await info('not-a-token')).json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
  });

  it('logout revokes the session server-side → 50012', async () => {
    const token = await t.login();
    expect((await info(token)).json().code).toBe(20000);
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: bearer(token) });
    expect(out.json().code).toBe(20000);
    expect((await info(token)).json().code).toBe(ErrorCode.TOKEN_REVOKED);
  });

  it('an expired session → 50014, and use slides the expiry forward', async () => {
    const token = await t.login();
    await t.database.db.execute(
      sql`update sessions set last_used_at = now() - interval '2 minutes', expires_at = now() + interval '1 minute' where revoked_at is null`,
    );
    await t.app.authSync();
    expect((await info(token)).json().code).toBe(20000);
    const [s] = await t.database.db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(sql`revoked_at is null`)
      .orderBy(sql`id desc`)
      .limit(1);
    expect(s!.expiresAt.getTime() - Date.now()).toBeGreaterThan(11 * 3600 * 1000);
    await t.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    await t.app.authSync();
    expect((await info(token)).json().code).toBe(ErrorCode.TOKEN_EXPIRED);
  });

  it('accepts the token as ?token on /user/info only', async () => {
    const token = await t.login();
    const q = await t.app.inject({ method: 'GET', url: `/api/v1/user/info?token=${token}` });
    expect(q.json().code).toBe(20000);
    const other = await t.app.inject({ method: 'GET', url: `/api/v1/user/menutestlist?token=${token}` });
    expect(other.json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
  });
});

describe('captcha (CAPTCHA=on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CAPTCHA: 'on' });
  });
  afterAll(() => t.close());

  async function challenge() {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/login/captchaInfo' });
    const { key, image, required } = res.json().data;
    expect(image).toMatch(/^<svg/);
    expect(required).toBe(true);
    const rows = await t.database.db.select().from(captchas);
    return { key: key as string, answer: rows.find((r) => r.key === key)!.answer };
  }

  it('is required', async () => {
    const res = await login(t, { username: 'admin', password: ADMIN.password });
    expect(res.json()).toMatchObject({ code: ErrorCode.CAPTCHA, data: { field: 'captcha' } });
  });

  it('is case-insensitive and single use', async () => {
    const { key, answer } = await challenge();
    const ok = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: answer.toUpperCase() });
    expect(ok.json().code).toBe(20000);
    const again = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: answer });
    expect(again.json().code).toBe(ErrorCode.CAPTCHA);
  });

  it('a wrong answer is refused and consumes the challenge', async () => {
    const { key, answer } = await challenge();
    const wrong = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: `${answer}x` });
    expect(wrong.json().code).toBe(ErrorCode.CAPTCHA);
    const retry = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: answer });
    expect(retry.json().code).toBe(ErrorCode.CAPTCHA);
  });

  it('is spoken as a WAV for a valid key, without using the challenge up', async () => {
    const { key, answer } = await challenge();
    const audio = async () => t.app.inject({ method: 'GET', url: `/api/v1/login/captchaAudio?key=${key}` });
    const res = await audio();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['cache-control']).toBe('no-store');
    const wav = res.rawPayload;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect({ pcm: wav.readUInt16LE(20), channels: wav.readUInt16LE(22), bits: wav.readUInt16LE(34) }).toEqual({ pcm: 1, channels: 1, bits: 8 });
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
    // Four characters said twice, with pauses: a few seconds.
    const seconds = wav.readUInt32LE(40) / wav.readUInt32LE(24);
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(15);
    // Mixed afresh each time: not the same bytes twice (a recording cannot be matched by hash).
    expect((await audio()).rawPayload.equals(wav)).toBe(false);
    // Listening does not spend the challenge.
    const ok = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: answer });
    expect(ok.json().code).toBe(20000);
  });

  it('has no audio for an unknown, used, expired or malformed key', async () => {
    const audio = (key: string) => t.app.inject({ method: 'GET', url: `/api/v1/login/captchaAudio?key=${key}` });
    const unknown = await audio(crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ data: { reason: 'captchaNotFound' } });
    const used = await challenge();
    await login(t, { username: 'admin', password: ADMIN.password, key: used.key, captcha: used.answer });
    expect((await audio(used.key)).statusCode).toBe(404);
    const expired = await challenge();
    await t.database.db.execute(sql`update captchas set expires_at = now() - interval '1 second' where key = ${expired.key}`);
    expect((await audio(expired.key)).statusCode).toBe(404);
    expect((await audio('not-a-key')).json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'key' } });
  });

  it('expires after 2 minutes', async () => {
    const { key, answer } = await challenge();
    await t.database.db.execute(sql`update captchas set expires_at = now() - interval '1 second'`);
    const res = await login(t, { username: 'admin', password: ADMIN.password, key, captcha: answer });
    expect(res.json().code).toBe(ErrorCode.CAPTCHA);
  });
});
