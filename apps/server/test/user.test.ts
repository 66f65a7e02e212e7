import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SUPERADMIN } from '@iot/contract';
import { ADMIN, bearer, buildTestApp, type TestApp } from './helpers.js';

describe('user info, preferences, password, login history', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });

  it('user info carries a non-empty role list and the fields the console reads', async () => {
    const token = await t.login();
    const { data } = (await call('GET', '/user/info', token)).json();
    expect(data).toMatchObject({
      roles: [SUPERADMIN],
      name: 'admin',
      type: 0,
      dashboardStyle: 'default',
      language: 'en',
    });
    expect(data.permissions).toContain('role:list');
  });

  it('stores language and dashboard style, refusing unknown values by field', async () => {
    // A user of its own: the admin's preferences are the defaults the first test reads.
    await t.createUser({ username: 'prefs', password: 'prefs-pass-1', role: 'ADMIN' });
    const token = await t.login('prefs', 'prefs-pass-1');
    expect((await call('POST', '/user/preferences', token, { language: 'ja', dashboardStyle: 'battery' })).json().code).toBe(20000);
    const { data } = (await call('GET', '/user/info', token)).json();
    expect(data).toMatchObject({ language: 'ja', dashboardStyle: 'battery' });
    await call('POST', '/user/preferences', token, { corporateName: 'ACME Batteries', contactNumber: '+86 10 1234' });
    expect((await call('GET', '/user/info', token)).json().data).toMatchObject({ corporateName: 'ACME Batteries', contactNumber: '+86 10 1234' });
    const badPhone = (await call('POST', '/user/preferences', token, { contactNumber: 'call me' })).json();
    expect(badPhone).toMatchObject({ code: 40000, data: { field: 'contactNumber' } });
    const bad = (await call('POST', '/user/preferences', token, { language: 'fr' })).json();
    expect(bad).toMatchObject({ code: 40000, data: { field: 'language' } });
  });

  it('preferences equal to the stored ones change nothing and write no operation-log row', async () => {
    await t.createUser({ username: 'prefs-same', password: 'prefs-pass-1', role: 'ADMIN' });
    const token = await t.login('prefs-same', 'prefs-pass-1');
    const rows = async () =>
      (await call('GET', '/logs/list?action=user.preferences&limit=200', token)).json().data.items as { summary: string; result: string }[];
    await call('POST', '/user/preferences', token, { language: 'es', dashboardStyle: 'default' });
    const before = (await rows()).length;

    // What the console sends at login or on a second click of the same language: nothing new.
    for (const same of [{ language: 'es' }, { language: 'es', dashboardStyle: 'default' }, {}]) {
      expect((await call('POST', '/user/preferences', token, same)).json().code).toBe(20000);
    }
    expect(await rows()).toHaveLength(before);

    // A real switch: exactly one row, naming only what changed.
    await call('POST', '/user/preferences', token, { language: 'zh', dashboardStyle: 'default' });
    const after = await rows();
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({ summary: '{"language":"zh"}', result: 'success' });
    expect((await call('GET', '/user/info', token)).json().data.language).toBe('zh');
  });

  it('change password: validates, ends the other sessions only, and the new password works', async () => {
    const other = await t.login();
    const mine = await t.login();
    const mismatch = (
      await call('POST', '/user/changepassword', mine, {
        oldPassword: ADMIN.password,
        newPassword: 'new-pass-1',
        confirmPassword: 'new-pass-2',
      })
    ).json();
    expect(mismatch).toMatchObject({ code: 40000, data: { field: 'confirmPassword' } });
    expect(mismatch.message).toContain('the two new passwords do not match');

    const wrongOld = (
      await call('POST', '/user/changepassword', mine, {
        oldPassword: 'not-the-password',
        newPassword: 'new-pass-1',
        confirmPassword: 'new-pass-1',
      })
    ).json();
    expect(wrongOld).toMatchObject({ code: 40000, data: { field: 'oldPassword' } });

    const done = (
      await call('POST', '/user/changepassword', mine, {
        oldPassword: ADMIN.password,
        newPassword: 'new-pass-1',
        confirmPassword: 'new-pass-1',
      })
    ).json();
    expect(done.code).toBe(20000);
    expect(done.data.endedSessions).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/user/info', mine)).json().code).toBe(20000);
    expect((await call('GET', '/user/info', other)).json().code).toBe(ErrorCode.TOKEN_REVOKED);
    await expect(t.login('admin', ADMIN.password)).rejects.toThrow();
    const fresh = await t.login('admin', 'new-pass-1');
    // Put it back for the other tests.
    await call('POST', '/user/changepassword', fresh, {
      oldPassword: 'new-pass-1',
      newPassword: ADMIN.password,
      confirmPassword: ADMIN.password,
    });
  });

  it('login history is the caller’s own, newest first, server-paged', async () => {
    await t.createUser({ username: 'viewer', password: 'viewer-pass', role: 'BATTERYMANAGEMENT' });
    await t.login('viewer', 'viewer-pass');
    const token = await t.login('viewer', 'viewer-pass');
    const page = (await call('GET', '/user/logins?page=1&limit=1', token)).json();
    expect(page.data.total).toBe(2);
    expect(page.data.items).toHaveLength(1);
    expect(page.data.items[0]).toMatchObject({ result: 'success', ip: '127.0.0.1' });
    const bad = (await call('GET', '/user/logins?limit=5000', token)).json();
    expect(bad).toMatchObject({ code: 40000, data: { field: 'limit' } });
  });
});
