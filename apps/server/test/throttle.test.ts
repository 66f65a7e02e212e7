import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { ADMIN, bearer, buildTestApp, type TestApp } from './helpers.js';

const change = (t: TestApp, token: string, oldPassword: string, newPassword = 'brand-new-pass') =>
  t.app
    .inject({
      method: 'POST',
      url: '/api/v1/user/changepassword',
      headers: bearer(token),
      payload: { oldPassword, newPassword, confirmPassword: newPassword },
    })
    .then((r) => r.json());

describe('change password is locked like login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.createUser({ username: 'guessed', password: 'right-pass-1', role: 'ADMIN' });
  });
  afterAll(() => t.close());

  it('five wrong current passwords lock the account for this address, for login too', async () => {
    const token = await t.login('guessed', 'right-pass-1');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await change(t, token, `wrong-guess-${i}`)).code);
    expect(codes.slice(0, 4)).toEqual([40000, 40000, 40000, 40000]);
    expect(codes[4]).toBe(ErrorCode.ACCOUNT_LOCKED);
    // The right password does not get through the lock either.
    const locked = await change(t, token, 'right-pass-1');
    expect(locked).toMatchObject({ code: ErrorCode.ACCOUNT_LOCKED });
    expect(locked.data.retryAfter).toBeGreaterThan(800);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'guessed', password: 'right-pass-1' } });
    expect(login.json().code).toBe(ErrorCode.ACCOUNT_LOCKED);
    // An administrator lifts it.
    const admin = await t.login();
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/user/list?kind=admin&username=guessed', headers: bearer(admin) })).json();
    expect(list.data.items[0].locked).toBe(true);
    const id = list.data.items[0].id;
    const item = async () => (await t.app.inject({ method: 'GET', url: `/api/v1/user/item?id=${id}`, headers: bearer(admin) })).json().data;
    expect(await item()).toMatchObject({ username: 'guessed', locked: true });
    await t.app.inject({ method: 'POST', url: '/api/v1/user/unlock', headers: bearer(admin), payload: { id } });
    expect((await change(t, token, 'right-pass-1')).code).toBe(20000);
    // The list and the user's page say so.
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/user/list?kind=admin&username=guessed', headers: bearer(admin) })).json();
    expect(after.data.items[0]).toMatchObject({ username: 'guessed', locked: false });
    expect(await item()).toMatchObject({ username: 'guessed', locked: false });
  });
});

describe('rate limits per session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ API_RATE_LIMIT: '25', LOGIN_LOCKOUT: 'off' });
  });
  afterAll(() => t.close());

  it('change password takes at most 10 guesses a minute per session', async () => {
    const token = await t.login();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await change(t, token, `wrong-guess-${i}`)).code);
    expect(codes.slice(0, 10).every((c) => c === ErrorCode.VALIDATION)).toBe(true);
    expect(codes[10]).toBe(ErrorCode.RATE_LIMITED);
    // Another session of the same user has its own budget.
    expect((await change(t, await t.login(), ADMIN.password, ADMIN.password)).data.reason).toBe('samePassword');
  });

  it('one session gets API_RATE_LIMIT requests a minute on authenticated routes; others are unaffected', async () => {
    const [greedy, other] = [await t.login(), await t.login()];
    const codes: number[] = [];
    for (let i = 0; i < 26; i++) {
      codes.push((await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(greedy) })).json().code);
    }
    expect(codes.slice(0, 25).every((c) => c === 20000)).toBe(true);
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/device/list', headers: bearer(greedy) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: ErrorCode.RATE_LIMITED, data: { retryAfter: expect.any(Number) } });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(other) })).json().code).toBe(20000);
    // Public routes are not counted against sessions.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/config', headers: bearer(greedy) })).json().code).toBe(20000);
  });
});
