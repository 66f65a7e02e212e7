import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { devices } from '../src/db/schema/index.js';
import { hashToken } from '../src/lib/tokens.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/** Projects, road sections, project users and devices (the device registry). */
describe('device registry', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const { call, ok } = apiAs(() => t, tok);

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    ids.alpha = await t.createUser({ username: 'alpha', password: 'alpha-pass', role: 'ADMIN', type: 1 });
    ids.beta = await t.createUser({ username: 'beta', password: 'beta-pass', role: 'ADMIN', type: 1 });
    tok.alpha = await t.login('alpha', 'alpha-pass');
    tok.beta = await t.login('beta', 'beta-pass');
    ids.bmu = (await ok('alpha', 'GET', '/devicetype/list?code=BMU')).items[0].id;
  });
  afterAll(() => t.close());

  it('projects: create with location and road sections; owners see their own', async () => {
    ids.pa = (await ok('alpha', 'POST', '/project/addproject', { name: 'Harbour', address: 'Pier 1', lng: 121.5, lat: 31.2, weather: true })).id;
    ids.pb = (await ok('beta', 'POST', '/project/addproject', { name: 'Mine site' })).id;
    const bad = await call('alpha', 'POST', '/project/addproject', { name: 'x', lat: 100 });
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'lat' } });
    const noName = await call('alpha', 'POST', '/project/addproject', { name: '  ' });
    expect(noName).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'name' } });
    expect((await ok('alpha', 'GET', '/project/list')).items.map((p: { name: string }) => p.name)).toEqual(['Harbour']);
    expect((await ok('admin', 'GET', '/project/list?sort=name&order=asc')).items.map((p: { name: string }) => p.name)).toEqual(['Harbour', 'Mine site']);

    await ok('alpha', 'POST', '/project/addroadsection', { projectId: ids.pa, name: 'Second', sort: 2, points: [[121.5, 31.2], [121.6, 31.3]] });
    await ok('alpha', 'POST', '/project/addroadsection', { projectId: ids.pa, name: 'First', sort: 1 });
    const sections = await ok('alpha', 'GET', `/project/roadsectionlist?projectId=${ids.pa}`);
    expect(sections.items.map((s: { name: string }) => s.name)).toEqual(['First', 'Second']);
    expect(sections.items[1].points).toEqual([[121.5, 31.2], [121.6, 31.3]]);
  });

  it('project users: a shared project is visible with its devices, but not changeable', async () => {
    ids.d1 = (await ok('beta', 'POST', '/device/add', { name: 'Pack 1', sn: 'MS-001', typeId: ids.bmu, projectId: ids.pb })).id;
    expect((await call('alpha', 'GET', `/project/item?id=${ids.pb}`)).code).toBe(ErrorCode.NOT_FOUND);
    // Beta cannot assign users outside its subtree; the super administrator can.
    expect((await call('beta', 'POST', '/project/setuserproject', { id: ids.pb, userIds: [ids.alpha] })).data.field).toBe('userIds');
    await ok('admin', 'POST', '/project/setuserproject', { id: ids.pb, userIds: [ids.alpha] });
    expect((await ok('admin', 'GET', `/project/userprojectlist?id=${ids.pb}`)).map((u: { username: string }) => u.username)).toEqual(['alpha']);
    expect((await ok('alpha', 'GET', `/project/item?id=${ids.pb}`)).deviceCount).toBe(1);
    expect((await ok('alpha', 'GET', '/device/list')).items.map((d: { sn: string }) => d.sn)).toEqual(['MS-001']);
    expect((await call('alpha', 'POST', '/project/editproject', { id: ids.pb, name: 'Taken' })).code).toBe(ErrorCode.FORBIDDEN);
    expect((await call('alpha', 'DELETE', `/device/delete?id=${ids.d1}`)).code).toBe(ErrorCode.FORBIDDEN);
    // Beta re-saving its own part leaves the administrator's assignment alone.
    await ok('beta', 'POST', '/project/setuserproject', { id: ids.pb, userIds: [] });
    expect((await ok('admin', 'GET', `/project/userprojectlist?id=${ids.pb}`)).length).toBe(1);
    await ok('admin', 'POST', '/project/setuserproject', { id: ids.pb, userIds: [] });
    expect((await call('alpha', 'GET', `/device/basic?id=${ids.d1}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('devices: every field, a secret shown once, unique SN, validation by field', async () => {
    const created = await ok('alpha', 'POST', '/device/add', {
      name: 'BMU A', sn: 'HB-0001', typeId: ids.bmu, projectId: ids.pa, address: 'Berth 3', mapMode: 1, lng: 121.51, lat: 31.21,
      remarks: 'spare', alarmPhone: '+86 138 0000 0000', warningLevel: 2, btCode: 'BT01', version4g: 'EC20-1.2', hardwareVersion: 'HW3',
      simNumber: '89860012345678901234', imei: '861234567890123', manufacturerModel: 'LFP-48V', description: '48 V pack',
    });
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    ids.a1 = created.id;
    const [row] = await t.database.db.select({ h: devices.credentialHash }).from(devices).where(eq(devices.id, created.id));
    expect(row!.h).toBe(hashToken(created.secret));
    const basic = await ok('alpha', 'GET', `/device/basic?id=${created.id}`);
    expect(basic).toMatchObject({ sn: 'HB-0001', projectName: 'Harbour', typeName: '电池管理单元', typeNameEn: 'Battery management unit', typeNameJa: 'バッテリー管理ユニット', warningLevel: 2, imei: '861234567890123', online: false, lastSeenAt: null });

    expect(await call('alpha', 'POST', '/device/add', { name: 'Dup', sn: 'HB-0001', typeId: ids.bmu })).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { field: 'sn', reason: 'snTaken', params: { sn: 'HB-0001' } },
    });
    expect((await call('alpha', 'POST', '/device/add', { name: 'x', sn: 'HB-9', typeId: ids.bmu, imei: '86123abc' })).data.field).toBe('imei');
    expect((await call('alpha', 'POST', '/device/add', { name: 'x', sn: 'HB-9', typeId: ids.bmu, warningLevel: 5 })).data.field).toBe('warningLevel');
    expect((await call('alpha', 'POST', '/device/add', { name: 'x', sn: 'HB 9', typeId: ids.bmu })).data.field).toBe('sn');
    expect((await call('alpha', 'POST', '/device/add', { name: 'x', sn: 'HB-9', typeId: ids.bmu, projectId: ids.pb })).data.field).toBe('projectId');

    const again = await ok('alpha', 'POST', '/device/credential', { id: created.id });
    expect(again.secret).not.toBe(created.secret);
  });

  it('sub-devices: one level, counted and listed', async () => {
    const child = (await ok('alpha', 'POST', '/device/add', { name: 'Cell board', sn: 'HB-0001-C1', typeId: ids.bmu, parentId: ids.a1 })).id;
    expect((await ok('alpha', 'GET', `/device/subnum?id=${ids.a1}`)).count).toBe(1);
    expect((await ok('alpha', 'GET', `/device/subdevicelist?id=${ids.a1}`)).items.map((d: { sn: string }) => d.sn)).toEqual(['HB-0001-C1']);
    expect((await call('alpha', 'POST', '/device/add', { name: 'x', sn: 'HB-0001-C1-X', typeId: ids.bmu, parentId: child })).data.field).toBe('parentId');
    expect((await call('alpha', 'POST', '/device/edit', { id: ids.a1, name: 'BMU A', sn: 'HB-0001', typeId: ids.bmu, parentId: ids.a1 })).data.field).toBe('parentId');
  });

  it('lists filter by project, type, online, level and free text; sort and page on the server', async () => {
    for (let i = 2; i <= 6; i++) {
      await ok('alpha', 'POST', '/device/add', { name: `BMU ${i}`, sn: `HB-000${i}`, typeId: ids.bmu, projectId: ids.pa, warningLevel: i % 2, simNumber: `8986${i}` });
    }
    const page = await ok('alpha', 'GET', `/device/list?projectId=${ids.pa}&sort=sn&order=desc&limit=2&page=2`);
    expect(page.total).toBe(6);
    expect(page.items.map((d: { sn: string }) => d.sn)).toEqual(['HB-0004', 'HB-0003']);
    expect((await ok('alpha', 'GET', '/device/list?warningLevel=1')).items.map((d: { sn: string }) => d.sn).sort()).toEqual(['HB-0003', 'HB-0005']);
    expect((await ok('alpha', 'GET', '/device/list?q=89865')).items.map((d: { sn: string }) => d.sn)).toEqual(['HB-0005']);
    expect((await ok('alpha', 'GET', '/device/list?q=861234567890123')).items.map((d: { sn: string }) => d.sn)).toEqual(['HB-0001']);
    expect((await ok('alpha', 'GET', '/device/list?online=true')).total).toBe(0);
    expect((await ok('alpha', 'GET', `/device/list?typeId=${ids.bmu}&limit=200`)).total).toBe(7);
    expect((await ok('alpha', 'GET', '/device/seachList?q=hb-000&limit=3')).map((d: { sn: string }) => d.sn)).toEqual(['HB-0001', 'HB-0001-C1', 'HB-0002']);
    expect((await call('alpha', 'GET', '/device/list?sort=password')).data.field).toBe('sort');
  });

  it('moves and deletes in bulk; a project with devices needs a destination; a used type stays', async () => {
    ids.pa2 = (await ok('alpha', 'POST', '/project/addproject', { name: 'Harbour B' })).id;
    const list = (await ok('alpha', 'GET', `/device/list?projectId=${ids.pa}&limit=200`)).items as { id: number; sn: string }[];
    const two = list.filter((d) => ['HB-0005', 'HB-0006'].includes(d.sn)).map((d) => d.id);
    expect((await ok('alpha', 'POST', '/device/editdevicelistproject', { ids: two, projectId: ids.pa2 })).count).toBe(2);
    expect((await ok('alpha', 'GET', `/device/list?projectId=${ids.pa2}`)).total).toBe(2);

    const refused = await call('alpha', 'DELETE', `/project/deleteproject?id=${ids.pa2}`);
    // The console translates the reason code; the message is the English text for API users.
    expect(refused).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: 'This project still holds 2 device(s): move them to another project first',
      data: { reason: 'projectHasDevices', params: { count: 2 } },
    });
    await ok('alpha', 'DELETE', `/project/deleteproject?id=${ids.pa2}&moveTo=${ids.pa}`);
    expect((await ok('alpha', 'GET', `/device/list?projectId=${ids.pa}`)).total).toBe(6);

    const { id: type } = await ok('alpha', 'POST', '/devicetype/addtype', { code: 'TMP', name: 'Temporary' });
    const { id: dev } = await ok('alpha', 'POST', '/device/add', { name: 'tmp', sn: 'TMP-1', typeId: type });
    expect(await call('alpha', 'DELETE', `/devicetype/deletetype?id=${type}`)).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { reason: 'typeInUse', params: { count: 1 } },
    });
    expect((await ok('alpha', 'DELETE', `/device/delete?id=${dev},${two[0]}`)).count).toBe(2);
    await ok('alpha', 'DELETE', `/devicetype/deletetype?id=${type}`);
    expect((await call('alpha', 'DELETE', '/device/delete?id=1,x')).data.field).toBe('id');
    const logs = (await ok('admin', 'GET', '/logs/list?entity=device&limit=100')).items.map((l: { action: string }) => l.action);
    expect(logs).toEqual(expect.arrayContaining(['device.add', 'device.move', 'device.delete', 'device.credential']));
  });
});
