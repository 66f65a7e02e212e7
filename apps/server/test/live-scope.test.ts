import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, LiveType, type LiveServerMessage } from '@iot/contract';
import { createLocalBus } from '../src/lib/events.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { connectLive, type LiveTestClient } from './live-client.js';

/**
 * Live scope follows access at once (issue #32): a sub-user following a device stops receiving
 * its values (150) and online state (151) the moment it may no longer see the device, and is told
 * so (DEVICES_REVOKED, 142). Each test makes its own sub-user, role, projects and devices.
 *
 * The barrier: the revoked device reports first, then a device the sub-user still sees; once the
 * second one's values arrive, the first one's would have come before them.
 */
describe('live scope follows access', () => {
  let t: TestApp;
  let url: string;
  let admin: string;
  let typeId: number;
  const ids: Record<string, number> = {};
  let seq = 0;
  const sockets: LiveTestClient[] = [];
  /** The application's own event bus (kept to send a burst of changes in one tick). */
  const bus = createLocalBus();

  const api = async (token: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) =>
    (await t.app.inject({ method, url: `/api/v1${path}`, headers: bearer(token), payload })).json() as {
      code: number;
      message: string;
      data: Record<string, unknown> & { id?: number };
    };
  const ok = async (token: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) => {
    const r = await api(token, method, path, payload);
    if (r.code !== 20000) throw new Error(`${method} ${path}: ${JSON.stringify(r)}`);
    return r.data;
  };
  const permissionIds = async (codes: string[]) => {
    const list = (await ok(admin, 'GET', '/permission/getlist?limit=200')) as unknown as { items: { id: number; identification: string }[] };
    return codes.map((c) => list.items.find((p) => p.identification === c)!.id);
  };
  /** A role of its own that may read devices. */
  const viewerRole = async () => {
    const n = ++seq;
    const { id } = await ok(admin, 'POST', '/role/add', { name: `Viewer ${n}`, identification: `VIEWER_${n}` });
    await ok(admin, 'POST', '/role/setpermission', { id, permissionIds: await permissionIds(['device:list', 'device:detail']) });
    return id!;
  };
  /** A sub-user of tenant A with a role of its own, signed in. */
  const subUser = async () => {
    const roleId = await viewerRole();
    const username = `sub${++seq}`;
    const { id } = await ok(admin, 'POST', '/user/add', { username, password: 'sub-pass-123', type: 1, roleId, parentId: ids.tenantA });
    return { id: id!, roleId, token: await t.login(username, 'sub-pass-123') };
  };
  const project = async (ownerId: number) => (await ok(admin, 'POST', '/project/addproject', { name: `P${++seq}`, ownerId })).id!;
  /** A device put in a project by the administrator: it belongs to the project owner's line. */
  const device = async (projectId: number) => {
    const sn = `LS-${++seq}`;
    const { id } = await ok(admin, 'POST', '/device/add', { name: `Rack ${sn}`, sn, typeId, projectId });
    return { id: id!, sn };
  };
  const report = async (d: { sn: string }, value: number) => {
    const dev = await t.app.ingest.deviceOf(d.sn);
    await t.app.ingest.uplink(dev!, 'telemetry', { values: { '01111001': value } });
  };
  const live = async (user: { id: number; token: string }, follow: number[]) => {
    const c = connectLive(url);
    sockets.push(c);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId: user.id, token: user.token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    c.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: follow });
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICES_SUBSCRIBED));
    expect(c.received.find((m) => m.type === LiveType.DEVICES_SUBSCRIBED)).toEqual({ type: LiveType.DEVICES_SUBSCRIBED, deviceIds: expect.arrayContaining(follow) });
    return c;
  };
  const about = (deviceId: number) => (m: LiveServerMessage) =>
    (m.type === LiveType.DEVICE_VALUES || m.type === LiveType.DEVICE_STATUS) && m.deviceId === deviceId;
  const revoked = (c: LiveTestClient) =>
    c.received.filter((m): m is Extract<LiveServerMessage, { type: typeof LiveType.DEVICES_REVOKED }> => m.type === LiveType.DEVICES_REVOKED);

  /** When the first DEVICES_REVOKED arrived. */
  const revokedAt = (c: LiveTestClient) => c.arrived[c.received.findIndex((m) => m.type === LiveType.DEVICES_REVOKED)]!;

  /**
   * Right after the change answered, the lost device reports, then the kept one: the kept one's
   * value arrives, the lost one's never does, and the socket was told within the second.
   */
  const expectStopped = async (c: LiveTestClient, lost: { id: number; sn: string }, kept: { id: number; sn: string }, changedAt: number) => {
    await report(lost, 11);
    await report(kept, 22);
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICE_VALUES && m.deviceId === kept.id && m.values['01111001'] === 22));
    await c.until(() => revoked(c).length > 0);
    expect(revoked(c)).toEqual([{ type: LiveType.DEVICES_REVOKED, deviceIds: [lost.id] }]);
    expect(c.received.filter(about(lost.id))).toEqual([]);
    expect(revokedAt(c) - changedAt).toBeLessThan(1000);
  };

  beforeAll(async () => {
    t = await buildTestApp({ API_RATE_LIMIT: '0' }, { bus });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/ws`;
    admin = await t.login();
    const roles = (await ok(admin, 'GET', '/role/getlist?limit=200')) as unknown as { items: { id: number; identification: string }[] };
    const adminRole = roles.items.find((r) => r.identification === 'ADMIN')!.id;
    for (const name of ['tenantA', 'tenantB']) {
      ids[name] = (await ok(admin, 'POST', '/user/add', { username: name, password: 'tenant-pass-1', type: 1, roleId: adminRole })).id!;
    }
    const types = (await ok(admin, 'GET', '/devicetype/typeoptionslist')) as unknown as { id: number; code: string }[];
    typeId = types.find((x) => x.code === 'BMU')!.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.close();
    await t.close();
  });

  it('a project unshared: its device stops at once, the sub-user’s own device goes on', async () => {
    const sub = await subUser();
    const shared = await project(ids.tenantA!);
    await ok(admin, 'POST', '/project/setuserproject', { id: shared, userIds: [sub.id] });
    const lost = await device(shared);
    const kept = await device(await project(sub.id));
    const c = await live(sub, [lost.id, kept.id]);

    await ok(admin, 'POST', '/project/setuserproject', { id: shared, userIds: [] });
    await expectStopped(c, lost, kept, Date.now());
    expect((await api(sub.token, 'GET', `/device/basic?id=${lost.id}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a device moved to another tenant by /device/edit stops at once, even values of the same instant', async () => {
    const sub = await subUser();
    const own = await project(sub.id);
    const lost = await device(own);
    const kept = await device(own);
    const c = await live(sub, [lost.id, kept.id]);

    // Values committed in the very instant of the change, before any re-check could run: the
    // kept device's go out once it is confirmed, the lost one's never.
    const off = bus.on('scope.changed', () => {
      off();
      const ts = new Date().toISOString();
      bus.emit('device.values', { deviceId: lost.id, ts, values: { '01111001': 1 } });
      bus.emit('device.status', { deviceId: lost.id, online: true, at: ts });
      bus.emit('device.values', { deviceId: kept.id, ts, values: { '01111001': 2 } });
    });
    const other = await project(ids.tenantB!);
    await ok(admin, 'POST', '/device/edit', { id: lost.id, projectId: other });
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICE_VALUES && m.deviceId === kept.id));
    expect(c.received.filter(about(lost.id))).toEqual([]);
    await expectStopped(c, lost, kept, Date.now());
  });

  it('a device moved to another tenant by the bulk move stops at once', async () => {
    const sub = await subUser();
    const own = await project(sub.id);
    const lost = await device(own);
    const kept = await device(own);
    const c = await live(sub, [lost.id, kept.id]);

    const other = await project(ids.tenantB!);
    await ok(admin, 'POST', '/device/editdevicelistproject', { ids: [lost.id], projectId: other });
    await expectStopped(c, lost, kept, Date.now());
    // The device took its new project owner's line: the sub-user no longer sees it anywhere.
    expect((await api(sub.token, 'GET', `/device/basic?id=${lost.id}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a project given to another tenant stops its devices at once for the old owner', async () => {
    const sub = await subUser();
    const given = await project(sub.id);
    const lost = await device(given);
    const kept = await device(await project(sub.id));
    const c = await live(sub, [lost.id, kept.id]);

    await ok(admin, 'POST', '/project/editproject', { id: given, ownerId: ids.tenantB });
    await expectStopped(c, lost, kept, Date.now());
    // Its devices took the new owner's line: the old owner no longer sees them anywhere.
    expect((await api(sub.token, 'GET', `/device/basic?id=${lost.id}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a user moved to another tenant: its old agent stops following what the user owns', async () => {
    const sub = await subUser();
    const lost = await device(await project(sub.id));
    const kept = await device(await project(ids.tenantA!));
    const agent = { id: ids.tenantA!, token: await t.login('tenantA', 'tenant-pass-1') };
    const c = await live(agent, [lost.id, kept.id]);

    await ok(admin, 'POST', '/user/edit', { id: sub.id, parentId: ids.tenantB });
    await expectStopped(c, lost, kept, Date.now());
    expect((await api(agent.token, 'GET', `/device/basic?id=${lost.id}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a deleted device stops at once', async () => {
    const sub = await subUser();
    const own = await project(sub.id);
    const lost = await device(own);
    const kept = await device(own);
    const c = await live(sub, [lost.id, kept.id]);
    await ok(admin, 'DELETE', `/device/delete?id=${lost.id}`);
    // A deleted device reports nothing more; the kept one's value is the barrier for the revoke.
    await report(kept, 33);
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICE_VALUES && m.deviceId === kept.id));
    expect(revoked(c)).toEqual([{ type: LiveType.DEVICES_REVOKED, deviceIds: [lost.id] }]);
  });

  it('a role that loses the right to read devices stops every followed device at once', async () => {
    const sub = await subUser();
    const own = await project(sub.id);
    const lost = await device(own);
    const c = await live(sub, [lost.id]);
    // Another user still following the device: its value reaching the administrator's socket
    // means it was dispatched; a ping on the sub-user's socket then comes after anything sent there.
    const watcher = await live({ id: 1, token: admin }, [lost.id]);

    const codes = await permissionIds(['user:list']);
    await ok(admin, 'POST', '/role/setpermission', { id: sub.roleId, permissionIds: codes });
    const changedAt = Date.now();
    await report(lost, 44);
    await watcher.until(() => watcher.received.some((m) => m.type === LiveType.DEVICE_VALUES && m.deviceId === lost.id));
    await c.pinged();
    await c.until(() => revoked(c).length > 0);
    expect(revoked(c)).toEqual([{ type: LiveType.DEVICES_REVOKED, deviceIds: [lost.id] }]);
    expect(c.received.filter(about(lost.id))).toEqual([]);
    expect(revokedAt(c) - changedAt).toBeLessThan(1000);
    // The socket stays open with its new rights; REST agrees.
    expect(c.closed()).toBeUndefined();
    expect((await api(sub.token, 'GET', `/device/basic?id=${lost.id}`)).code).toBe(ErrorCode.FORBIDDEN);
  });

  it('a user whose role changes or who is disabled: the session ends and the socket closes', async () => {
    for (const change of ['role', 'disable'] as const) {
      const sub = await subUser();
      const d = await device(await project(sub.id));
      const c = await live(sub, [d.id]);
      const edit = change === 'role' ? { roleId: await viewerRole() } : { enabled: false };
      await ok(admin, 'POST', '/user/edit', { id: sub.id, ...edit });
      await c.until(() => c.closed() !== undefined, 1000);
      expect(c.closed()).toBe(4001);
      expect(c.received.find((m) => m.type === LiveType.SESSION_ENDED)).toMatchObject({ code: ErrorCode.TOKEN_REVOKED });
      expect((await api(sub.token, 'GET', `/device/basic?id=${d.id}`)).code).toBe(ErrorCode.TOKEN_REVOKED);
    }
  });

  it('a burst of changes costs one re-check per connected user, not one per change or socket', async () => {
    const sub = await subUser();
    const own = await project(sub.id);
    const devices = [await device(own), await device(own), await device(own)];
    const deviceIds = devices.map((d) => d.id);
    await live(sub, deviceIds);
    await live(sub, deviceIds.slice(0, 1));
    const before = t.app.realtime.queries().recheck;
    // Many changes in one tick, about the user and about its devices.
    for (let i = 0; i < 50; i++) {
      bus.emit('scope.changed', { deviceIds: [deviceIds[i % 3]!] });
      bus.emit('scope.changed', { userIds: [sub.id] });
    }
    await expect.poll(() => t.app.realtime.queries().recheck).toBeGreaterThan(before);
    // A later change is the barrier: had the burst cost more than one query, they came first.
    setImmediate(() => bus.emit('scope.changed', { deviceIds: [deviceIds[0]!] }));
    await expect.poll(() => t.app.realtime.queries().recheck).toBeGreaterThanOrEqual(before + 2);
    expect(t.app.realtime.queries().recheck).toBe(before + 2);
  });
});
