import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTHENTICATED, ErrorCode, PERMISSIONS, PUBLIC, type PermissionCode } from '@iot/contract';
import { writeSheet } from '../src/lib/sheet.js';
import { SimulatedPayments } from '../src/modules/card/payment.simulated.js';
import { firmwareDir } from '../src/modules/upgrade/firmware.serve.js';
import { ADMIN, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

/**
 * The authorization matrix. Every /api/v1 route has an entry stating the permission it must
 * need, written here independently of the route's own declaration. For each route:
 *  - no token → 50008;
 *  - `op`, an ordinary (scoped) user whose role holds exactly the entry's code(s) → 20000, and
 *    with a role holding every other code → 40300 (so a route declaring the wrong code fails);
 *  - `alpha` asking for an object of `beta`'s subtree → 40400.
 * Requests are prepared while `op`'s role holds every code, so they can create what they need in
 * `op`'s own subtree. A route without an entry fails the suite.
 */

type Perm = typeof PUBLIC | typeof AUTHENTICATED | PermissionCode | readonly PermissionCode[];
interface Req {
  /** The concrete path of a route with parameters (`/ingest/:kind` → `/ingest/telemetry`). */
  url?: string;
  query?: Record<string, string | number>;
  payload?: object | Buffer;
  headers?: Record<string, string>;
}
interface Case {
  /** The permission the route must need (any of a list). */
  perm: Perm;
  /** A valid request for the allowed user (may create what it needs first, as `op`). */
  ok: () => Promise<Req>;
  /** A request by `alpha` for an object of `beta`'s subtree; must answer 404. */
  foreign?: () => Promise<Req>;
}

const any = (verb: string) => [`admin:${verb}`, `user:${verb}`, `agent:${verb}`] as PermissionCode[];
const ALL_CODES = Object.keys(PERMISSIONS) as PermissionCode[];
const BROKER_AUTH_SECRET = 'matrix-broker-secret-123';
const payments = new SimulatedPayments('matrix-payments');
const brokerHook = (payload: object) => async (): Promise<Req> => ({ headers: { 'x-broker-secret': BROKER_AUTH_SECRET }, payload });

describe('authorization matrix over every /api/v1 route', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const permissionIds = new Map<string, number>();
  let seq = 0;
  /** Device time of the last device alarm the processalarm check raised. */
  let alarmTs = 0;
  /** HTTP Basic credentials of a device (SN and secret) for the device uplink. */
  let deviceBasic = '';

  const call = async (who: string | undefined, method: string, url: string, req: Req = {}) => {
    const qs = req.query ? `?${new URLSearchParams(Object.entries(req.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
    const res = await t.app.inject({
      method: method as 'GET',
      url: `${req.url ?? url}${qs}`,
      headers: { ...(who ? bearer(tok[who]!) : {}), ...req.headers },
      payload: req.payload,
    });
    // Spreadsheet downloads are not envelopes: a 200 with a file counts as success.
    if (res.statusCode === 200 && !String(res.headers['content-type']).includes('json')) {
      return { code: 20000, message: 'file', data: {} } as never;
    }
    // Nor are the broker hooks' answers (EMQX, mosquitto-go-auth formats).
    if (res.statusCode === 200 && (url.startsWith('/api/v1/broker/') || url === '/api/v1/wechat/notify')) {
      return { code: 20000, message: 'raw', data: {} } as never;
    }
    return res.json() as { code: number; message: string; data: { id?: number } & Record<string, unknown> };
  };
  const as = async (who: string, method: string, url: string, req: Req = {}) => {
    const body = await call(who, method, url, req);
    if (body.code !== 20000) throw new Error(`${who} ${method} ${url}: ${JSON.stringify(body)}`);
    return body.data;
  };
  const roleId = async (identification: string) => {
    const list = (await as('admin', 'GET', '/api/v1/role/getlist', { query: { limit: 200 } })) as unknown as {
      items: { id: number; identification: string }[];
    };
    return list.items.find((r) => r.identification === identification)!.id;
  };
  /** Gives `op`'s role exactly these codes. */
  const grant = async (codes: readonly string[]) => {
    await as('admin', 'POST', '/api/v1/role/setpermission', {
      payload: { id: ids.operatorRole!, permissionIds: codes.map((c) => permissionIds.get(c)!) },
    });
  };
  const newUser = async (who: string, roleIdOf: number, parentId?: number) => {
    const { id } = await as(who, 'POST', '/api/v1/user/add', {
      payload: { username: `u${++seq}`, password: 'secret-pass', type: 1, roleId: roleIdOf, parentId },
    });
    return id!;
  };
  const opUser = () => newUser('op', ids.opRole!);
  /** A device of the built-in battery type in `op`'s subtree (the details routes need its parameters), made once. */
  const newBmu = async () => {
    if (ids.opBmu) return ids.opBmu;
    const types = (await as('admin', 'GET', '/api/v1/devicetype/typeoptionslist')) as unknown as { id: number; code: string }[];
    const typeId = types.find((x) => x.code === 'BMU')!.id;
    ids.opBmu = (await as('op', 'POST', '/api/v1/device/add', { payload: { name: 'B', sn: `BMU-${++seq}`, typeId } })).id!;
    return ids.opBmu;
  };
  /** A fence on a device, written directly (`issued`: as if the device had kept it). */
  const newFence = async (deviceId: number, state: 'offline' | 'issued') => {
    const res = await t.database.db.execute(sql`
      insert into device_fences (device_id, lng, lat, radius, action, state) values (${deviceId}, 116.4, 39.9, 500, 'lock', ${state}) returning id`);
    return (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
  };
  const fence = { lng: 116.4, lat: 39.9, radius: 500, action: 'alarm' };
  /** A firmware version published by the platform (an external image), made once. */
  const platformVersion = async () => {
    if (ids.version) return ids.version;
    const res = await t.database.db.execute(sql`
      insert into firmware_versions (name, software_version, url, sha256, owner_path)
      values ('Matrix FW', '9.9.9', 'https://files.example.com/fw.bin', ${'cd'.repeat(32)}, '/1/') returning id`);
    ids.version = (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
    return ids.version;
  };
  /** An upgrade campaign of one new device of `op`'s (or of beta's device, by SQL: beta may not upgrade). */
  const newCampaign = async (of: 'op' | 'beta' = 'op') => {
    const versionId = await platformVersion();
    if (of === 'op') {
      const plan = await as('op', 'POST', '/api/v1/upgrade/setdeviceupgrade', { payload: { versionId, targets: { deviceIds: [await newDevice()] } } });
      return plan.campaignId as number;
    }
    const res = await t.database.db.execute(sql`
      insert into upgrade_campaigns (version_id, version_name, software_version, concurrency, stage_timeout_sec, retries, deadline, url, owner_path)
      select ${versionId}, 'Matrix FW', '9.9.9', 1, 60, 0, now() + interval '1 hour', 'x', d.owner_path from devices d where d.id = ${ids.betaDevice!}
      returning id`);
    return (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
  };
  /** Where the matrix's firmware image lives (DATA_DIR/firmware). */
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-matrix-'));
  /** An external device of `who` (op by default): its id and Basic credentials. */
  const newExternal = async (who = 'op') => {
    const added = (await as(who, 'POST', '/api/v1/hardware/addDevice', { payload: { devices: [{ identifier: `EXT-${++seq}` }] } })) as unknown as {
      items: { id: number; identifier: string; secret: string }[];
    };
    const d = added.items[0]!;
    return { id: d.id, basic: `Basic ${Buffer.from(`${d.identifier}:${d.secret}`).toString('base64')}` };
  };
  /** An uploaded firmware version published by the super administrator (the versions API is another issue's), made once. */
  const firmwareVersion = async () => {
    if (ids.firmware) return ids.firmware;
    fs.mkdirSync(firmwareDir(dataDir), { recursive: true });
    fs.writeFileSync(path.join(firmwareDir(dataDir), 'matrix.bin'), Buffer.from('firmware image'));
    const res = await t.database.db.execute(sql`
      insert into firmware_versions (name, software_version, file_key, file_name, size, sha256, owner_path)
      values ('Matrix', '9.9.9', 'matrix.bin', 'matrix.bin', 14, ${'0'.repeat(64)}, '/1/') returning id`);
    ids.firmware = (res as unknown as { rows: { id: number }[] }).rows[0]!.id;
    return ids.firmware;
  };
  /** Beta's external device, foreign to alpha, made once. */
  const betaExternal = async () => (ids.betaExternal ??= (await newExternal('beta')).id);
  const history = {
    semaphoreIds: '01111001,02109001',
    from: new Date(Date.now() - 86_400_000).toISOString(),
    to: new Date().toISOString(),
  };
  /**
   * A new open alarm of op's HTTP device each time: the device alarm on a parameter ends, and
   * starts again (a later device time each time).
   */
  const newOpAlarm = async () => {
    alarmTs = Math.max(Date.now() - 60_000, alarmTs + 2);
    for (const [flag, ts] of [[0, alarmTs], [1, alarmTs + 1]] as const) {
      await t.app.inject({ method: 'POST', url: '/api/v1/ingest/alarm', headers: { authorization: deviceBasic }, payload: { id: '01111001', flag, ts } });
    }
    const list = (await as('admin', 'GET', '/api/v1/device/alarmlist', { query: { device: 'HTTP-1', limit: 200 } })) as unknown as {
      items: { id: number; endedAt: string | null }[];
    };
    return list.items.find((a) => a.endedAt === null)!.id;
  };
  const newDevice = async () => {
    const { id } = await as('op', 'POST', '/api/v1/device/add', { payload: { name: 'D', sn: `SN-${++seq}`, typeId: ids.opType } });
    return id!;
  };
  /** A firmware version of `who` (op by default): an external image, or an uploaded one (`upload`). */
  const newVersion = async (who = 'op', upload = false) => {
    const fields = { name: `FW ${++seq}`, module: 'BMS', softwareVersion: `1.${seq}` };
    if (!upload) return (await as(who, 'POST', '/api/v1/upgrade/add', { payload: { ...fields, url: 'https://files.example.com/fw.bin', sha256: 'a'.repeat(64) } })).id!;
    const form = multipart('fw.bin', Buffer.from(`firmware ${seq}`));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/upgrade/upload', headers: { ...bearer(tok[who]!), ...form.headers }, payload: form.payload });
    return (await as(who, 'POST', '/api/v1/upgrade/add', { payload: { ...fields, fileKey: res.json().data.fileKey } })).id!;
  };
  const newProject = async () => {
    const { id } = await as('op', 'POST', '/api/v1/project/addproject', { payload: { name: `P${++seq}` } });
    return id!;
  };

  /** A SIM card of `who` (op by default) with a number of its own. */
  const newCard = async (who = 'op') => {
    const n = String(++seq).padStart(9, '0');
    return (await as(who, 'POST', '/api/v1/card/addCard', { payload: { iccid: `89860400000${n}`, msisdn: `1440${n}` } })).id!;
  };
  /** A renewal price of the platform's price list (prices have no owner line: no foreign case). */
  const newPrice = async () => (await as('admin', 'POST', '/api/v1/card/addPrice', { payload: { plan: `Plan ${++seq}`, unitPriceCents: 100 } })).id!;
  const newOrder = async (who = 'op') =>
    (await as(who, 'POST', '/api/v1/card/addCardOrder', { payload: { months: 1, priceId: ids.price, cardIds: [await newCard(who)] } })) as unknown as {
      id: number;
      orderNo: string;
      amountCents: number;
    };

  /** A store of `who` (op by default). */
  const newStore = async (who = 'op') => (await as(who, 'POST', '/api/v1/store/add', { payload: { name: `Store ${++seq}`, code: `ST-${seq}` } })).id!;
  /** A pack of `who` stocked at a new store of its own: store and device ids. */
  const newStockedPack = async (who = 'op') => {
    const storeId = await newStore(who);
    const typeId = who === 'op' ? ids.opType : ids.betaType;
    const deviceId = (await as(who, 'POST', '/api/v1/device/add', { payload: { name: 'Pack', sn: `PK-${++seq}`, typeId } })).id!;
    await as(who, 'POST', '/api/v1/store/stockdevices', { payload: { storeId, deviceIds: [deviceId] } });
    return { storeId, deviceId };
  };
  const rental = (p: { storeId: number; deviceId: number }, extra: object = {}) => ({
    ...p,
    customerName: 'Matrix',
    customerPhone: '13800000000',
    pricePerDayCents: 100,
    dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    ...extra,
  });
  /** A rental of `who` (op by default) in a state: reserved, active or overdue (by SQL: as the job leaves it). */
  const newRental = async (state: 'reserved' | 'active' | 'overdue', who = 'op') => {
    const id = (await as(who, 'POST', '/api/v1/rent/add', { payload: rental(await newStockedPack(who), { reserve: state === 'reserved' }) })).id!;
    if (state === 'overdue') await t.database.db.execute(sql`update rentals set state = 'overdue' where id = ${id}`);
    return id;
  };

  beforeAll(async () => {
    // The per-session rate limit is not under test here; the matrix makes many calls quickly.
    t = await buildTestApp(
      { API_RATE_LIMIT: '0', BROKER_AUTH_SECRET, MQTT_USERNAME: 'iot-server', MQTT_PASSWORD: 'iot-server-pass', DATA_DIR: dataDir },
      { payments },
    );
    tok.admin = await t.login();
    const perms = (await as('admin', 'GET', '/api/v1/permission/getlist', { query: { limit: 200 } })) as unknown as {
      items: { id: number; identification: string }[];
    };
    for (const p of perms.items) permissionIds.set(p.identification, p.id);
    expect(ALL_CODES.every((c) => permissionIds.has(c))).toBe(true);

    ids.adminRole = await roleId('ADMIN');
    ids.batteryRole = await roleId('BATTERYMANAGEMENT');
    for (const name of ['alpha', 'beta']) {
      const { id } = await as('admin', 'POST', '/api/v1/user/add', {
        payload: { username: name, password: 'secret-pass', type: 1, roleId: ids.adminRole },
      });
      ids[name] = id!;
      tok[name] = await t.login(name, 'secret-pass');
    }
    // `op`: an ordinary user below the super administrator, its role's codes set per route.
    ids.operatorRole = (await as('admin', 'POST', '/api/v1/role/add', { payload: { name: 'Operator', identification: 'OPERATOR' } })).id!;
    await grant(ALL_CODES);
    ids.op = (await as('admin', 'POST', '/api/v1/user/add', {
      payload: { username: 'op', password: 'secret-pass', type: 1, roleId: ids.operatorRole },
    })).id!;
    tok.op = await t.login('op', 'secret-pass');
    // What `op` works on, all in its own subtree.
    ids.opRole = (await as('op', 'POST', '/api/v1/role/add', { payload: { name: 'Op role', identification: 'OP_ROLE' } })).id!;
    ids.opSub = await opUser();
    ids.opType = (await as('op', 'POST', '/api/v1/devicetype/addtype', { payload: { code: 'OPT', name: 'Op type' } })).id!;
    ids.opProject = await newProject();
    ids.opSection = (await as('op', 'POST', '/api/v1/project/addroadsection', { payload: { projectId: ids.opProject, name: 'Road' } })).id!;
    ids.opDevice = (await as('op', 'POST', '/api/v1/device/add', { payload: { name: 'Op BMU', sn: 'OP-1', typeId: ids.opType, projectId: ids.opProject } })).id!;

    // `beta`'s subtree, foreign to `alpha`.
    ids.betaSub = await newUser('beta', ids.batteryRole);
    ids.betaRole = (await as('beta', 'POST', '/api/v1/role/add', { payload: { name: 'Beta role', identification: 'BETA_ROLE' } })).id!;
    ids.betaEmail = (await as('beta', 'POST', '/api/v1/user/addemail', { payload: { userId: ids.betaSub, email: 'b@example.com' } })).id!;
    ids.betaType = (await as('beta', 'POST', '/api/v1/devicetype/addtype', { payload: { code: 'BETA', name: 'Beta type' } })).id!;
    ids.betaProject = (await as('beta', 'POST', '/api/v1/project/addproject', { payload: { name: 'Beta project' } })).id!;
    ids.betaSection = (await as('beta', 'POST', '/api/v1/project/addroadsection', { payload: { projectId: ids.betaProject, name: 'Road', points: [[116.4, 39.9]] } })).id!;
    const betaDevice = (await as('beta', 'POST', '/api/v1/device/add', {
      payload: { name: 'Beta BMU', sn: 'BETA-1', typeId: ids.betaType, projectId: ids.betaProject },
    })) as unknown as { id: number; secret: string };
    ids.betaDevice = betaDevice.id;
    // An alarm of beta's device (raised by the device itself, about a parameter of its type).
    await as('beta', 'POST', '/api/v1/devicetype/addsetparam', {
      payload: { id: ids.betaType, params: [{ semaphoreId: 'X', name: 'X', dataType: 'number' }] },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/alarm',
      headers: { authorization: `Basic ${Buffer.from(`BETA-1:${betaDevice.secret}`).toString('base64')}` },
      payload: { id: 'X', flag: 1 },
    });
    ids.betaAlarm = ((await as('admin', 'GET', '/api/v1/device/alarmlist', { query: { device: 'BETA-1' } })) as unknown as { items: { id: number }[] }).items[0]!.id;
    // A device that reports over HTTP (the uplink authenticates it by SN and secret), of the
    // built-in battery type (its device alarms name one of the type's parameters).
    const types = (await as('admin', 'GET', '/api/v1/devicetype/typeoptionslist')) as unknown as { id: number; code: string }[];
    const { secret } = (await as('op', 'POST', '/api/v1/device/add', {
      payload: { name: 'HTTP device', sn: 'HTTP-1', typeId: types.find((x) => x.code === 'BMU')!.id },
    })) as unknown as { secret: string };
    deviceBasic = `Basic ${Buffer.from(`HTTP-1:${secret}`).toString('base64')}`;
    ids.bmuType = types.find((x) => x.code === 'BMU')!.id;
    ids.betaCard = await newCard('beta');
    ids.price = await newPrice();
    ids.betaOrder = (await newOrder('beta')).id;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cases: Record<string, Case> = {
    'GET /api/v1/config': { perm: PUBLIC, ok: async () => ({}) },
    'POST /api/v1/site/config': {
      perm: 'site:edit',
      // The stored configuration as it is: every field, unchanged.
      ok: async () => {
        const { map: _map, ...fields } = (await t.app.inject({ method: 'GET', url: '/api/v1/config' })).json().data;
        return { payload: fields };
      },
    },
    'GET /api/v1/login/captchaInfo': { perm: PUBLIC, ok: async () => ({}) },
    'GET /api/v1/login/captchaAudio': {
      perm: PUBLIC,
      ok: async () => ({ query: { key: (await t.app.inject({ method: 'GET', url: '/api/v1/login/captchaInfo' })).json().data.key } }),
    },
    'POST /api/v1/user/login': { perm: PUBLIC, ok: async () => ({ payload: { username: ADMIN.username, password: ADMIN.password } }) },
    'POST /api/v1/user/logout': { perm: AUTHENTICATED, ok: async () => ({}) },
    'GET /api/v1/user/info': { perm: AUTHENTICATED, ok: async () => ({}) },
    'GET /api/v1/user/menutestlist': { perm: AUTHENTICATED, ok: async () => ({}) },
    'GET /api/v1/user/menulist': { perm: AUTHENTICATED, ok: async () => ({ query: { parent_id: 0 } }) },
    'POST /api/v1/user/changepassword': {
      perm: AUTHENTICATED,
      ok: async () => ({ payload: { oldPassword: 'secret-pass', newPassword: 'secret-pass-2', confirmPassword: 'secret-pass-2' } }),
    },
    'POST /api/v1/user/preferences': { perm: AUTHENTICATED, ok: async () => ({ payload: { language: 'en' } }) },
    'GET /api/v1/user/logins': { perm: AUTHENTICATED, ok: async () => ({}) },
    'GET /api/v1/user/preferences/:key': { perm: AUTHENTICATED, ok: async () => ({ url: '/api/v1/user/preferences/table:devices' }) },
    'PUT /api/v1/user/preferences/:key': {
      perm: AUTHENTICATED,
      ok: async () => ({ url: '/api/v1/user/preferences/table:devices', payload: { value: { sn: true } } }),
    },
    'GET /api/v1/user/list': { perm: any('list'), ok: async () => ({ query: { kind: 'agent' } }) },
    'GET /api/v1/user/item': { perm: any('list'), ok: async () => ({ query: { id: ids.opSub! } }), foreign: async () => ({ query: { id: ids.betaSub! } }) },
    'GET /api/v1/user/options': { perm: [...any('list'), ...any('add'), ...any('edit')], ok: async () => ({ query: { q: 'u' } }) },
    'POST /api/v1/user/add': {
      perm: any('add'),
      ok: async () => ({ payload: { username: `m${++seq}`, password: 'secret-pass', type: 0, roleId: ids.opRole! } }),
    },
    'POST /api/v1/user/edit': {
      perm: any('edit'),
      ok: async () => ({ payload: { id: await opUser(), corporateName: 'ACME' } }),
      foreign: async () => ({ payload: { id: ids.betaSub!, corporateName: 'Mine now' } }),
    },
    'DELETE /api/v1/user/delete': {
      perm: any('delete'),
      ok: async () => ({ query: { id: await opUser() } }),
      foreign: async () => ({ query: { id: ids.betaSub! } }),
    },
    'POST /api/v1/user/repassword': {
      perm: any('edit'),
      ok: async () => ({ payload: { id: await opUser(), password: 'another-pass' } }),
      foreign: async () => ({ payload: { id: ids.betaSub!, password: 'another-pass' } }),
    },
    'POST /api/v1/user/unlock': {
      perm: any('edit'),
      ok: async () => ({ payload: { id: ids.opSub! } }),
      foreign: async () => ({ payload: { id: ids.betaSub! } }),
    },
    // Own emails need only a session (another user's need a user code, checked by the service).
    'GET /api/v1/user/emaillist': { perm: AUTHENTICATED, ok: async () => ({ query: { id: ids.op! } }), foreign: async () => ({ query: { id: ids.betaSub! } }) },
    'POST /api/v1/user/addemail': {
      perm: AUTHENTICATED,
      ok: async () => ({ payload: { userId: ids.op!, email: `x${++seq}@example.com` } }),
      foreign: async () => ({ payload: { userId: ids.betaSub!, email: 'y@example.com' } }),
    },
    'DELETE /api/v1/user/deleteemail': {
      perm: AUTHENTICATED,
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/user/addemail', { payload: { userId: ids.op!, email: `z${++seq}@example.com` } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaEmail! } }),
    },
    'GET /api/v1/role/getlist': { perm: 'role:list', ok: async () => ({}) },
    'GET /api/v1/role/getoptionslist': { perm: ['role:list', ...any('add'), ...any('edit')], ok: async () => ({}) },
    'GET /api/v1/role/getitem': { perm: 'role:list', ok: async () => ({ query: { id: ids.opRole! } }), foreign: async () => ({ query: { id: ids.betaRole! } }) },
    'POST /api/v1/role/add': { perm: 'role:add', ok: async () => ({ payload: { name: 'R', identification: `R_${++seq}` } }) },
    'POST /api/v1/role/edit': {
      perm: 'role:edit',
      ok: async () => ({ payload: { id: ids.opRole!, name: 'Op role', identification: 'OP_ROLE' } }),
      foreign: async () => ({ payload: { id: ids.betaRole!, name: 'Taken', identification: 'BETA_ROLE' } }),
    },
    'DELETE /api/v1/role/delete': {
      perm: 'role:delete',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/role/add', { payload: { name: 'Temp', identification: `T_${++seq}` } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaRole! } }),
    },
    'GET /api/v1/role/getpermission': { perm: 'role:list', ok: async () => ({ query: { id: ids.opRole! } }), foreign: async () => ({ query: { id: ids.betaRole! } }) },
    'POST /api/v1/role/setpermission': {
      perm: 'role:edit',
      ok: async () => ({ payload: { id: ids.opRole!, permissionIds: [] } }),
      foreign: async () => ({ payload: { id: ids.betaRole!, permissionIds: [] } }),
    },
    'GET /api/v1/permission/getlist': { perm: 'permission:list', ok: async () => ({}) },
    'GET /api/v1/permission/getitem': { perm: 'permission:list', ok: async () => ({ query: { id: 1 } }) },
    'GET /api/v1/permission/menuoptions': { perm: 'permission:list', ok: async () => ({}) },
    'POST /api/v1/permission/add': { perm: 'permission:add', ok: async () => ({ payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } }) },
    'POST /api/v1/permission/edit': {
      perm: 'permission:edit',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/permission/add', { payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } });
        return { payload: { id: id!, name: 'P2', identification: `p:${++seq}`, menuId: 1 } };
      },
    },
    'DELETE /api/v1/permission/delete': {
      perm: 'permission:delete',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/permission/add', { payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } });
        return { query: { id: id! } };
      },
    },
    'GET /api/v1/menu/menutestlist': { perm: 'menu:list', ok: async () => ({}) },
    'GET /api/v1/menu/menutestoptionslist': { perm: ['menu:list', 'permission:list'], ok: async () => ({}) },
    'POST /api/v1/menu/addmenutest': {
      perm: 'menu:add',
      ok: async () => ({ payload: { name: '测试', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } }),
    },
    'POST /api/v1/menu/editmenutest': {
      perm: 'menu:edit',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/menu/addmenutest', { payload: { name: 'M', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } });
        return { payload: { id: id!, name: 'M2', jumpType: 2, menuUrl: 'https://example.com', identification: `m-${++seq}` } };
      },
    },
    'DELETE /api/v1/menu/deletemenutest': {
      perm: 'menu:delete',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/menu/addmenutest', { payload: { name: 'M', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } });
        return { query: { id: id! } };
      },
    },
    'GET /api/v1/logs/list': { perm: 'log:operation', ok: async () => ({}) },
    'GET /api/v1/logs/loginlist': { perm: 'log:device', ok: async () => ({}) },
    'GET /api/v1/logs/clienterrors': { perm: 'log:client', ok: async () => ({}) },
    'GET /api/v1/logs/clienterrorexport': { perm: 'log:client', ok: async () => ({}) },
    'POST /api/v1/client/errors': {
      perm: PUBLIC,
      ok: async () => ({ payload: { kind: 'error', message: 'authorization matrix', route: '/dashboard', version: 'test' } }),
    },
    'GET /api/v1/ws': { perm: PUBLIC, ok: async () => ({}) },
    'GET /api/v1/project/list': { perm: ['project:list', 'device:list', 'device:add', 'device:edit'], ok: async () => ({}) },
    'GET /api/v1/project/item': {
      perm: ['project:list', 'project:detail'],
      ok: async () => ({ query: { id: ids.opProject! } }),
      foreign: async () => ({ query: { id: ids.betaProject! } }),
    },
    'GET /api/v1/project/weather': {
      perm: ['project:list', 'project:detail'],
      ok: async () => ({ query: { id: ids.opProject! } }),
      foreign: async () => ({ query: { id: ids.betaProject! } }),
    },
    'POST /api/v1/project/addproject': { perm: 'project:add', ok: async () => ({ payload: { name: 'New project', lng: 116.4, lat: 39.9 } }) },
    'POST /api/v1/project/editproject': {
      perm: 'project:edit',
      ok: async () => ({ payload: { id: await newProject(), name: 'Renamed' } }),
      foreign: async () => ({ payload: { id: ids.betaProject!, name: 'Mine' } }),
    },
    'DELETE /api/v1/project/deleteproject': {
      perm: 'project:delete',
      ok: async () => ({ query: { id: await newProject() } }),
      foreign: async () => ({ query: { id: ids.betaProject!, moveTo: 0 } }),
    },
    'GET /api/v1/project/roadsectionlist': {
      perm: ['project:list', 'project:detail'],
      ok: async () => ({ query: { projectId: ids.opProject! } }),
      foreign: async () => ({ query: { projectId: ids.betaProject! } }),
    },
    'POST /api/v1/project/addroadsection': {
      perm: 'project:edit',
      ok: async () => ({ payload: { projectId: await newProject(), name: 'R', points: [[1, 2], [3, 4]] } }),
      foreign: async () => ({ payload: { projectId: ids.betaProject!, name: 'R' } }),
    },
    'POST /api/v1/project/editroadsection': {
      perm: 'project:edit',
      ok: async () => ({ payload: { id: ids.opSection!, name: 'Road', points: [[116.4, 39.9]] } }),
      foreign: async () => ({ payload: { id: ids.betaSection!, name: 'Mine' } }),
    },
    'DELETE /api/v1/project/deleteroadsection': {
      perm: 'project:edit',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/project/addroadsection', { payload: { projectId: await newProject(), name: 'R' } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaSection! } }),
    },
    'GET /api/v1/project/userprojectlist': {
      perm: ['project:users', 'project:detail'],
      ok: async () => ({ query: { id: ids.opProject! } }),
      foreign: async () => ({ query: { id: ids.betaProject! } }),
    },
    'POST /api/v1/project/setuserproject': {
      perm: 'project:users',
      ok: async () => ({ payload: { id: await newProject(), userIds: [ids.opSub!] } }),
      foreign: async () => ({ payload: { id: ids.betaProject!, userIds: [] } }),
    },
    'GET /api/v1/device/list': { perm: 'device:list', ok: async () => ({ query: { q: 'OP', online: 'false', warningLevel: 0 } }) },
    'GET /api/v1/search': {
      perm: ['device:list', 'project:list', ...any('list')],
      ok: async () => ({ query: { q: 'OP' } }),
    },
    'GET /api/v1/home/list': { perm: 'home:view', ok: async () => ({ query: { tz: 'Europe/Madrid' } }) },
    'GET /api/v1/home/devicetotals': { perm: 'home:view', ok: async () => ({}) },
    'GET /api/v1/home/projectlist': { perm: 'home:view', ok: async () => ({}) },
    'GET /api/v1/home/levelnum': { perm: 'home:view', ok: async () => ({}) },
    'GET /api/v1/home/alarmnum': { perm: 'home:view', ok: async () => ({ query: { days: '30', tz: 'Asia/Tokyo' } }) },
    'GET /api/v1/home/gettop5': { perm: 'home:view', ok: async () => ({ query: { days: '7' } }) },
    'GET /api/v1/home/devicelist': { perm: 'home:view', ok: async () => ({ query: { state: 'offline24h' } }) },
    'GET /api/v1/home/battery': { perm: 'home:view', ok: async () => ({ query: { days: '7' } }) },
    'GET /api/v1/home/voice': { perm: 'home:view', ok: async () => ({ query: { days: '30', tz: 'UTC' } }) },
    'GET /api/v1/map/positions': { perm: 'map:view', ok: async () => ({ query: { projectId: ids.opProject! } }) },
    'GET /api/v1/device/seachList': { perm: 'device:list', ok: async () => ({ query: { q: 'OP' } }) },
    'GET /api/v1/device/basic': {
      perm: ['device:list', 'device:detail'],
      ok: async () => ({ query: { id: ids.opDevice! } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/subdevicelist': {
      perm: ['device:list', 'device:detail'],
      ok: async () => ({ query: { id: ids.opDevice! } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/subnum': {
      perm: ['device:list', 'device:detail'],
      ok: async () => ({ query: { id: ids.opDevice! } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'POST /api/v1/device/add': { perm: 'device:add', ok: async () => ({ payload: { name: 'D', sn: `SN-${++seq}`, typeId: ids.opType! } }) },
    // Devices and brokers authenticate themselves (device secret, BROKER_AUTH_SECRET), not with a session.
    'POST /api/v1/ingest/:kind': {
      perm: PUBLIC,
      ok: async () => ({ url: '/api/v1/ingest/telemetry', headers: { authorization: deviceBasic }, payload: { values: {} } }),
    },
    // A device downloads firmware published for its line (HTTP-1 is op's) with its own credentials.
    'GET /api/v1/ingest/firmware/:versionId': {
      perm: PUBLIC,
      ok: async () => ({ url: `/api/v1/ingest/firmware/${await newVersion('op', true)}`, headers: { authorization: deviceBasic } }),
    },
    'POST /api/v1/broker/emqx/authn': { perm: PUBLIC, ok: brokerHook({ username: 'iot-server', password: 'iot-server-pass', clientid: 'srv' }) },
    'POST /api/v1/broker/emqx/authz': { perm: PUBLIC, ok: brokerHook({ username: 'HTTP-1', clientid: 'HTTP-1', topic: 'dev/HTTP-1/telemetry', action: 'publish' }) },
    'POST /api/v1/broker/mosquitto/user': { perm: PUBLIC, ok: brokerHook({ username: 'iot-server', password: 'iot-server-pass', clientid: 'srv' }) },
    'POST /api/v1/broker/mosquitto/superuser': { perm: PUBLIC, ok: brokerHook({ username: 'iot-server' }) },
    'POST /api/v1/broker/mosquitto/acl': { perm: PUBLIC, ok: brokerHook({ username: 'HTTP-1', clientid: 'HTTP-1@cmd', topic: 'dev/HTTP-1/cmd', acc: 4 }) },
    'POST /api/v1/upgrade/upload': { perm: ['upgrade:add', 'upgrade:edit'], ok: async () => multipart('fw.bin', Buffer.from('firmware image')) },
    'GET /api/v1/upgrade/list': { perm: ['upgrade:list', 'upgrade:device'], ok: async () => ({ query: { q: 'FW', sort: 'name' } }) },
    'POST /api/v1/upgrade/add': {
      perm: 'upgrade:add',
      ok: async () => ({ payload: { name: `FW ${++seq}`, module: 'BMS', softwareVersion: '2.0', url: 'https://files.example.com/fw.bin', sha256: 'b'.repeat(64) } }),
    },
    'POST /api/v1/upgrade/edit': {
      perm: 'upgrade:edit',
      ok: async () => ({ payload: { id: await newVersion(), info: 'edited' } }),
      foreign: async () => ({ payload: { id: await newVersion('beta'), info: 'edited' } }),
    },
    'DELETE /api/v1/upgrade/delete': {
      perm: 'upgrade:delete',
      ok: async () => ({ query: { id: await newVersion() } }),
      foreign: async () => ({ query: { id: await newVersion('beta') } }),
    },
    'GET /api/v1/card/getSimList': { perm: 'card:list', ok: async () => ({ query: { q: '8986', expiringWithin: 30 } }) },
    'GET /api/v1/card/getExpirationSimList': { perm: 'card:list', ok: async () => ({ query: { days: 30 } }) },
    'GET /api/v1/card/getSimItem': { perm: 'card:list', ok: async () => ({ query: { id: await newCard() } }), foreign: async () => ({ query: { id: ids.betaCard! } }) },
    'POST /api/v1/card/addCard': { perm: 'card:edit', ok: async () => ({ payload: { iccid: `89860499${String(++seq).padStart(12, '0')}` } }) },
    'POST /api/v1/card/editCard': {
      perm: 'card:edit',
      ok: async () => ({ payload: { id: await newCard(), plan: 'P' } }),
      foreign: async () => ({ payload: { id: ids.betaCard!, plan: 'P' } }),
    },
    'DELETE /api/v1/card/deleteCard': {
      perm: 'card:edit',
      ok: async () => ({ query: { id: await newCard() } }),
      foreign: async () => ({ query: { id: ids.betaCard! } }),
    },
    'GET /api/v1/card/sim_basic_info': { perm: 'card:list', ok: async () => ({ query: { id: await newCard() } }), foreign: async () => ({ query: { id: ids.betaCard! } }) },
    'GET /api/v1/card/sim_voice_margin': { perm: 'card:list', ok: async () => ({ query: { id: await newCard() } }), foreign: async () => ({ query: { id: ids.betaCard! } }) },
    'GET /api/v1/card/member_voice_whitelist': { perm: 'card:list', ok: async () => ({ query: { id: await newCard() } }), foreign: async () => ({ query: { id: ids.betaCard! } }) },
    'POST /api/v1/card/config_member_voice_whitelist': {
      perm: 'card:edit',
      ok: async () => ({ payload: { id: await newCard(), operation: 'add', whiteNumber: '13800138000' } }),
      foreign: async () => ({ payload: { id: ids.betaCard!, operation: 'add', whiteNumber: '13800138000' } }),
    },
    'GET /api/v1/card/importtemplate': { perm: 'card:edit', ok: async () => ({}) },
    'POST /api/v1/card/import': {
      perm: 'card:edit',
      ok: async () => ({ query: { dryRun: 'true' }, ...multipart('c.xlsx', await writeSheet('c', [['ICCID'], [`89860488${String(++seq).padStart(12, '0')}`]])) }),
    },
    'GET /api/v1/card/export': { perm: 'card:list', ok: async () => ({}) },
    'GET /api/v1/card/getCardOrderList': { perm: 'card:order', ok: async () => ({}) },
    'GET /api/v1/card/getCardOrderItem': { perm: 'card:order', ok: async () => ({ query: { id: (await newOrder()).id } }), foreign: async () => ({ query: { id: ids.betaOrder! } }) },
    'POST /api/v1/card/addCardOrder': {
      perm: 'card:order',
      ok: async () => ({ payload: { months: 1, priceId: ids.price, cardIds: [await newCard()] } }),
      foreign: async () => ({ payload: { months: 1, priceId: ids.price, cardIds: [ids.betaCard!] } }),
    },
    'POST /api/v1/card/editCardOrder': {
      perm: 'card:order',
      ok: async () => ({ payload: { id: (await newOrder()).id, months: 2 } }),
      foreign: async () => ({ payload: { id: ids.betaOrder!, months: 2 } }),
    },
    'GET /api/v1/card/getPriceList': { perm: 'card:price', ok: async () => ({}) },
    'GET /api/v1/card/priceOptions': { perm: 'card:order', ok: async () => ({}) },
    'POST /api/v1/card/addPrice': { perm: 'card:price', ok: async () => ({ payload: { kind: 'topup', plan: `Pack ${++seq}`, topupMb: 100, unitPriceCents: 50 } }) },
    'POST /api/v1/card/editPrice': { perm: 'card:price', ok: async () => ({ payload: { id: await newPrice(), unitPriceCents: 120 } }) },
    'DELETE /api/v1/card/deletePrice': { perm: 'card:price', ok: async () => ({ query: { id: await newPrice() } }) },
    'DELETE /api/v1/card/deleteCardOrder': {
      perm: 'card:order',
      ok: async () => ({ query: { id: (await newOrder()).id } }),
      foreign: async () => ({ query: { id: ids.betaOrder! } }),
    },
    'GET /api/v1/wechat/getPayQRCode': { perm: 'card:order', ok: async () => ({ query: { id: (await newOrder()).id } }), foreign: async () => ({ query: { id: ids.betaOrder! } }) },
    // The payment provider signs its notification; no session.
    'POST /api/v1/wechat/notify': {
      perm: PUBLIC,
      ok: async () => {
        const order = await newOrder();
        const n = payments.pay(order.orderNo, order.amountCents);
        return { headers: { ...n.headers, 'content-type': 'application/json' }, payload: Buffer.from(n.body) };
      },
    },
    // Stores and rentals (issue #38): scoped to the store owner's line.
    'GET /api/v1/store/list': { perm: 'store:list', ok: async () => ({ query: { q: 'store', status: 'open', sort: 'name' } }) },
    'GET /api/v1/store/item': { perm: 'store:list', ok: async () => ({ query: { id: await newStore() } }), foreign: async () => ({ query: { id: await newStore('beta') } }) },
    'POST /api/v1/store/add': { perm: 'store:edit', ok: async () => ({ payload: { name: 'S', code: `SA-${++seq}` } }) },
    'POST /api/v1/store/edit': {
      perm: 'store:edit',
      ok: async () => ({ payload: { id: await newStore(), status: 'closed' } }),
      foreign: async () => ({ payload: { id: await newStore('beta'), status: 'closed' } }),
    },
    'DELETE /api/v1/store/delete': {
      perm: 'store:edit',
      ok: async () => ({ query: { id: String(await newStore()) } }),
      foreign: async () => ({ query: { id: String(await newStore('beta')) } }),
    },
    'GET /api/v1/store/stock': {
      perm: 'store:list',
      ok: async () => ({ query: { storeId: (await newStockedPack()).storeId } }),
      foreign: async () => ({ query: { storeId: await newStore('beta') } }),
    },
    'POST /api/v1/store/stockdevices': {
      perm: 'store:edit',
      ok: async () => ({ payload: { storeId: await newStore(), deviceIds: [await newDevice()] } }),
      foreign: async () => ({ payload: { storeId: await newStore('beta'), deviceIds: [ids.betaDevice!] } }),
    },
    'POST /api/v1/store/unstockdevices': {
      perm: 'store:edit',
      ok: async () => ({ payload: { deviceIds: [(await newStockedPack()).deviceId] } }),
      foreign: async () => ({ payload: { deviceIds: [(await newStockedPack('beta')).deviceId] } }),
    },
    'POST /api/v1/store/clearfault': {
      perm: 'store:edit',
      ok: async () => ({ payload: { deviceIds: [(await newStockedPack()).deviceId] } }),
      foreign: async () => ({ payload: { deviceIds: [(await newStockedPack('beta')).deviceId] } }),
    },
    'GET /api/v1/rent/list': { perm: 'rent:list', ok: async () => ({ query: { state: 'active', phone: '138', sn: 'PK', sort: 'dueAt' } }) },
    'GET /api/v1/rent/item': { perm: 'rent:list', ok: async () => ({ query: { id: await newRental('active') } }), foreign: async () => ({ query: { id: await newRental('active', 'beta') } }) },
    'POST /api/v1/rent/add': {
      perm: 'rent:edit',
      ok: async () => ({ payload: rental(await newStockedPack()) }),
      foreign: async () => ({ payload: rental(await newStockedPack('beta')) }),
    },
    'POST /api/v1/rent/activate': {
      perm: 'rent:edit',
      ok: async () => ({ payload: { id: await newRental('reserved') } }),
      foreign: async () => ({ payload: { id: await newRental('reserved', 'beta') } }),
    },
    'POST /api/v1/rent/cancel': {
      perm: 'rent:edit',
      ok: async () => ({ payload: { id: await newRental('reserved') } }),
      foreign: async () => ({ payload: { id: await newRental('reserved', 'beta') } }),
    },
    'POST /api/v1/rent/lose': {
      perm: 'rent:edit',
      ok: async () => ({ payload: { id: await newRental('overdue') } }),
      foreign: async () => ({ payload: { id: await newRental('overdue', 'beta') } }),
    },
    'GET /api/v1/rent/returncheck': {
      perm: 'rent:list',
      ok: async () => ({ query: { id: await newRental('active') } }),
      foreign: async () => ({ query: { id: await newRental('active', 'beta') } }),
    },
    'GET /api/v1/store/importtemplate': { perm: 'store:edit', ok: async () => ({ query: { lang: 'ja' } }) },
    'POST /api/v1/store/import': {
      perm: 'store:edit',
      ok: async () => ({ query: { dryRun: 'true' }, ...multipart('s.xlsx', await writeSheet('s', [['name', 'code'], ['S', `SI-${++seq}`]])) }),
    },
    'GET /api/v1/store/export': { perm: 'store:list', ok: async () => ({ query: { status: 'open' } }) },
    'GET /api/v1/rent/export': { perm: 'rent:list', ok: async () => ({ query: { state: 'active' } }) },
    'GET /api/v1/rent/importtemplate': { perm: 'rent:edit', ok: async () => ({ query: { lang: 'es' } }) },
    'POST /api/v1/rent/import': {
      perm: 'rent:edit',
      ok: async () => ({ query: { dryRun: 'true' }, ...multipart('r.xlsx', await writeSheet('r', [['store', 'deviceSn', 'customerName', 'customerPhone'], ['S1', 'PK-1', 'C', '123']])) }),
    },
    'POST /api/v1/rent/dischargeoff': {
      perm: 'rent:command',
      ok: async () => {
        // A lost rental of a battery pack (the built-in type has the discharge switch).
        const storeId = await newStore();
        const deviceId = (await as('op', 'POST', '/api/v1/device/add', { payload: { name: 'Pack', sn: `PK-${++seq}`, typeId: ids.bmuType } })).id!;
        await as('op', 'POST', '/api/v1/store/stockdevices', { payload: { storeId, deviceIds: [deviceId] } });
        const id = (await as('op', 'POST', '/api/v1/rent/add', { payload: rental({ storeId, deviceId }) })).id!;
        await t.database.db.execute(sql`update rentals set state = 'lost' where id = ${id}`);
        return { payload: { id } };
      },
      foreign: async () => ({ payload: { id: await newRental('overdue', 'beta') } }),
    },
    'GET /api/v1/rent/summary': {
      perm: 'rent:overview',
      ok: async () => ({ query: { period: 'week', tz: 'Asia/Shanghai' } }),
      foreign: async () => ({ query: { storeId: await newStore('beta') } }),
    },
    'POST /api/v1/rent/return': {
      perm: 'rent:edit',
      ok: async () => ({ payload: { id: await newRental('active') } }),
      foreign: async () => ({ payload: { id: await newRental('active', 'beta') } }),
    },
    'POST /api/v1/wechat/simulatePay': {
      perm: 'card:order',
      ok: async () => ({ payload: { id: (await newOrder()).id } }),
      foreign: async () => ({ payload: { id: ids.betaOrder! } }),
    },
    'POST /api/v1/getVideoH5Url': {
      perm: 'device:detail',
      ok: async () => ({ payload: { deviceId: (await as('op', 'POST', '/api/v1/device/add', { payload: { name: 'Cam', sn: `CAM-${++seq}`, typeId: ids.opType!, camera: true } })).id! } }),
      foreign: async () => ({ payload: { deviceId: ids.betaDevice! } }),
    },
    'GET /api/v1/device/latest': {
      perm: 'device:list',
      ok: async () => ({ query: { id: ids.opDevice! } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/logs/devicelogs': { perm: 'log:device', ok: async () => ({}) },
    // Device details (§2 /project/info): a battery device of `op`'s own.
    'GET /api/v1/device/groupinfo': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/displayparamgrouplist': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/setparamlist': {
      perm: ['device:detail', 'device:command'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'POST /api/v1/device/setparams': {
      perm: 'device:command',
      ok: async () => ({ payload: { id: await newBmu(), values: { '10000030': true } } }),
      foreign: async () => ({ payload: { id: ids.betaDevice!, values: { '10000030': true } } }),
    },
    // Upgrade campaigns: a campaign of beta's is not found for alpha; beta's device cannot be targeted.
    'GET /api/v1/upgrade/campaignlist': { perm: 'upgrade:device', ok: async () => ({}) },
    'GET /api/v1/upgrade/devicelist': {
      perm: 'upgrade:device',
      ok: async () => ({ query: { campaignId: await newCampaign() } }),
    },
    'GET /api/v1/upgrade/loglist': {
      perm: 'upgrade:device',
      ok: async () => ({ query: { campaignId: await newCampaign() } }),
    },
    'POST /api/v1/upgrade/setdeviceupgrade': {
      perm: 'upgrade:device',
      ok: async () => ({ payload: { versionId: await platformVersion(), targets: { deviceIds: [await newDevice()] } } }),
      foreign: async () => ({ payload: { versionId: await platformVersion(), targets: { deviceIds: [ids.betaDevice!] } } }),
    },
    'POST /api/v1/upgrade/closedeviceupgrade': {
      perm: 'upgrade:device',
      ok: async () => ({ payload: { campaignId: await newCampaign() } }),
      foreign: async () => ({ payload: { campaignId: await newCampaign('beta') } }),
    },
    'GET /api/v1/device/commandlist': {
      perm: ['device:detail', 'device:command'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    // Geo-fences: to an offline device nothing is sent (set, relock: recorded offline; a fence
    // never kept is removed without a command), so each answers 20000 at once.
    // External devices (§7 Hardware, /external/*): operators' routes scoped to their line, and
    // the two the devices call with their own Basic credentials.
    'POST /api/v1/hardware/addDevice': { perm: 'upgrade:external', ok: async () => ({ payload: { devices: [{ identifier: `EXT-${++seq}` }] } }) },
    'GET /api/v1/hardware/getlist': { perm: 'upgrade:external', ok: async () => ({}) },
    'GET /api/v1/hardware/getlogslist': {
      perm: 'upgrade:external',
      ok: async () => ({ query: { deviceId: (await newExternal()).id } }),
      foreign: async () => ({ query: { deviceId: await betaExternal() } }),
    },
    'DELETE /api/v1/hardware/deleteDevice': {
      perm: 'upgrade:external',
      ok: async () => ({ query: { id: (await newExternal()).id } }),
      foreign: async () => ({ query: { id: await betaExternal() } }),
    },
    'DELETE /api/v1/hardware/deleteLogsDevice': {
      perm: 'upgrade:external',
      ok: async () => ({ query: { deviceId: (await newExternal()).id } }),
      foreign: async () => ({ query: { deviceId: await betaExternal() } }),
    },
    'GET /api/v1/external/list': { perm: 'upgrade:external', ok: async () => ({}) },
    'GET /api/v1/external/loglist': {
      perm: 'upgrade:external',
      ok: async () => ({ query: { deviceId: (await newExternal()).id } }),
      foreign: async () => ({ query: { deviceId: await betaExternal() } }),
    },
    'POST /api/v1/external/setupgrade': {
      perm: 'upgrade:external',
      ok: async () => ({ payload: { ids: [(await newExternal()).id], versionId: await firmwareVersion() } }),
      foreign: async () => ({ payload: { ids: [await betaExternal()], versionId: await firmwareVersion() } }),
    },
    'POST /api/v1/external/closeupgrade': {
      perm: 'upgrade:external',
      ok: async () => ({ payload: { ids: [(await newExternal()).id] } }),
      foreign: async () => ({ payload: { ids: [await betaExternal()] } }),
    },
    'GET /api/v1/external/versionoptions': { perm: 'upgrade:external', ok: async () => ({}) },
    'POST /api/v1/hardware/checkin': {
      perm: PUBLIC,
      ok: async () => ({ headers: { authorization: (await newExternal()).basic }, payload: { version: '1.0' } }),
    },
    'GET /api/v1/hardware/firmware/:versionId': {
      perm: PUBLIC,
      ok: async () => {
        const d = await newExternal();
        const versionId = await firmwareVersion();
        await as('admin', 'POST', '/api/v1/external/setupgrade', { payload: { ids: [d.id], versionId } });
        return { url: `/api/v1/hardware/firmware/${versionId}`, headers: { authorization: d.basic } };
      },
    },
    'GET /api/v1/device/fencelist': {
      perm: ['device:detail', 'device:fence'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'POST /api/v1/device/setfence': {
      perm: 'device:fence',
      ok: async () => ({ payload: { id: await newBmu(), ...fence } }),
      foreign: async () => ({ payload: { id: ids.betaDevice!, ...fence } }),
    },
    'POST /api/v1/device/setclosefence': {
      perm: 'device:fence',
      ok: async () => ({ payload: { fenceId: await newFence(await newBmu(), 'offline') } }),
      foreign: async () => ({ payload: { fenceId: await newFence(ids.betaDevice!, 'offline') } }),
    },
    'POST /api/v1/device/setrefence': {
      perm: 'device:fence',
      ok: async () => ({ payload: { fenceId: await newFence(await newBmu(), 'issued') } }),
      foreign: async () => ({ payload: { fenceId: await newFence(ids.betaDevice!, 'issued') } }),
    },
    'GET /api/v1/device/devicehistoricallist': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu(), ...history } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, ...history } }),
    },
    'GET /api/v1/device/historyrange': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/devicehistoricallist/export': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu(), ...history, format: 'csv' } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, ...history } }),
    },
    'GET /api/v1/device/devicehistoricallisttoecharts': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu(), ...history } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, ...history } }),
    },
    'GET /api/v1/device/locus': {
      perm: 'device:track',
      ok: async () => ({ query: { id: await newBmu(), from: history.from, to: history.to } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, from: history.from, to: history.to } }),
    },
    'GET /api/v1/device/locusrange': {
      perm: 'device:track',
      ok: async () => ({ query: { id: await newBmu() } }),
      foreign: async () => ({ query: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/locus/export': {
      perm: 'device:track',
      ok: async () => ({ query: { id: await newBmu(), from: history.from, to: history.to, format: 'gpx' } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, from: history.from, to: history.to } }),
    },
    'GET /api/v1/device/totalElectrictityConsumption': {
      perm: ['device:detail', 'device:list'],
      ok: async () => ({ query: { id: await newBmu(), from: history.from, to: history.to } }),
      foreign: async () => ({ query: { id: ids.betaDevice!, from: history.from, to: history.to } }),
    },
    'POST /api/v1/device/edit': {
      perm: 'device:edit',
      ok: async () => ({ payload: { id: await newDevice(), name: 'Edited', sn: `SN-${++seq}`, typeId: ids.opType! } }),
      foreign: async () => ({ payload: { id: ids.betaDevice!, name: 'Mine', sn: 'BETA-1', typeId: ids.betaType! } }),
    },
    'DELETE /api/v1/device/delete': {
      perm: 'device:delete',
      ok: async () => ({ query: { id: `${await newDevice()},${await newDevice()}` } }),
      foreign: async () => ({ query: { id: String(ids.betaDevice!) } }),
    },
    'POST /api/v1/device/editdevicelistproject': {
      perm: 'device:edit',
      ok: async () => ({ payload: { ids: [await newDevice()], projectId: await newProject() } }),
      foreign: async () => ({ payload: { ids: [ids.betaDevice!], projectId: null } }),
    },
    'POST /api/v1/device/credential': {
      perm: 'device:edit',
      ok: async () => ({ payload: { id: await newDevice() } }),
      foreign: async () => ({ payload: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/importtemplate': { perm: 'device:import', ok: async () => ({ query: { lang: 'zh' } }) },
    'POST /api/v1/device/import': {
      perm: 'device:import',
      ok: async () => ({ query: { dryRun: 'true' }, ...multipart('d.xlsx', await writeSheet('d', [['name', 'sn', 'type'], ['D', `I-${++seq}`, 'OPT']])) }),
    },
    'GET /api/v1/device/export': { perm: 'device:list', ok: async () => ({}) },
    'GET /api/v1/device/alarmlist': { perm: ['alarm:list', 'device:detail'], ok: async () => ({ query: { deviceId: ids.opDevice! } }) },
    'GET /api/v1/device/alarmgroupinfo': { perm: ['alarm:list', 'device:detail'], ok: async () => ({ query: { deviceId: ids.opDevice! } }) },
    'GET /api/v1/device/alarmbell': { perm: AUTHENTICATED, ok: async () => ({}) },
    'GET /api/v1/device/alarmexport': { perm: ['alarm:list', 'device:detail'], ok: async () => ({}) },
    'POST /api/v1/device/processalarm': {
      perm: 'alarm:handle',
      ok: async () => ({ payload: { ids: [await newOpAlarm()], state: 'processed', note: 'checked' } }),
      foreign: async () => ({ payload: { ids: [ids.betaAlarm!], state: 'processed' } }),
    },
    'GET /api/v1/device/alarmnotices': {
      perm: ['alarm:list', 'device:detail'],
      ok: async () => ({ query: { alarmId: await newOpAlarm() } }),
      foreign: async () => ({ query: { alarmId: ids.betaAlarm! } }),
    },
    'GET /api/v1/devicetype/list': { perm: 'devicetype:list', ok: async () => ({}) },
    'GET /api/v1/devicetype/item': {
      perm: 'devicetype:list',
      ok: async () => ({ query: { id: ids.opType! } }),
      foreign: async () => ({ query: { id: ids.betaType! } }),
    },
    'GET /api/v1/devicetype/typeoptionslist': { perm: ['devicetype:list', 'device:list', 'device:add', 'device:edit'], ok: async () => ({}) },
    'GET /api/v1/user/devicetypelist': { perm: AUTHENTICATED, ok: async () => ({}) },
    'POST /api/v1/devicetype/addtype': { perm: 'devicetype:add', ok: async () => ({ payload: { code: `T${++seq}`, name: 'Type' } }) },
    'POST /api/v1/devicetype/edittype': {
      perm: 'devicetype:edit',
      ok: async () => ({ payload: { id: ids.opType!, code: 'OPT', name: 'Op type' } }),
      foreign: async () => ({ payload: { id: ids.betaType!, code: 'BETA', name: 'Mine' } }),
    },
    'DELETE /api/v1/devicetype/deletetype': {
      perm: 'devicetype:delete',
      ok: async () => {
        const { id } = await as('op', 'POST', '/api/v1/devicetype/addtype', { payload: { code: `D${++seq}`, name: 'Doomed' } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaType! } }),
    },
    'GET /api/v1/devicetype/setparam': {
      perm: ['devicetype:paramview', 'devicetype:param'],
      ok: async () => ({ query: { id: ids.opType! } }),
      foreign: async () => ({ query: { id: ids.betaType! } }),
    },
    'POST /api/v1/devicetype/addsetparam': {
      perm: 'devicetype:param',
      ok: async () => ({ payload: { id: ids.opType!, params: [{ semaphoreId: '1', name: 'V', dataType: 'number' }] } }),
      foreign: async () => ({ payload: { id: ids.betaType!, params: [] } }),
    },
    'GET /api/v1/devicetype/setalarm': {
      perm: ['devicetype:alarmview', 'devicetype:alarm'],
      ok: async () => ({ query: { id: ids.opType! } }),
      foreign: async () => ({ query: { id: ids.betaType! } }),
    },
    'POST /api/v1/devicetype/addsetalarm': {
      perm: 'devicetype:alarm',
      ok: async () => ({ payload: { id: ids.opType!, rules: [{ semaphoreId: '1', comparison: 'gt', threshold: 5, level: 2, message: '高' }] } }),
      foreign: async () => ({ payload: { id: ids.betaType!, rules: [] } }),
    },
  };

  it('every registered route has a matrix entry and a declared permission', () => {
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((r) => !(r in cases))).toEqual([]);
    expect(Object.keys(cases).filter((c) => !registered.includes(c))).toEqual([]);
    for (const r of t.app.apiRoutes) expect(r.permission).toBeTruthy();
  });

  it('refuses, scopes and allows exactly as the matrix says', async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const key = `${route.method} ${route.url}`;
      if (route.url.endsWith('/ws')) continue; // covered by the live-channel suite
      const c = cases[key]!;
      const guarded = c.perm !== PUBLIC;
      const codes: readonly string[] = !guarded || c.perm === AUTHENTICATED ? [] : typeof c.perm === 'string' ? [c.perm] : c.perm;

      // Requests are prepared while `op` holds every code.
      await grant(ALL_CODES);
      if (guarded) {
        const anon = await call(undefined, route.method, route.url, await c.ok());
        if (anon.code !== ErrorCode.TOKEN_ILLEGAL) failures.push(`${key} without a token → ${anon.code}`);
      }
      if (codes.length > 0) {
        const req = await c.ok();
        await grant(ALL_CODES.filter((x) => !codes.includes(x)));
        const refused = await call('op', route.method, route.url, req);
        if (refused.code !== ErrorCode.FORBIDDEN) failures.push(`${key} with every code but ${codes.join('|')} → ${refused.code} ${refused.message}`);
        await grant(ALL_CODES);
      }
      if (c.foreign) {
        const foreign = await call('alpha', route.method, route.url, await c.foreign());
        if (foreign.code !== ErrorCode.NOT_FOUND) failures.push(`${key} on a foreign object → ${foreign.code} ${foreign.message}`);
      }

      // Allowed: public routes anonymously, the others as `op` holding exactly the entry's codes
      // (none for routes that need only a session). Logout and password change end sessions:
      // they run on a session of their own.
      const req = await c.ok();
      await grant(codes);
      const who = !guarded ? undefined : key.endsWith('/logout') || key.endsWith('/changepassword') ? 'spare' : 'op';
      if (who === 'spare') tok.spare = await t.login('op', 'secret-pass');
      const allowed = await call(who, route.method, route.url, req);
      if (allowed.code !== 20000) failures.push(`${key} with exactly ${codes.join('|') || 'a session'} → ${allowed.code} ${allowed.message}`);
      if (key.endsWith('changepassword')) {
        // Put the password back for the rest of the matrix.
        tok.op = await t.login('op', 'secret-pass-2');
        await as('op', 'POST', route.url, { payload: { oldPassword: 'secret-pass-2', newPassword: 'secret-pass', confirmPassword: 'secret-pass' } });
      }
    }
    expect(failures).toEqual([]);
    // Every route, several calls each, on a shared 2-core machine.
  }, 120_000);

  it('a device moved into another tenant’s project belongs to that tenant, by edit and by bulk move alike', async () => {
    const alphaProject = (await as('alpha', 'POST', '/api/v1/project/addproject', { payload: { name: `Alpha ${++seq}` } })).id!;
    const betaProject = (await as('beta', 'POST', '/api/v1/project/addproject', { payload: { name: `Beta ${++seq}` } })).id!;
    const types = (await as('admin', 'GET', '/api/v1/devicetype/typeoptionslist')) as unknown as { id: number; code: string }[];
    const typeId = types.find((x) => x.code === 'BMU')!.id;
    const moves = {
      edit: (id: number) => as('admin', 'POST', '/api/v1/device/edit', { payload: { id, projectId: betaProject } }),
      bulk: (id: number) => as('admin', 'POST', '/api/v1/device/editdevicelistproject', { payload: { ids: [id], projectId: betaProject } }),
    };
    for (const [how, move] of Object.entries(moves)) {
      const sn = `MOVE-${how}-${++seq}`;
      const { id } = await as('alpha', 'POST', '/api/v1/device/add', { payload: { name: sn, sn, typeId, projectId: alphaProject } });
      // The super administrator sees both tenants, so it may put alpha's device in beta's project.
      await move(id!);
      const edit = { payload: { id: id!, remarks: how } };
      const credential = { payload: { id: id! } };
      expect((await call('alpha', 'POST', '/api/v1/device/edit', edit)).code, how).toBe(ErrorCode.NOT_FOUND);
      expect((await call('alpha', 'POST', '/api/v1/device/credential', credential)).code, how).toBe(ErrorCode.NOT_FOUND);
      expect((await call('beta', 'POST', '/api/v1/device/edit', edit)).code, how).toBe(20000);
      expect((await call('beta', 'POST', '/api/v1/device/credential', credential)).code, how).toBe(20000);
    }
  });

  it('every permission code the routes declare exists in the contract', () => {
    for (const r of t.app.apiRoutes) {
      const codes = typeof r.permission === 'string' ? [r.permission] : r.permission;
      for (const c of codes) {
        if (c !== 'public' && c !== 'authenticated') expect(Object.keys(PERMISSIONS)).toContain(c);
      }
    }
  });
});
