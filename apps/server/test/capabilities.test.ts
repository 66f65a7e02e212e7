import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type CardDto, type DeviceDto, type ProjectDto } from '@iot/contract';
import { apiAs, buildTestApp, type EnvelopeJson, type TestApp } from './helpers.js';

const CHARGE = '10000030';

/**
 * The `can` of devices, projects and SIM cards says what the services then do: for the owner, a
 * sub-user a project is only shared with, a sub-user owning a project of its own and another
 * tenant, every action is called and its answer must agree with what `can` promised (accepted
 * when true, refused with 403 or 404 when false).
 */
describe('what the caller may do (`can`)', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tok);
  let bmu: number;

  /** A refusal the console shows as "not allowed": forbidden, or not even visible. */
  const refused = (r: EnvelopeJson) => r.code === ErrorCode.FORBIDDEN || r.code === ErrorCode.NOT_FOUND;
  /** The answer agrees with the promise: accepted when `can` was true, refused when false. */
  const agrees = (promised: boolean, r: EnvelopeJson, what: string) =>
    expect(promised ? r.code === 20000 : refused(r), `${what}: can=${promised}, answered ${r.code} ${r.message}`).toBe(true);

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    bmu = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
  });
  afterAll(() => t.close());

  /**
   * alpha (administrators) owns project P with a device and a card and shares P with its
   * sub-user (battery management: device:edit and device:command, no device:delete, no project
   * or card changes); alpha also gives that sub-user a project Q of its own with a device. beta is
   * another tenant.
   */
  const world = async (tag: string) => {
    const roles = (await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    const roleId = (code: string) => roles.find((r) => r.identification === code)!.id;
    const [alpha, sub, beta] = [`alpha-${tag}`, `sub-${tag}`, `beta-${tag}`];
    for (const who of [alpha, beta]) {
      await ok('admin', 'POST', '/user/add', { username: who, password: 'secret-pass', type: 1, roleId: roleId('ADMIN') });
      tok[who] = await t.login(who, 'secret-pass');
    }
    const subId = (await ok(alpha, 'POST', '/user/add', { username: sub, password: 'secret-pass', type: 1, roleId: roleId('BATTERYMANAGEMENT') })).id;
    tok[sub] = await t.login(sub, 'secret-pass');
    const p = (await ok(alpha, 'POST', '/project/addproject', { name: `Shared ${tag}` })).id as number;
    const q = (await ok(alpha, 'POST', '/project/addproject', { name: `Own ${tag}`, ownerId: subId })).id as number;
    await ok(alpha, 'POST', '/project/setuserproject', { id: p, userIds: [subId] });
    const shared = (await ok(alpha, 'POST', '/device/add', { name: `Shared ${tag}`, sn: `CAN-S-${tag}`, typeId: bmu, projectId: p })).id as number;
    const owned = (await ok(alpha, 'POST', '/device/add', { name: `Own ${tag}`, sn: `CAN-O-${tag}`, typeId: bmu, projectId: q })).id as number;
    const iccid = `8986${String(Date.now()).padStart(15, '0')}`.slice(0, 19);
    const card = (await ok(alpha, 'POST', '/card/addCard', { iccid, projectId: p })).id as number;
    return { alpha, sub, beta, p, q, shared, owned, card };
  };

  /** The device's `can` from the list and from its details; both must say the same. */
  const deviceCan = async (who: string, id: number) => {
    const listed = ((await ok(who, 'GET', '/device/list?limit=200')).items as DeviceDto[]).find((d) => d.id === id);
    const basic = await call(who, 'GET', `/device/basic?id=${id}`);
    if (!listed) {
      expect(basic.code).toBe(ErrorCode.NOT_FOUND);
      return undefined;
    }
    expect(basic.data.can).toEqual(listed.can);
    return listed.can;
  };

  /** Calls every device action (delete last) and checks each answer against `can`. */
  const tryDevice = async (who: string, id: number, projectId: number, can: DeviceDto['can'] | undefined) => {
    const c = can ?? { edit: false, secret: false, move: false, command: false, fence: false, delete: false };
    agrees(c.edit, await call(who, 'POST', '/device/edit', { id, remarks: `by ${who}` }), `${who} edit`);
    agrees(c.secret, await call(who, 'POST', '/device/credential', { id }), `${who} secret`);
    // To the project it is in: only the right to move is asked, not the choice of target.
    agrees(c.move, await call(who, 'POST', '/device/editdevicelistproject', { ids: [id], projectId }), `${who} move`);
    agrees(c.command, await call(who, 'POST', '/device/setparams', { id, values: { [CHARGE]: false } }), `${who} command`);
    agrees(c.fence, await call(who, 'POST', '/device/setfence', { id, lng: 116.4, lat: 39.9, radius: 300, action: 'lock' }), `${who} fence`);
    agrees(c.delete, await call(who, 'DELETE', `/device/delete?id=${id}`), `${who} delete`);
  };

  it('devices: the owner may do everything, the shared sub-user nothing, another tenant sees nothing', async () => {
    const w = await world('dev');
    const subCan = await deviceCan(w.sub, w.shared);
    // It holds device:edit, device:command and device:fence: only the project's owner line refuses it.
    expect(subCan).toEqual({ edit: false, secret: false, move: false, command: false, fence: false, delete: false });
    await tryDevice(w.sub, w.shared, w.p, subCan);
    expect(await deviceCan(w.beta, w.shared)).toBeUndefined();
    await tryDevice(w.beta, w.shared, w.p, undefined);
    const ownerCan = await deviceCan(w.alpha, w.shared);
    expect(ownerCan).toEqual({ edit: true, secret: true, move: true, command: true, fence: true, delete: true });
    await tryDevice(w.alpha, w.shared, w.p, ownerCan);
  });

  it('devices: a sub-user changes what its own project holds, within its role’s codes', async () => {
    const w = await world('own');
    const can = await deviceCan(w.sub, w.owned);
    // Battery management holds no device:delete.
    expect(can).toEqual({ edit: true, secret: true, move: true, command: true, fence: true, delete: false });
    await tryDevice(w.sub, w.owned, w.q, can);
  });

  it('projects: shared ones are read-only; changing needs the owner line and the code', async () => {
    const w = await world('proj');
    const canOf = async (who: string, id: number) => {
      const listed = ((await ok(who, 'GET', '/project/list?limit=200')).items as ProjectDto[]).find((p) => p.id === id);
      expect((await ok(who, 'GET', `/project/item?id=${id}`)).can).toEqual(listed!.can);
      return listed!.can;
    };
    const tryProject = async (who: string, id: number, can: ProjectDto['can']) => {
      agrees(can.edit, await call(who, 'POST', '/project/editproject', { id, remarks: `by ${who}` }), `${who} edit`);
      agrees(can.edit, await call(who, 'POST', '/project/addroadsection', { projectId: id, name: 'Gate' }), `${who} road section`);
      const users = (await ok(w.alpha, 'GET', `/project/userprojectlist?id=${id}`)) as { id: number }[];
      agrees(can.users, await call(who, 'POST', '/project/setuserproject', { id, userIds: users.map((u) => u.id) }), `${who} users`);
      agrees(can.delete, await call(who, 'DELETE', `/project/deleteproject?id=${id}&moveTo=0`), `${who} delete`);
    };
    // Shared: nothing. Its own project, but a role without project codes: nothing either.
    for (const id of [w.p, w.q]) {
      const can = await canOf(w.sub, id);
      expect(can).toEqual({ edit: false, delete: false, users: false });
      await tryProject(w.sub, id, can);
    }
    const owner = await canOf(w.alpha, w.p);
    expect(owner).toEqual({ edit: true, delete: true, users: true });
    await tryProject(w.alpha, w.p, owner);
  });

  it('SIM cards: a card in a shared project is read-only to the sub-user', async () => {
    const w = await world('card');
    const canOf = async (who: string) =>
      ((await ok(who, 'GET', '/card/getSimList?limit=200')).items as CardDto[]).find((c) => c.id === w.card)!.can;
    const tryCard = async (who: string, can: CardDto['can']) => {
      agrees(can.edit, await call(who, 'POST', '/card/editCard', { id: w.card, remarks: `by ${who}` }), `${who} edit`);
      agrees(can.delete, await call(who, 'DELETE', `/card/deleteCard?id=${w.card}`), `${who} delete`);
    };
    const sub = await canOf(w.sub);
    expect(sub).toEqual({ edit: false, delete: false });
    await tryCard(w.sub, sub);
    const owner = await canOf(w.alpha);
    expect(owner).toEqual({ edit: true, delete: true });
    await tryCard(w.alpha, owner);
  });
});
