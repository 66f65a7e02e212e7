import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SEARCH_GROUP_LIMIT } from '@iot/contract';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/** GET /search, the navbar search (issue 33): devices, projects and users, each scoped like its list. */
describe('header search', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const { call, ok } = apiAs(() => t, tok);
  const search = (who: string, q: string) => ok(who, 'GET', `/search?q=${encodeURIComponent(q)}`);

  /** A role holding exactly `codes`, made by the administrator. */
  const roleWith = async (identification: string, codes: string[]) => {
    const { id } = await ok('admin', 'POST', '/role/add', { name: identification, identification });
    const all = (await ok('admin', 'GET', '/permission/getlist?limit=200')).items as { id: number; identification: string }[];
    await ok('admin', 'POST', '/role/setpermission', {
      id,
      permissionIds: all.filter((p) => codes.includes(p.identification)).map((p) => p.id),
    });
    return id as number;
  };
  const device = (who: string, sn: string, projectId?: number) =>
    ok(who, 'POST', '/device/add', { name: `Pack ${sn}`, sn, typeId: ids.type, ...(projectId ? { projectId } : {}) });

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    const roles = (await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    const adminRole = roles.find((r) => r.identification === 'ADMIN')!.id;
    ids.type = ((await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
    for (const name of ['srch-alpha', 'srch-beta']) {
      await ok('admin', 'POST', '/user/add', { username: name, password: 'secret-pass', type: 1, roleId: adminRole });
      tok[name] = await t.login(name, 'secret-pass');
    }
    ids.alphaProject = (await ok('srch-alpha', 'POST', '/project/addproject', { name: 'Harbour depot' })).id;
    await ok('srch-beta', 'POST', '/project/addproject', { name: 'Harbour yard' });
    await device('srch-alpha', 'SRCHA-00420', ids.alphaProject);
    ids.exact = (await device('srch-alpha', 'SRCHA-0042')).id;
    await device('srch-beta', 'SRCHB-0042');
    await ok('srch-alpha', 'POST', '/user/add', { username: 'srch-alpha-night', password: 'secret-pass', type: 1, roleId: adminRole });
    await ok('srch-beta', 'POST', '/user/add', { username: 'srch-beta-night', password: 'secret-pass', type: 1, roleId: adminRole });
  });
  afterAll(() => t.close());

  it('finds a device by its SN, the exact SN first, and only the caller’s own', async () => {
    const r = await search('srch-alpha', 'srcha-0042');
    expect(r.devices.map((d: { sn: string }) => d.sn)).toEqual(['SRCHA-0042', 'SRCHA-00420']);
    expect(r.devices[0].id).toBe(ids.exact);
    // A part of the SN in the middle finds it too; beta's device never shows to alpha.
    const middle = await search('srch-alpha', '0042');
    expect(middle.devices.map((d: { sn: string }) => d.sn).sort()).toEqual(['SRCHA-0042', 'SRCHA-00420']);
    const beta = await search('srch-beta', '0042');
    expect(beta.devices.map((d: { sn: string }) => d.sn)).toEqual(['SRCHB-0042']);
  });

  it('finds a device by its name, projects by name and users by username, each scoped', async () => {
    expect((await search('srch-alpha', 'pack srcha-00420')).devices.map((d: { sn: string }) => d.sn)).toEqual(['SRCHA-00420']);
    const harbour = await search('srch-alpha', 'harbour');
    expect(harbour.projects).toEqual([{ id: ids.alphaProject, name: 'Harbour depot' }]);
    const night = await search('srch-alpha', 'NIGHT');
    expect(night.users.map((u: { username: string }) => u.username)).toEqual(['srch-alpha-night']);
    // The administrator sees every line.
    const all = await search('admin', 'night');
    expect(all.users.map((u: { username: string }) => u.username)).toEqual(['srch-alpha-night', 'srch-beta-night']);
  });

  it(`answers at most ${SEARCH_GROUP_LIMIT} per group`, async () => {
    for (let i = 0; i < SEARCH_GROUP_LIMIT + 2; i++) await device('srch-beta', `SRCHMANY-${i}`);
    const r = await search('srch-beta', 'srchmany');
    expect(r.devices).toHaveLength(SEARCH_GROUP_LIMIT);
    expect(r.devices.map((d: { sn: string }) => d.sn)).toEqual([0, 1, 2, 3, 4].map((i) => `SRCHMANY-${i}`));
  });

  it('answers a group only to the holders of its list code', async () => {
    const onlyDevices = await roleWith('SRCH_DEVICES', ['device:list']);
    // Made by the administrator so the role is its to hand out.
    await ok('admin', 'POST', '/user/add', { username: 'srch-devices-only', password: 'secret-pass', type: 1, roleId: onlyDevices });
    tok.devicesOnly = await t.login('srch-devices-only', 'secret-pass');
    const r = await search('devicesOnly', 'srch');
    expect(r.projects).toBeNull();
    expect(r.users).toBeNull();
    expect(r.devices).toEqual([]);

    const onlyAdmins = await roleWith('SRCH_ADMINS', ['admin:list']);
    await ok('admin', 'POST', '/user/add', { username: 'srch-admins-only', password: 'secret-pass', type: 0, roleId: onlyAdmins });
    tok.adminsOnly = await t.login('srch-admins-only', 'secret-pass');
    const a = await search('adminsOnly', 'srch');
    expect(a.devices).toBeNull();
    expect(a.projects).toBeNull();
    // Its subtree holds only itself, an administrator (type 0): company users are never listed to it.
    expect(a.users.map((u: { username: string; type: number }) => [u.username, u.type])).toEqual([['srch-admins-only', 0]]);

    const none = await roleWith('SRCH_NONE', ['alarm:list']);
    await ok('admin', 'POST', '/user/add', { username: 'srch-none', password: 'secret-pass', type: 1, roleId: none });
    tok.none = await t.login('srch-none', 'secret-pass');
    expect((await call('none', 'GET', '/search?q=srch')).code).toBe(ErrorCode.FORBIDDEN);
  });

  it('refuses an empty or too long text', async () => {
    expect((await call('admin', 'GET', '/search?q=%20')).code).toBe(ErrorCode.VALIDATION);
    expect((await call('admin', 'GET', `/search?q=${'x'.repeat(65)}`)).code).toBe(ErrorCode.VALIDATION);
  });
});
