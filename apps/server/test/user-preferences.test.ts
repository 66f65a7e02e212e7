import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_PREFERENCE_LIMITS } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/** A user's stored screen settings (`/user/preferences/:key`, a list's column choice). */
describe('user preferences: own only, bounded, keys checked', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });

  it('a user reads back its own choice; another user sees none of it; a stranger is refused', async () => {
    await t.createUser({ username: 'cols-a', password: 'cols-pass-1', role: 'ADMIN' });
    await t.createUser({ username: 'cols-b', password: 'cols-pass-1', role: 'ADMIN' });
    const a = await t.login('cols-a', 'cols-pass-1');
    const b = await t.login('cols-b', 'cols-pass-1');

    expect((await call('GET', '/user/preferences/table:devices', a)).json()).toMatchObject({
      code: 20000,
      data: { key: 'table:devices', value: null },
    });
    const saved = (await call('PUT', '/user/preferences/table:devices', a, { value: { typeName: true, warningLevel: false } })).json();
    expect(saved).toMatchObject({ code: 20000, data: { value: { typeName: true, warningLevel: false } } });
    // Saved again: replaced, not merged.
    await call('PUT', '/user/preferences/table:devices', a, { value: { typeName: true } });
    expect((await call('GET', '/user/preferences/table:devices', a)).json().data.value).toEqual({ typeName: true });

    // Another user: the same key is its own, empty; writing it leaves the first user's alone.
    expect((await call('GET', '/user/preferences/table:devices', b)).json().data.value).toBeNull();
    await call('PUT', '/user/preferences/table:devices', b, { value: { sn: false } });
    expect((await call('GET', '/user/preferences/table:devices', a)).json().data.value).toEqual({ typeName: true });
    expect((await call('GET', '/user/preferences/table:devices', b)).json().data.value).toEqual({ sn: false });

    // Not signed in.
    const anon = await t.app.inject({ method: 'GET', url: '/api/v1/user/preferences/table:devices' });
    expect(anon.json().code).not.toBe(20000);
    expect(anon.statusCode).toBe(401);
  });

  it('refuses a bad key, a value of the wrong shape or too large, naming the field', async () => {
    const token = await t.login();
    const badKey = (await call('PUT', '/user/preferences/theme', token, { value: {} })).json();
    expect(badKey).toMatchObject({ code: 40000, data: { field: 'key' } });
    expect((await call('GET', '/user/preferences/table:a%20b', token)).json()).toMatchObject({ code: 40000, data: { field: 'key' } });

    const notBool = (await call('PUT', '/user/preferences/table:alarms', token, { value: { state: 'yes' } })).json();
    expect(notBool).toMatchObject({ code: 40000 });
    expect(String(notBool.data.field)).toMatch(/^value/);

    const many = Object.fromEntries(Array.from({ length: USER_PREFERENCE_LIMITS.columns + 1 }, (_, i) => [`c${i}`, true]));
    expect((await call('PUT', '/user/preferences/table:alarms', token, { value: many })).json()).toMatchObject({
      code: 40000,
      data: { field: 'value' },
    });
    const longKeys = Object.fromEntries(
      Array.from({ length: 99 }, (_, i) => [`${String(i).padStart(2, '0')}${'x'.repeat(USER_PREFERENCE_LIMITS.columnKey - 2)}`, true]),
    );
    expect((await call('PUT', '/user/preferences/table:alarms', token, { value: longKeys })).json()).toMatchObject({
      code: 40000,
      data: { field: 'value' },
    });
    const extra = (await call('PUT', '/user/preferences/table:alarms', token, { value: {}, userId: 1 })).json();
    expect(extra).toMatchObject({ code: 40000 });
  });

  it('keeps at most USER_PREFERENCE_LIMITS.keys keys per user; an existing key still saves', async () => {
    await t.createUser({ username: 'cols-full', password: 'cols-pass-1', role: 'ADMIN' });
    const token = await t.login('cols-full', 'cols-pass-1');
    for (let i = 0; i < USER_PREFERENCE_LIMITS.keys; i++) {
      expect((await call('PUT', `/user/preferences/table:t${i}`, token, { value: { a: true } })).json().code).toBe(20000);
    }
    const full = (await call('PUT', '/user/preferences/table:onemore', token, { value: { a: true } })).json();
    expect(full).toMatchObject({ data: { reason: 'preferencesFull', field: 'key' } });
    expect(full.code).not.toBe(20000);
    expect((await call('PUT', '/user/preferences/table:t0', token, { value: { a: false } })).json().code).toBe(20000);
  });
});
