import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, PERMISSIONS } from '@iot/contract';
import { writeSheet } from '../src/lib/sheet.js';
import { ADMIN, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

/**
 * The authorization matrix: for every /api/v1 route, no token → 50008, a user lacking the
 * permission → 403, a user from another subtree asking for an object → 404, the allowed user →
 * 20000. A route without an entry here fails the suite.
 */

interface Req {
  /** The concrete path of a route with parameters (`/ingest/:kind` → `/ingest/telemetry`). */
  url?: string;
  query?: Record<string, string | number>;
  payload?: object | Buffer;
  headers?: Record<string, string>;
}
interface Case {
  /** A valid request for the allowed user (may create what it needs first). */
  ok: () => Promise<Req>;
  /** A request by `alpha` for an object of `beta`'s subtree; must answer 404. */
  foreign?: () => Promise<Req>;
}

const BROKER_AUTH_SECRET = 'matrix-broker-secret-123';
const brokerHook = (payload: object) => async (): Promise<Req> => ({ headers: { 'x-broker-secret': BROKER_AUTH_SECRET }, payload });

describe('authorization matrix over every /api/v1 route', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let seq = 0;
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
    if (res.statusCode === 200 && url.startsWith('/api/v1/broker/')) return { code: 20000, message: 'broker', data: {} } as never;
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
  const newUser = async (who: string, parentId?: number) => {
    const username = `u${++seq}`;
    const { id } = await as(who, 'POST', '/api/v1/user/add', {
      payload: { username, password: 'secret-pass', type: 1, roleId: ids.batteryRole, parentId },
    });
    return id!;
  };

  beforeAll(async () => {
    t = await buildTestApp({ BROKER_AUTH_SECRET, MQTT_USERNAME: 'iot-server', MQTT_PASSWORD: 'iot-server-pass' });
    tok.admin = await t.login();
    ids.adminRole = await roleId('ADMIN');
    ids.batteryRole = await roleId('BATTERYMANAGEMENT');
    const { id: noPerm } = await as('admin', 'POST', '/api/v1/role/add', { payload: { name: 'No permission', identification: 'NOPERM' } });
    for (const [name, role] of [['alpha', ids.adminRole], ['beta', ids.adminRole], ['nobody', noPerm]] as const) {
      const { id } = await as('admin', 'POST', '/api/v1/user/add', {
        payload: { username: name, password: 'secret-pass', type: 1, roleId: role },
      });
      ids[name] = id!;
      tok[name] = await t.login(name, 'secret-pass');
    }
    ids.betaSub = await newUser('beta');
    const { id: betaRole } = await as('beta', 'POST', '/api/v1/role/add', { payload: { name: 'Beta role', identification: 'BETA_ROLE' } });
    ids.betaRole = betaRole!;
    const { id: betaEmail } = await as('beta', 'POST', '/api/v1/user/addemail', { payload: { userId: ids.betaSub, email: 'b@example.com' } });
    ids.betaEmail = betaEmail!;
    const { id: betaType } = await as('beta', 'POST', '/api/v1/devicetype/addtype', { payload: { code: 'BETA', name: 'Beta type' } });
    ids.betaType = betaType!;
    const { id: betaProject } = await as('beta', 'POST', '/api/v1/project/addproject', { payload: { name: 'Beta project' } });
    ids.betaProject = betaProject!;
    const { id: betaSection } = await as('beta', 'POST', '/api/v1/project/addroadsection', { payload: { projectId: betaProject, name: 'Road', points: [[116.4, 39.9]] } });
    ids.betaSection = betaSection!;
    const { id: betaDevice } = await as('beta', 'POST', '/api/v1/device/add', { payload: { name: 'Beta BMU', sn: 'BETA-1', typeId: ids.betaType, projectId: betaProject } });
    ids.betaDevice = betaDevice!;
    const { secret } = (await as('admin', 'POST', '/api/v1/device/add', {
      payload: { name: 'HTTP device', sn: 'HTTP-1', typeId: ids.betaType },
    })) as { secret: string };
    deviceBasic = `Basic ${Buffer.from(`HTTP-1:${secret}`).toString('base64')}`;
  });
  const newDevice = async () => {
    const { id } = await as('admin', 'POST', '/api/v1/device/add', { payload: { name: 'D', sn: `SN-${++seq}`, typeId: ids.betaType } });
    return id!;
  };
  const newProject = async () => {
    const { id } = await as('admin', 'POST', '/api/v1/project/addproject', { payload: { name: `P${++seq}` } });
    return id!;
  };
  afterAll(() => t.close());

  const cases: Record<string, Case> = {
    'GET /api/v1/config': { ok: async () => ({}) },
    'GET /api/v1/login/captchaInfo': { ok: async () => ({}) },
    'POST /api/v1/user/login': { ok: async () => ({ payload: { username: ADMIN.username, password: ADMIN.password } }) },
    'POST /api/v1/user/logout': { ok: async () => ({}) },
    'GET /api/v1/user/info': { ok: async () => ({}) },
    'GET /api/v1/user/menutestlist': { ok: async () => ({}) },
    'GET /api/v1/user/menulist': { ok: async () => ({ query: { parent_id: 0 } }) },
    'POST /api/v1/user/changepassword': {
      ok: async () => ({ payload: { oldPassword: ADMIN.password, newPassword: ADMIN.password + 'x', confirmPassword: ADMIN.password + 'x' } }),
    },
    'POST /api/v1/user/preferences': { ok: async () => ({ payload: { language: 'en' } }) },
    'GET /api/v1/user/logins': { ok: async () => ({}) },
    'GET /api/v1/user/list': { ok: async () => ({ query: { kind: 'agent' } }) },
    'GET /api/v1/user/item': { ok: async () => ({ query: { id: ids.alpha! } }), foreign: async () => ({ query: { id: ids.betaSub! } }) },
    'GET /api/v1/user/options': { ok: async () => ({ query: { q: 'a' } }) },
    'POST /api/v1/user/add': {
      ok: async () => ({ payload: { username: `m${++seq}`, password: 'secret-pass', type: 0, roleId: ids.batteryRole! } }),
    },
    'POST /api/v1/user/edit': {
      ok: async () => ({ payload: { id: await newUser('admin'), corporateName: 'ACME' } }),
      foreign: async () => ({ payload: { id: ids.betaSub!, corporateName: 'Mine now' } }),
    },
    'DELETE /api/v1/user/delete': {
      ok: async () => ({ query: { id: await newUser('admin') } }),
      foreign: async () => ({ query: { id: ids.betaSub! } }),
    },
    'POST /api/v1/user/repassword': {
      ok: async () => ({ payload: { id: await newUser('admin'), password: 'another-pass' } }),
      foreign: async () => ({ payload: { id: ids.betaSub!, password: 'another-pass' } }),
    },
    'POST /api/v1/user/unlock': {
      ok: async () => ({ payload: { id: ids.alpha! } }),
      foreign: async () => ({ payload: { id: ids.betaSub! } }),
    },
    'GET /api/v1/user/emaillist': { ok: async () => ({ query: { id: ids.alpha! } }), foreign: async () => ({ query: { id: ids.betaSub! } }) },
    'POST /api/v1/user/addemail': {
      ok: async () => ({ payload: { userId: await newUser('admin'), email: 'x@example.com' } }),
      foreign: async () => ({ payload: { userId: ids.betaSub!, email: 'y@example.com' } }),
    },
    'DELETE /api/v1/user/deleteemail': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/user/addemail', { payload: { userId: await newUser('admin'), email: 'z@example.com' } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaEmail! } }),
    },
    'GET /api/v1/role/getlist': { ok: async () => ({}) },
    'GET /api/v1/role/getoptionslist': { ok: async () => ({}) },
    'GET /api/v1/role/getitem': { ok: async () => ({ query: { id: ids.adminRole! } }), foreign: async () => ({ query: { id: ids.betaRole! } }) },
    'POST /api/v1/role/add': { ok: async () => ({ payload: { name: 'R', identification: `R_${++seq}` } }) },
    'POST /api/v1/role/edit': {
      ok: async () => ({ payload: { id: ids.betaRole!, name: 'Beta role', identification: 'BETA_ROLE' } }),
      foreign: async () => ({ payload: { id: ids.betaRole!, name: 'Taken', identification: 'BETA_ROLE' } }),
    },
    'DELETE /api/v1/role/delete': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/role/add', { payload: { name: 'Temp', identification: `T_${++seq}` } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaRole! } }),
    },
    'GET /api/v1/role/getpermission': { ok: async () => ({ query: { id: ids.adminRole! } }), foreign: async () => ({ query: { id: ids.betaRole! } }) },
    'POST /api/v1/role/setpermission': {
      ok: async () => ({ payload: { id: ids.betaRole!, permissionIds: [] } }),
      foreign: async () => ({ payload: { id: ids.betaRole!, permissionIds: [] } }),
    },
    'GET /api/v1/permission/getlist': { ok: async () => ({}) },
    'GET /api/v1/permission/getitem': { ok: async () => ({ query: { id: 1 } }) },
    'GET /api/v1/permission/menuoptions': { ok: async () => ({}) },
    'POST /api/v1/permission/add': { ok: async () => ({ payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } }) },
    'POST /api/v1/permission/edit': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/permission/add', { payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } });
        return { payload: { id: id!, name: 'P2', identification: `p:${++seq}`, menuId: 1 } };
      },
    },
    'DELETE /api/v1/permission/delete': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/permission/add', { payload: { name: 'P', identification: `p:${++seq}`, menuId: 1 } });
        return { query: { id: id! } };
      },
    },
    'GET /api/v1/menu/menutestlist': { ok: async () => ({}) },
    'GET /api/v1/menu/menutestoptionslist': { ok: async () => ({}) },
    'POST /api/v1/menu/addmenutest': {
      ok: async () => ({ payload: { name: '测试', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } }),
    },
    'POST /api/v1/menu/editmenutest': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/menu/addmenutest', { payload: { name: 'M', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } });
        return { payload: { id: id!, name: 'M2', jumpType: 2, menuUrl: 'https://example.com', identification: `m-${++seq}` } };
      },
    },
    'DELETE /api/v1/menu/deletemenutest': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/menu/addmenutest', { payload: { name: 'M', jumpType: 1, menuUrl: `/m${++seq}`, identification: `m-${seq}` } });
        return { query: { id: id! } };
      },
    },
    'GET /api/v1/logs/list': { ok: async () => ({}) },
    'GET /api/v1/logs/loginlist': { ok: async () => ({}) },
    'GET /api/v1/ws': { ok: async () => ({}) },
    'GET /api/v1/project/list': { ok: async () => ({}) },
    'GET /api/v1/project/item': { ok: async () => ({ query: { id: ids.betaProject! } }), foreign: async () => ({ query: { id: ids.betaProject! } }) },
    'POST /api/v1/project/addproject': { ok: async () => ({ payload: { name: 'New project', lng: 116.4, lat: 39.9 } }) },
    'POST /api/v1/project/editproject': {
      ok: async () => ({ payload: { id: await newProject(), name: 'Renamed' } }),
      foreign: async () => ({ payload: { id: ids.betaProject!, name: 'Mine' } }),
    },
    'DELETE /api/v1/project/deleteproject': {
      ok: async () => ({ query: { id: await newProject() } }),
      foreign: async () => ({ query: { id: ids.betaProject!, moveTo: 0 } }),
    },
    'GET /api/v1/project/roadsectionlist': { ok: async () => ({ query: { projectId: ids.betaProject! } }), foreign: async () => ({ query: { projectId: ids.betaProject! } }) },
    'POST /api/v1/project/addroadsection': {
      ok: async () => ({ payload: { projectId: await newProject(), name: 'R', points: [[1, 2], [3, 4]] } }),
      foreign: async () => ({ payload: { projectId: ids.betaProject!, name: 'R' } }),
    },
    'POST /api/v1/project/editroadsection': {
      ok: async () => ({ payload: { id: ids.betaSection!, name: 'Road', points: [[116.4, 39.9]] } }),
      foreign: async () => ({ payload: { id: ids.betaSection!, name: 'Mine' } }),
    },
    'DELETE /api/v1/project/deleteroadsection': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/project/addroadsection', { payload: { projectId: await newProject(), name: 'R' } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaSection! } }),
    },
    'GET /api/v1/project/userprojectlist': { ok: async () => ({ query: { id: ids.betaProject! } }), foreign: async () => ({ query: { id: ids.betaProject! } }) },
    'POST /api/v1/project/setuserproject': {
      ok: async () => ({ payload: { id: await newProject(), userIds: [ids.alpha!] } }),
      foreign: async () => ({ payload: { id: ids.betaProject!, userIds: [] } }),
    },
    'GET /api/v1/device/list': { ok: async () => ({ query: { q: 'BETA', online: 'false', warningLevel: 0 } }) },
    'GET /api/v1/device/seachList': { ok: async () => ({ query: { q: 'BE' } }) },
    // Devices and brokers authenticate themselves (device secret, BROKER_AUTH_SECRET), not with a session.
    'POST /api/v1/ingest/:kind': {
      ok: async () => ({ url: '/api/v1/ingest/telemetry', headers: { authorization: deviceBasic }, payload: { values: {} } }),
    },
    'POST /api/v1/broker/emqx/authn': { ok: brokerHook({ username: 'iot-server', password: 'iot-server-pass', clientid: 'srv' }) },
    'POST /api/v1/broker/emqx/authz': { ok: brokerHook({ username: 'HTTP-1', topic: 'dev/HTTP-1/telemetry', action: 'publish' }) },
    'POST /api/v1/broker/mosquitto/user': { ok: brokerHook({ username: 'iot-server', password: 'iot-server-pass', clientid: 'srv' }) },
    'POST /api/v1/broker/mosquitto/superuser': { ok: brokerHook({ username: 'iot-server' }) },
    'POST /api/v1/broker/mosquitto/acl': { ok: brokerHook({ username: 'HTTP-1', topic: 'dev/HTTP-1/cmd', acc: 4 }) },
    'GET /api/v1/device/latest': { ok: async () => ({ query: { id: ids.betaDevice! } }), foreign: async () => ({ query: { id: ids.betaDevice! } }) },
    'GET /api/v1/logs/devicelogs': { ok: async () => ({}) },
    'GET /api/v1/device/basic': { ok: async () => ({ query: { id: ids.betaDevice! } }), foreign: async () => ({ query: { id: ids.betaDevice! } }) },
    'GET /api/v1/device/subdevicelist': { ok: async () => ({ query: { id: ids.betaDevice! } }), foreign: async () => ({ query: { id: ids.betaDevice! } }) },
    'GET /api/v1/device/subnum': { ok: async () => ({ query: { id: ids.betaDevice! } }), foreign: async () => ({ query: { id: ids.betaDevice! } }) },
    'POST /api/v1/device/add': { ok: async () => ({ payload: { name: 'D', sn: `SN-${++seq}`, typeId: ids.betaType! } }) },
    'POST /api/v1/device/edit': {
      ok: async () => ({ payload: { id: await newDevice(), name: 'Edited', sn: `SN-${++seq}`, typeId: ids.betaType! } }),
      foreign: async () => ({ payload: { id: ids.betaDevice!, name: 'Mine', sn: 'BETA-1', typeId: ids.betaType! } }),
    },
    'DELETE /api/v1/device/delete': {
      ok: async () => ({ query: { id: `${await newDevice()},${await newDevice()}` } }),
      foreign: async () => ({ query: { id: String(ids.betaDevice!) } }),
    },
    'POST /api/v1/device/editdevicelistproject': {
      ok: async () => ({ payload: { ids: [await newDevice()], projectId: await newProject() } }),
      foreign: async () => ({ payload: { ids: [ids.betaDevice!], projectId: null } }),
    },
    'POST /api/v1/device/credential': {
      ok: async () => ({ payload: { id: await newDevice() } }),
      foreign: async () => ({ payload: { id: ids.betaDevice! } }),
    },
    'GET /api/v1/device/importtemplate': { ok: async () => ({ query: { lang: 'zh' } }) },
    'POST /api/v1/device/import': {
      ok: async () => ({ query: { dryRun: 'true' }, ...multipart('d.xlsx', writeSheet('d', [['name', 'sn', 'type'], ['D', `I-${++seq}`, 'BMU']])) }),
    },
    'GET /api/v1/device/export': { ok: async () => ({}) },
    'GET /api/v1/devicetype/list': { ok: async () => ({}) },
    'GET /api/v1/devicetype/item': { ok: async () => ({ query: { id: ids.betaType! } }), foreign: async () => ({ query: { id: ids.betaType! } }) },
    'GET /api/v1/devicetype/typeoptionslist': { ok: async () => ({}) },
    'GET /api/v1/user/devicetypelist': { ok: async () => ({}) },
    'POST /api/v1/devicetype/addtype': { ok: async () => ({ payload: { code: `T${++seq}`, name: 'Type' } }) },
    'POST /api/v1/devicetype/edittype': {
      ok: async () => ({ payload: { id: ids.betaType!, code: 'BETA', name: 'Beta type' } }),
      foreign: async () => ({ payload: { id: ids.betaType!, code: 'BETA', name: 'Mine' } }),
    },
    'DELETE /api/v1/devicetype/deletetype': {
      ok: async () => {
        const { id } = await as('admin', 'POST', '/api/v1/devicetype/addtype', { payload: { code: `D${++seq}`, name: 'Doomed' } });
        return { query: { id: id! } };
      },
      foreign: async () => ({ query: { id: ids.betaType! } }),
    },
    'GET /api/v1/devicetype/setparam': { ok: async () => ({ query: { id: ids.betaType! } }), foreign: async () => ({ query: { id: ids.betaType! } }) },
    'POST /api/v1/devicetype/addsetparam': {
      ok: async () => ({ payload: { id: ids.betaType!, params: [{ semaphoreId: '1', name: 'V', dataType: 'number' }] } }),
      foreign: async () => ({ payload: { id: ids.betaType!, params: [] } }),
    },
    'GET /api/v1/devicetype/setalarm': { ok: async () => ({ query: { id: ids.betaType! } }), foreign: async () => ({ query: { id: ids.betaType! } }) },
    'POST /api/v1/devicetype/addsetalarm': {
      ok: async () => ({ payload: { id: ids.betaType!, rules: [{ semaphoreId: '1', comparison: 'gt', threshold: 5, level: 2, message: '高' }] } }),
      foreign: async () => ({ payload: { id: ids.betaType!, rules: [] } }),
    },
  };

  it('every registered route has a matrix entry and a declared permission', () => {
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((r) => !(r in cases))).toEqual([]);
    expect(Object.keys(cases).filter((c) => !registered.includes(c))).toEqual([]);
    for (const r of t.app.apiRoutes) expect(r.permission).toBeTruthy();
  });

  it('refuses, scopes and allows exactly as declared', async () => {
    const failures: string[] = [];
    for (const route of t.app.apiRoutes) {
      const key = `${route.method} ${route.url}`;
      if (route.url.endsWith('/ws')) continue; // covered by the live-channel suite
      const c = cases[key]!;
      const codes = typeof route.permission === 'string' ? [route.permission] : route.permission;
      const guarded = !codes.includes('public' as never);
      const needsCode = guarded && !codes.includes('authenticated' as never);

      if (guarded) {
        const anon = await call(undefined, route.method, route.url, await c.ok());
        if (anon.code !== ErrorCode.TOKEN_ILLEGAL) failures.push(`${key} without a token → ${anon.code}`);
      }
      if (needsCode) {
        const refused = await call('nobody', route.method, route.url, await c.ok());
        if (refused.code !== ErrorCode.FORBIDDEN) failures.push(`${key} without permission → ${refused.code}`);
      }
      if (c.foreign) {
        const foreign = await call('alpha', route.method, route.url, await c.foreign());
        if (foreign.code !== ErrorCode.NOT_FOUND) failures.push(`${key} on a foreign object → ${foreign.code} ${foreign.message}`);
      }
      const allowedUser = key === 'POST /api/v1/user/logout' || key === 'POST /api/v1/user/changepassword' ? 'spare' : 'admin';
      // Logout and password change end sessions: run them on a session of their own.
      if (allowedUser === 'spare') tok.spare = await t.login();
      const allowed = await call(allowedUser, route.method, route.url, await c.ok());
      if (allowed.code !== 20000) failures.push(`${key} allowed → ${allowed.code} ${allowed.message}`);
      if (key.endsWith('changepassword')) {
        // Put the password back for the rest of the matrix.
        tok.admin = await t.login(ADMIN.username, ADMIN.password + 'x');
        await as('admin', 'POST', route.url, {
          payload: { oldPassword: ADMIN.password + 'x', newPassword: ADMIN.password, confirmPassword: ADMIN.password },
        });
      }
    }
    expect(failures).toEqual([]);
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
