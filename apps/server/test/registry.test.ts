import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { devicePresence, devices } from '../src/db/schema/index.js';
import { hashToken } from '../src/lib/tokens.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * Projects, road sections, project users and devices (the device registry). Every test creates
 * the users, projects and devices it needs (its own names and SNs), so the tests pass in any
 * order and alone (`vitest --sequence.shuffle`, `-t`).
 */
describe('device registry', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tok);
  let bmu: number;

  /** Two fresh administrators below the super administrator, each with its own empty subtree. */
  const owners = async (tag: string) => {
    const ids: Record<string, number> = {};
    for (const who of ['alpha', 'beta'] as const) {
      const username = `${who}-${tag}`;
      ids[who] = await t.createUser({ username, password: `${username}-pass`, role: 'ADMIN', type: 1 });
      tok[username] = await t.login(username, `${username}-pass`);
    }
    return { alpha: `alpha-${tag}`, beta: `beta-${tag}`, alphaId: ids.alpha!, betaId: ids.beta! };
  };
  const addProject = async (who: string, body: object): Promise<number> =>
    (await ok(who, 'POST', '/project/addproject', body)).id;
  const addDevice = async (who: string, body: object): Promise<number> =>
    (await ok(who, 'POST', '/device/add', { typeId: bmu, ...body })).id;

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    bmu = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
  });
  afterAll(() => t.close());

  it('projects: create with location and road sections; owners see their own', async () => {
    const { alpha, beta } = await owners('projects');
    const pa = await addProject(alpha, { name: 'Harbour', address: 'Pier 1', lng: 121.5, lat: 31.2, weather: true });
    const pb = await addProject(beta, { name: 'Mine site' });
    const bad = await call(alpha, 'POST', '/project/addproject', { name: 'x', lat: 100 });
    expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'lat' } });
    const noName = await call(alpha, 'POST', '/project/addproject', { name: '  ' });
    expect(noName).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'name' } });
    expect((await ok(alpha, 'GET', '/project/list')).items.map((p: { name: string }) => p.name)).toEqual(['Harbour']);
    const all = (await ok('admin', 'GET', '/project/list?sort=name&order=asc&limit=200')).items as { id: number; name: string }[];
    expect(all.filter((p) => p.id === pa || p.id === pb).map((p) => p.name)).toEqual(['Harbour', 'Mine site']);

    await ok(alpha, 'POST', '/project/addroadsection', { projectId: pa, name: 'Second', sort: 2, points: [[121.5, 31.2], [121.6, 31.3]] });
    await ok(alpha, 'POST', '/project/addroadsection', { projectId: pa, name: 'First', sort: 1 });
    const sections = await ok(alpha, 'GET', `/project/roadsectionlist?projectId=${pa}`);
    expect(sections.items.map((s: { name: string }) => s.name)).toEqual(['First', 'Second']);
    expect(sections.items[1].points).toEqual([[121.5, 31.2], [121.6, 31.3]]);
  });

  it('project users: a shared project is visible with its devices, but not changeable', async () => {
    const { alpha, beta, alphaId } = await owners('sharing');
    const pb = await addProject(beta, { name: 'Mine site' });
    const d1 = await addDevice(beta, { name: 'Pack 1', sn: 'MS-001', projectId: pb });
    expect((await call(alpha, 'GET', `/project/item?id=${pb}`)).code).toBe(ErrorCode.NOT_FOUND);
    // Beta cannot assign users outside its subtree; the super administrator can.
    expect((await call(beta, 'POST', '/project/setuserproject', { id: pb, userIds: [alphaId] })).data.field).toBe('userIds');
    await ok('admin', 'POST', '/project/setuserproject', { id: pb, userIds: [alphaId] });
    expect((await ok('admin', 'GET', `/project/userprojectlist?id=${pb}`)).map((u: { username: string }) => u.username)).toEqual([alpha]);
    expect((await ok(alpha, 'GET', `/project/item?id=${pb}`)).deviceCount).toBe(1);
    expect((await ok(alpha, 'GET', '/device/list')).items.map((d: { sn: string }) => d.sn)).toEqual(['MS-001']);
    expect((await call(alpha, 'POST', '/project/editproject', { id: pb, name: 'Taken' })).code).toBe(ErrorCode.FORBIDDEN);
    expect((await call(alpha, 'DELETE', `/device/delete?id=${d1}`)).code).toBe(ErrorCode.FORBIDDEN);
    // Beta re-saving its own part leaves the administrator's assignment alone.
    await ok(beta, 'POST', '/project/setuserproject', { id: pb, userIds: [] });
    expect((await ok('admin', 'GET', `/project/userprojectlist?id=${pb}`)).length).toBe(1);
    await ok('admin', 'POST', '/project/setuserproject', { id: pb, userIds: [] });
    expect((await call(alpha, 'GET', `/device/basic?id=${d1}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('devices: every field, a secret shown once, unique SN, validation by field', async () => {
    const { alpha, beta } = await owners('devices');
    const pa = await addProject(alpha, { name: 'Harbour' });
    const pb = await addProject(beta, { name: 'Mine site' });
    const created = await ok(alpha, 'POST', '/device/add', {
      name: 'BMU A', sn: 'HB-0001', typeId: bmu, projectId: pa, address: 'Berth 3', mapMode: 1, lng: 121.51, lat: 31.21,
      remarks: 'spare', alarmPhone: '+86 138 0000 0000', btCode: 'BT01', version4g: 'EC20-1.2', hardwareVersion: 'HW3',
      simNumber: '89860012345678901234', imei: '861234567890123', manufacturerModel: 'LFP-48V', description: '48 V pack',
    });
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [row] = await t.database.db.select({ h: devices.credentialHash }).from(devices).where(eq(devices.id, created.id));
    expect(row!.h).toBe(hashToken(created.secret));
    const basic = await ok(alpha, 'GET', `/device/basic?id=${created.id}`);
    expect(basic).toMatchObject({ sn: 'HB-0001', projectName: 'Harbour', typeName: '电池管理单元', typeNameEn: 'Battery management unit', typeNameJa: 'バッテリー管理ユニット', warningLevel: 0, imei: '861234567890123', online: false, lastSeenAt: null });

    expect(await call(alpha, 'POST', '/device/add', { name: 'Dup', sn: 'HB-0001', typeId: bmu })).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { field: 'sn', reason: 'snTaken', params: { sn: 'HB-0001' } },
    });
    expect((await call(alpha, 'POST', '/device/add', { name: 'x', sn: 'HB-9', typeId: bmu, imei: '86123abc' })).data.field).toBe('imei');
    expect((await call(alpha, 'POST', '/device/add', { name: 'x', sn: 'HB 9', typeId: bmu })).data.field).toBe('sn');
    expect((await call(alpha, 'POST', '/device/add', { name: 'x', sn: 'HB-9', typeId: bmu, projectId: pb })).data.field).toBe('projectId');

    const again = await ok(alpha, 'POST', '/device/credential', { id: created.id });
    expect(again.secret).not.toBe(created.secret);
  });

  it('sub-devices: one level, counted and listed', async () => {
    const { alpha } = await owners('subdevices');
    const parent = await addDevice(alpha, { name: 'BMU S', sn: 'SD-0001' });
    const child = await addDevice(alpha, { name: 'Cell board', sn: 'SD-0001-C1', parentId: parent });
    expect((await ok(alpha, 'GET', `/device/subnum?id=${parent}`)).count).toBe(1);
    expect((await ok(alpha, 'GET', `/device/subdevicelist?id=${parent}`)).items.map((d: { sn: string }) => d.sn)).toEqual(['SD-0001-C1']);
    expect((await call(alpha, 'POST', '/device/add', { name: 'x', sn: 'SD-0001-C1-X', typeId: bmu, parentId: child })).data.field).toBe('parentId');
    expect((await call(alpha, 'POST', '/device/edit', { id: parent, name: 'BMU S', sn: 'SD-0001', typeId: bmu, parentId: parent })).data.field).toBe('parentId');
  });

  it('a device in the list is what its detail says: type names, project, last seen, sub-devices, every field', async () => {
    const { alpha } = await owners('rowsame');
    const pa = await addProject(alpha, { name: 'Quay' });
    const parent = await addDevice(alpha, { name: 'BMU Q', sn: 'RS-0001', projectId: pa, imei: '861234567890777', address: 'Bay 7' });
    await addDevice(alpha, { name: 'Cell Q', sn: 'RS-0001-C1', parentId: parent });
    const lone = await addDevice(alpha, { name: 'BMU R', sn: 'RS-0002' });
    await t.database.db
      .insert(devicePresence)
      .values({ deviceId: parent, lastSeenAt: new Date('2026-11-20T08:00:00.123Z') })
      .onConflictDoUpdate({ target: devicePresence.deviceId, set: { lastSeenAt: new Date('2026-11-20T08:00:00.123Z') } });
    // The first page and a page after a cursor are read by lookups; a page by offset and the
    // last-seen order by joins, as the detail is: all of them give the detail's fields.
    const first = await ok(alpha, 'GET', '/device/list?q=rs-000&topLevel=true&sort=sn&order=asc&limit=1');
    const after = await ok(alpha, 'GET', `/device/list?q=rs-000&topLevel=true&sort=sn&order=asc&limit=1&after=${encodeURIComponent(first.next)}`);
    const byOffset = await ok(alpha, 'GET', '/device/list?q=rs-000&topLevel=true&sort=sn&order=asc&limit=1&page=2');
    const bySeen = await ok(alpha, 'GET', '/device/list?q=rs-000&topLevel=true&sort=lastSeenAt');
    const detail = async (id: number) => ok(alpha, 'GET', `/device/basic?id=${id}`);
    expect(first.items).toEqual([await detail(parent)]);
    expect(first.items[0]).toMatchObject({ projectName: 'Quay', typeName: expect.any(String), subCount: 1, lastSeenAt: '2026-11-20T08:00:00.123Z' });
    expect(after.items).toEqual([await detail(lone)]);
    expect(after.items[0]).toMatchObject({ projectId: null, projectName: null, subCount: 0 });
    expect(byOffset.items).toEqual(after.items);
    expect(bySeen.items).toEqual([...first.items, ...after.items]);
  });

  it('lists filter by project, type, online, level and free text; sort and page on the server', async () => {
    const { alpha } = await owners('lists');
    const pa = await addProject(alpha, { name: 'Harbour' });
    const first = await addDevice(alpha, { name: 'BMU 1', sn: 'LS-0001', projectId: pa, simNumber: '89860012345678901234', imei: '861234567890124' });
    await addDevice(alpha, { name: 'Cell board', sn: 'LS-0001-C1', parentId: first });
    for (let i = 2; i <= 6; i++) {
      await addDevice(alpha, { name: `BMU ${i}`, sn: `LS-000${i}`, projectId: pa, simNumber: `8986${i}` });
    }
    // Warning levels are the alarm engine's (the highest active alarm): set here as it would.
    await t.database.db.update(devices).set({ warningLevel: 1 }).where(inArray(devices.sn, ['LS-0003', 'LS-0005']));
    const page = await ok(alpha, 'GET', `/device/list?projectId=${pa}&sort=sn&order=desc&limit=2&page=2`);
    expect(page.total).toBe(6);
    expect(page.items.map((d: { sn: string }) => d.sn)).toEqual(['LS-0004', 'LS-0003']);
    expect((await ok(alpha, 'GET', '/device/list?warningLevel=1')).items.map((d: { sn: string }) => d.sn).sort()).toEqual(['LS-0003', 'LS-0005']);
    expect((await ok(alpha, 'GET', '/device/list?q=89865')).items.map((d: { sn: string }) => d.sn)).toEqual(['LS-0005']);
    expect((await ok(alpha, 'GET', '/device/list?q=861234567890124')).items.map((d: { sn: string }) => d.sn)).toEqual(['LS-0001']);
    expect((await ok(alpha, 'GET', '/device/list?online=true')).total).toBe(0);
    expect((await ok(alpha, 'GET', `/device/list?typeId=${bmu}&limit=200`)).total).toBe(7);
    expect((await ok(alpha, 'GET', '/device/seachList?q=ls-000&limit=3')).map((d: { sn: string }) => d.sn)).toEqual(['LS-0001', 'LS-0001-C1', 'LS-0002']);
    expect((await call(alpha, 'GET', '/device/list?sort=password')).data.field).toBe('sort');
  });

  it('moves and deletes in bulk; a project with devices needs a destination; a used type stays', async () => {
    const { alpha } = await owners('moves');
    const pa = await addProject(alpha, { name: 'Harbour' });
    const pa2 = await addProject(alpha, { name: 'Harbour B' });
    const placed: number[] = [];
    for (let i = 1; i <= 4; i++) placed.push(await addDevice(alpha, { name: `BMU ${i}`, sn: `MV-000${i}`, projectId: pa }));
    const two = placed.slice(2);
    expect((await ok(alpha, 'POST', '/device/editdevicelistproject', { ids: two, projectId: pa2 })).count).toBe(2);
    expect((await ok(alpha, 'GET', `/device/list?projectId=${pa2}`)).total).toBe(2);

    const refused = await call(alpha, 'DELETE', `/project/deleteproject?id=${pa2}`);
    // The console translates the reason code; the message is the English text for API users.
    expect(refused).toMatchObject({
      code: ErrorCode.CONFLICT,
      message: 'This project still holds 2 device(s): move them to another project first',
      data: { reason: 'projectHasDevices', params: { count: 2 } },
    });
    await ok(alpha, 'DELETE', `/project/deleteproject?id=${pa2}&moveTo=${pa}`);
    expect((await ok(alpha, 'GET', `/device/list?projectId=${pa}`)).total).toBe(4);

    const { id: type } = await ok(alpha, 'POST', '/devicetype/addtype', { code: 'TMP', name: 'Temporary' });
    const dev = await addDevice(alpha, { name: 'tmp', sn: 'TMP-1', typeId: type });
    expect(await call(alpha, 'DELETE', `/devicetype/deletetype?id=${type}`)).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { reason: 'typeInUse', params: { count: 1 } },
    });
    expect((await ok(alpha, 'DELETE', `/device/delete?id=${dev},${two[0]}`)).count).toBe(2);
    await ok(alpha, 'DELETE', `/devicetype/deletetype?id=${type}`);
    expect((await call(alpha, 'DELETE', '/device/delete?id=1,x')).data.field).toBe('id');
    const logs = (await ok('admin', 'GET', '/logs/list?entity=device&limit=100')).items as { action: string; username?: string }[];
    expect(logs.map((l) => l.action)).toEqual(expect.arrayContaining(['device.add', 'device.move', 'device.delete']));
  });
});
