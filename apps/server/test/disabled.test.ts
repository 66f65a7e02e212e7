import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { apiAs, bearer, buildTestApp, type TestApp } from './helpers.js';

describe('disabled accounts', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const api = apiAs(() => t, tok);
  const ids: Record<string, number> = {};
  let batteryRole: number;
  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username, password } });
  const loginLog = async (username: string) =>
    (await api.ok('admin', 'GET', `/logs/loginlist?username=${username}&limit=50`)).items.map((r: { result: string }) => r.result);

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    const roles = await api.ok('admin', 'GET', '/role/getlist?limit=200');
    const adminRole = roles.items.find((r: { identification: string }) => r.identification === 'ADMIN').id;
    batteryRole = roles.items.find((r: { identification: string }) => r.identification === 'BATTERYMANAGEMENT').id;
    // agent → sub → subsub, each created by the one above.
    ids.agent = (await api.ok('admin', 'POST', '/user/add', { username: 'agent', password: 'secret-pass', type: 1, roleId: adminRole })).id;
    tok.agent = await t.login('agent', 'secret-pass');
    ids.sub = (await api.ok('agent', 'POST', '/user/add', { username: 'sub', password: 'secret-pass', type: 1, roleId: adminRole })).id;
    tok.sub = await t.login('sub', 'secret-pass');
    ids.subsub = (await api.ok('sub', 'POST', '/user/add', { username: 'subsub', password: 'secret-pass', type: 1, roleId: batteryRole })).id;
    tok.subsub = await t.login('subsub', 'secret-pass');
    ids.loner = (await api.ok('admin', 'POST', '/user/add', { username: 'loner', password: 'secret-pass', type: 1, roleId: batteryRole })).id;
  });
  afterAll(() => t.close());

  it('the right password of a disabled account answers exactly like a wrong one, and is logged as disabled', async () => {
    await api.ok('admin', 'POST', '/user/edit', { id: ids.loner, enabled: false });
    const right = await login('loner', 'secret-pass');
    const wrong = await login('loner', 'wrong-pass');
    expect(right.statusCode).toBe(wrong.statusCode);
    expect(right.json()).toEqual(wrong.json());
    expect(right.json()).toMatchObject({ code: ErrorCode.BAD_CREDENTIALS, data: null });
    expect(await loginLog('loner')).toEqual(['failure', 'disabled']);
  });

  it('disabling a user ends its subtree’s sessions and stops the subtree logging in; enabling restores it', async () => {
    const info = async (who: string) => (await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(tok[who]!) })).json().code;
    expect(await info('subsub')).toBe(20000);
    await api.ok('admin', 'POST', '/user/edit', { id: ids.agent, enabled: false });
    for (const who of ['agent', 'sub', 'subsub']) expect(await info(who), who).toBe(ErrorCode.TOKEN_REVOKED);
    for (const who of ['agent', 'sub', 'subsub']) {
      expect((await login(who, 'secret-pass')).json().code, who).toBe(ErrorCode.BAD_CREDENTIALS);
    }
    expect(await loginLog('subsub')).toContain('disabled');
    // The sub-users keep their own state: enabling the agent brings the whole line back.
    const sub = await api.ok('admin', 'GET', `/user/item?id=${ids.sub}`);
    expect(sub.enabled).toBe(true);
    await api.ok('admin', 'POST', '/user/edit', { id: ids.agent, enabled: true });
    // …while `loner`, disabled in another line, still affects nobody else.
    expect((await login('subsub', 'secret-pass')).json().code).toBe(20000);
  });
});
