import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type MenuNode } from '@iot/contract';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * Edits change only the fields they were sent: for every edit route, a field that is not sent
 * keeps its stored value and a sent one changes; sent fields are validated as on create, `null`
 * clears a nullable field, and uniqueness and cross-field rules hold for the resulting record.
 */
describe('edits change only the fields sent', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const { call, ok } = apiAs(() => t, tok);

  const roleId = async (identification: string) =>
    ((await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[]).find(
      (r) => r.identification === identification,
    )!.id;

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    ids.ADMIN = await roleId('ADMIN');
    ids.BATTERY = await roleId('BATTERYMANAGEMENT');
    ids.bmu = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
  });
  afterAll(() => t.close());

  it('/user/edit: changing the company name keeps the contact number, role, language and state', async () => {
    const { id } = await ok('admin', 'POST', '/user/add', {
      username: 'kept', password: 'secret-pass', type: 1, roleId: ids.BATTERY,
      corporateName: 'ACME', corporateAddress: '1 Harbour Road', contactNumber: '+34 600 000 000', language: 'es', dashboardStyle: 'battery',
    });
    await ok('admin', 'POST', '/user/edit', { id, corporateName: 'ACME Batteries' });
    expect(await ok('admin', 'GET', `/user/item?id=${id}`)).toMatchObject({
      corporateName: 'ACME Batteries', corporateAddress: '1 Harbour Road', contactNumber: '+34 600 000 000',
      language: 'es', dashboardStyle: 'battery', roleId: ids.BATTERY, type: 1, enabled: true, parentId: 1,
    });
    // A sent field is validated as on create and named; nothing is changed then.
    expect(await call('admin', 'POST', '/user/edit', { id, contactNumber: 'call me' })).toMatchObject({
      code: ErrorCode.VALIDATION, data: { field: 'contactNumber' },
    });
    await ok('admin', 'POST', '/user/edit', { id, contactNumber: '' });
    expect(await ok('admin', 'GET', `/user/item?id=${id}`)).toMatchObject({ contactNumber: '', corporateName: 'ACME Batteries' });
    // The parent rule holds for a parent-only edit: not below itself.
    const { id: child } = await ok('admin', 'POST', '/user/add', { username: 'kept-child', password: 'secret-pass', type: 1, roleId: ids.BATTERY, parentId: id });
    expect((await call('admin', 'POST', '/user/edit', { id, parentId: child })).data).toMatchObject({ field: 'parentId', reason: 'userCycle' });
  });

  it('/device/edit: a rename keeps position, IMEI, project and the rest', async () => {
    const project = (await ok('admin', 'POST', '/project/addproject', { name: 'Harbour' })).id;
    const full = {
      name: 'BMU A', sn: 'ED-0001', typeId: ids.bmu, projectId: project, address: 'Berth 3', mapMode: 1, lng: 121.51, lat: 31.21,
      remarks: 'spare', alarmPhone: '+86 138 0000 0000', btCode: 'BT01', version4g: 'EC20-1.2', hardwareVersion: 'HW3',
      simNumber: '89860012345678901234', imei: '861234567890123', manufacturerModel: 'LFP-48V', description: '48 V pack',
    };
    const { id } = await ok('admin', 'POST', '/device/add', full);
    await ok('admin', 'POST', '/device/edit', { id, name: 'BMU A (renamed)' });
    const { sn: _sn, ...unchanged } = full;
    expect(await ok('admin', 'GET', `/device/basic?id=${id}`)).toMatchObject({ ...unchanged, sn: 'ED-0001', name: 'BMU A (renamed)', projectName: 'Harbour' });

    // null clears a nullable field; the others stay.
    await ok('admin', 'POST', '/device/edit', { id, lng: null, lat: null, projectId: null });
    expect(await ok('admin', 'GET', `/device/basic?id=${id}`)).toMatchObject({ lng: null, lat: null, projectId: null, imei: '861234567890123' });
    // Sent fields keep their create validation; SN uniqueness holds for an SN-only edit.
    expect((await call('admin', 'POST', '/device/edit', { id, imei: '86x' })).data.field).toBe('imei');
    expect((await call('admin', 'POST', '/device/edit', { id, name: null })).data.field).toBe('name');
    await ok('admin', 'POST', '/device/add', { name: 'Other', sn: 'ED-0002', typeId: ids.bmu });
    expect(await call('admin', 'POST', '/device/edit', { id, sn: 'ED-0002' })).toMatchObject({ code: ErrorCode.CONFLICT, data: { field: 'sn' } });
    // A device cannot become its own parent, nor take a type that does not exist.
    expect((await call('admin', 'POST', '/device/edit', { id, parentId: id })).data).toMatchObject({ field: 'parentId', reason: 'deviceOwnParent' });
    expect((await call('admin', 'POST', '/device/edit', { id, typeId: 999999 })).data).toMatchObject({ field: 'typeId', reason: 'noDeviceType' });
    expect(await ok('admin', 'GET', `/device/basic?id=${id}`)).toMatchObject({ sn: 'ED-0001', parentId: null, typeId: ids.bmu });
  });

  it('/project/editproject: a rename keeps address, position, switches and owner', async () => {
    const { id } = await ok('admin', 'POST', '/project/addproject', { name: 'Mine site', remarks: 'north', address: 'Pit 2', lng: 116.4, lat: 39.9, weather: true, map: false });
    await ok('admin', 'POST', '/project/editproject', { id, name: 'Mine site B' });
    expect(await ok('admin', 'GET', `/project/item?id=${id}`)).toMatchObject({
      name: 'Mine site B', remarks: 'north', address: 'Pit 2', lng: 116.4, lat: 39.9, weather: true, map: false, ownerId: 1,
    });
    await ok('admin', 'POST', '/project/editproject', { id, lat: null, lng: null });
    expect(await ok('admin', 'GET', `/project/item?id=${id}`)).toMatchObject({ name: 'Mine site B', lng: null, lat: null, weather: true });
    expect((await call('admin', 'POST', '/project/editproject', { id, lat: 100 })).data.field).toBe('lat');
  });

  it('/project/editroadsection: a rename keeps the points, description and order', async () => {
    const points = [[121.5, 31.2], [121.6, 31.3]];
    const { id: projectId } = await ok('admin', 'POST', '/project/addproject', { name: 'Quay' });
    const { id } = await ok('admin', 'POST', '/project/addroadsection', { projectId, name: 'Quay road', description: 'one way', sort: 3, points });
    await ok('admin', 'POST', '/project/editroadsection', { id, name: 'Quay road east' });
    const section = (await ok('admin', 'GET', `/project/roadsectionlist?projectId=${projectId}`)).items.find((s: { id: number }) => s.id === id);
    expect(section).toMatchObject({ name: 'Quay road east', description: 'one way', sort: 3, points });
    await ok('admin', 'POST', '/project/editroadsection', { id, points: [[121.7, 31.4]] });
    const moved = (await ok('admin', 'GET', `/project/roadsectionlist?projectId=${projectId}`)).items.find((s: { id: number }) => s.id === id);
    expect(moved).toMatchObject({ name: 'Quay road east', points: [[121.7, 31.4]] });
    expect((await call('admin', 'POST', '/project/editroadsection', { id, name: ' ' })).data.field).toBe('name');
  });

  it('/role/edit: a rename keeps the identification; a built-in role keeps its own', async () => {
    const { id } = await ok('admin', 'POST', '/role/add', { name: 'Night shift', identification: 'NIGHT' });
    await ok('admin', 'POST', '/role/edit', { id, name: 'Night crew' });
    expect(await ok('admin', 'GET', `/role/getitem?id=${id}`)).toMatchObject({ name: 'Night crew', identification: 'NIGHT' });
    await ok('admin', 'POST', '/role/edit', { id, identification: 'NIGHT_CREW' });
    expect(await ok('admin', 'GET', `/role/getitem?id=${id}`)).toMatchObject({ name: 'Night crew', identification: 'NIGHT_CREW' });
    expect(await call('admin', 'POST', '/role/edit', { id, identification: 'ADMIN' })).toMatchObject({ code: ErrorCode.CONFLICT, data: { field: 'identification' } });
    expect((await call('admin', 'POST', '/role/edit', { id: ids.ADMIN, identification: 'BOSS' })).data.reason).toBe('builtinRoleRename');
    // A built-in role can be renamed without sending its identification.
    await ok('admin', 'POST', '/role/edit', { id: ids.ADMIN, name: 'Administrators' });
    expect(await ok('admin', 'GET', `/role/getitem?id=${ids.ADMIN}`)).toMatchObject({ name: 'Administrators', identification: 'ADMIN' });
  });

  it('/permission/edit: a rename keeps the code and the menu; a console code keeps its code', async () => {
    const menuId = (await ok('admin', 'GET', '/permission/menuoptions'))[0].id as number;
    const { id } = await ok('admin', 'POST', '/permission/add', { name: 'Export reports', identification: 'report:export', menuId });
    await ok('admin', 'POST', '/permission/edit', { id, name: 'Export all reports' });
    expect(await ok('admin', 'GET', `/permission/getitem?id=${id}`)).toMatchObject({ name: 'Export all reports', identification: 'report:export', menuId });
    expect((await call('admin', 'POST', '/permission/edit', { id, menuId: 999999 })).data).toMatchObject({ field: 'menuId', reason: 'noMenu' });
    const builtin = (await ok('admin', 'GET', '/permission/getlist?identification=role:list')).items[0] as { id: number; menuId: number };
    await ok('admin', 'POST', '/permission/edit', { id: builtin.id, name: 'See roles' });
    expect(await ok('admin', 'GET', `/permission/getitem?id=${builtin.id}`)).toMatchObject({ name: 'See roles', identification: 'role:list', menuId: builtin.menuId });
    expect((await call('admin', 'POST', '/permission/edit', { id: builtin.id, identification: 'role:see' })).data.reason).toBe('consoleCodeRename');
  });

  it('/menu/editmenutest: a re-sort keeps names, route, icon and parent; a parent-only edit cannot make a cycle', async () => {
    const { id } = await ok('admin', 'POST', '/menu/addmenutest', {
      name: '报表', nameEn: 'Reports', nameEs: 'Informes', nameJa: 'レポート', jumpType: 1, menuUrl: '/reports', menuType: 1, icon: 'chart', identification: 'edit-reports', sort: 95, isShow: 1,
    });
    const { id: child } = await ok('admin', 'POST', '/menu/addmenutest', { parentId: id, name: '日报', jumpType: 1, menuUrl: 'daily', identification: 'edit-reports-daily', sort: 2 });
    await ok('admin', 'POST', '/menu/editmenutest', { id, sort: 96 });
    const node = ((await ok('admin', 'GET', '/menu/menutestlist')) as MenuNode[]).find((m) => m.id === id)!;
    expect(node).toMatchObject({
      parentId: 0, name: '报表', nameEn: 'Reports', nameEs: 'Informes', nameJa: 'レポート', jumpType: 1, menuUrl: '/reports', menuType: 1, icon: 'chart', identification: 'edit-reports', sort: 96, isShow: 1,
    });
    expect(node.children.map((c) => c.id)).toEqual([child]);
    expect((await call('admin', 'POST', '/menu/editmenutest', { id, parentId: child })).data).toMatchObject({ field: 'parentId', reason: 'menuCycle' });
    expect((await call('admin', 'POST', '/menu/editmenutest', { id, jumpType: 3 })).data.field).toBe('jumpType');
  });

  it('/devicetype/edittype: a rename keeps code, other languages, remarks and track recording', async () => {
    const { id } = await ok('admin', 'POST', '/devicetype/addtype', { code: 'PCS', name: '储能变流器', nameEn: 'Power converter', nameJa: 'パワコン', remarks: 'grid side', recordTrack: true });
    await ok('admin', 'POST', '/devicetype/edittype', { id, nameEs: 'Convertidor' });
    expect(await ok('admin', 'GET', `/devicetype/item?id=${id}`)).toMatchObject({
      code: 'PCS', name: '储能变流器', nameEn: 'Power converter', nameEs: 'Convertidor', nameJa: 'パワコン', remarks: 'grid side', recordTrack: true,
    });
    expect(await call('admin', 'POST', '/devicetype/edittype', { id, code: 'BMU' })).toMatchObject({ code: ErrorCode.CONFLICT, data: { field: 'code' } });
    expect((await call('admin', 'POST', '/devicetype/edittype', { id: ids.bmu, code: 'BMU2' })).data.reason).toBe('builtinTypeCode');
  });

  it('/user/preferences: one field changes, the others stay', async () => {
    await ok('admin', 'POST', '/user/preferences', { corporateName: 'ACME', corporateAddress: 'Pier 1', contactNumber: '+86 10 1234', dashboardStyle: 'battery', language: 'ja' });
    await ok('admin', 'POST', '/user/preferences', { corporateAddress: 'Pier 2' });
    expect(await ok('admin', 'GET', '/user/info')).toMatchObject({
      corporateName: 'ACME', corporateAddress: 'Pier 2', contactNumber: '+86 10 1234', dashboardStyle: 'battery', language: 'ja',
    });
    expect((await call('admin', 'POST', '/user/preferences', { contactNumber: 'call me' })).data.field).toBe('contactNumber');
  });

  it('the operation log names the edited object and only the fields sent', async () => {
    const last = async (action: string) =>
      ((await ok('admin', 'GET', `/logs/list?action=${action}&limit=1`)).items as { entityName: string; summary: string }[])[0]!;
    const summaryOf = async (action: string) => JSON.parse((await last(action)).summary) as unknown;

    const { id: project } = await ok('admin', 'POST', '/project/addproject', { name: 'Depot', remarks: 'east', address: 'Gate 1' });
    const { id: device } = await ok('admin', 'POST', '/device/add', { name: 'BMU L', sn: 'ED-LOG1', typeId: ids.bmu, imei: '861234567890999' });
    await ok('admin', 'POST', '/device/edit', { id: device, imei: '861234567890998' });
    expect(await last('device.edit')).toMatchObject({ entityName: 'BMU L', summary: JSON.stringify({ imei: '861234567890998' }) });
    // A new name and project: the project by its name; the old name stays the row's object.
    await ok('admin', 'POST', '/device/edit', { id: device, name: 'BMU L2', projectId: project });
    expect(await last('device.edit')).toMatchObject({ entityName: 'BMU L' });
    expect(await summaryOf('device.edit')).toEqual({ name: 'BMU L2', project: 'Depot' });
    await ok('admin', 'POST', '/device/edit', { id: device, projectId: null });
    expect(await summaryOf('device.edit')).toEqual({ project: null });

    await ok('admin', 'POST', '/project/editproject', { id: project, remarks: 'west' });
    expect(await last('project.edit')).toMatchObject({ entityName: 'Depot', summary: JSON.stringify({ remarks: 'west' }) });
    const { id: section } = await ok('admin', 'POST', '/project/addroadsection', { projectId: project, name: 'Gate road', sort: 1, points: [[121.5, 31.2]] });
    await ok('admin', 'POST', '/project/editroadsection', { id: section, sort: 4 });
    expect(await last('roadsection.edit')).toMatchObject({ entityName: 'Gate road', summary: JSON.stringify({ sort: 4 }) });
    await ok('admin', 'POST', '/project/editroadsection', { id: section, points: [[121.6, 31.3], [121.7, 31.4]] });
    expect(await summaryOf('roadsection.edit')).toEqual({ points: 2 });

    const { id: user } = await ok('admin', 'POST', '/user/add', {
      username: 'logged', password: 'secret-pass', type: 1, roleId: ids.BATTERY, corporateName: 'Log Ltd', contactNumber: '555 0100',
    });
    await ok('admin', 'POST', '/user/edit', { id: user, contactNumber: '555 0199' });
    expect(await last('user.edit')).toMatchObject({ entityName: 'logged', summary: JSON.stringify({ contactNumber: '555 0199' }) });
    const { id: role } = await ok('admin', 'POST', '/role/add', { name: 'Day shift', identification: 'DAY' });
    await ok('admin', 'POST', '/role/edit', { id: role, name: 'Day crew' });
    expect(await last('role.edit')).toMatchObject({ entityName: 'Day shift', summary: JSON.stringify({ name: 'Day crew' }) });
    const { id: type } = await ok('admin', 'POST', '/devicetype/addtype', { code: 'LOGT', name: '记录型', nameEn: 'Logger' });
    await ok('admin', 'POST', '/devicetype/edittype', { id: type, remarks: 'spare' });
    expect(await last('devicetype.edit')).toMatchObject({ entityName: '记录型', summary: JSON.stringify({ remarks: 'spare' }) });
  });
});
