import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuNode } from '@iot/contract';
import { ENDPOINTS, ErrorCode, endpoint } from '@iot/contract';
import { z } from 'zod';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { seed } from '../src/db/seed/index.js';
import { MENU_SEED } from '../src/db/seed/menus.js';
import { menus, permissions, rolePermissions, roles, users } from '../src/db/schema/index.js';

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe('menus and permissions', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A guarded route to prove the one hook enforces declared codes (declared like every route
    // under /api/v1: the endpoint table).
    const testRoute = endpoint({ method: 'GET', path: '/test/roles', permission: 'role:list', tags: ['test'], data: z.string() });
    t = await buildTestApp({}, { endpoints: [...ENDPOINTS, testRoute] });
    t.app.get('/api/v1/test/roles', { config: { permission: 'role:list', endpoint: testRoute } }, async () => ({
      code: 20000,
      message: 'success',
      data: 'secret',
    }));
    await t.createUser({ username: 'battery', password: 'battery-pass', role: 'BATTERYMANAGEMENT' });
  });
  afterAll(() => t.close());

  const tree = async (token: string) =>
    flatten(
      (await t.app.inject({ method: 'GET', url: '/api/v1/user/menutestlist', headers: bearer(token) })).json()
        .data as MenuNode[],
    );

  it('no two shown menus share a name in any language; the upgrade pages are shown (issues 33, 36)', async () => {
    const shown = (await tree(await t.login())).filter((m) => MENU_SEED.some((s) => s.identification === m.identification));
    for (const field of ['name', 'nameEn', 'nameEs', 'nameJa'] as const) {
      const names = shown.filter((m) => m.isShow === 1).map((m) => m[field]);
      expect(names.filter((n, i) => names.indexOf(n) !== i), field).toEqual([]);
    }
    // Versions, device upgrades and external devices are built (issue 36).
    const upgrade = Object.fromEntries(shown.filter((m) => m.identification.startsWith('upgrade')).map((m) => [m.identification, m.isShow]));
    expect(upgrade).toEqual({ upgrade: 1, 'upgrade-version': 1, 'upgrade-device': 1, 'upgrade-external': 1 });
  });

  it('the super administrator sees every seeded menu, hidden ones flagged is_show 0', async () => {
    const all = await tree(await t.login());
    // Every menu stored, the seeded ones among them (other tests add menus of their own).
    const stored = (await t.database.db.select({ identification: menus.identification }).from(menus)).map((m) => m.identification);
    expect(all.map((m) => m.identification).sort()).toEqual(stored.sort());
    expect(stored).toEqual(expect.arrayContaining(MENU_SEED.map((m) => m.identification)));
    expect(all.find((m) => m.identification === 'device-addtype')?.isShow).toBe(0);
    const device = all.find((m) => m.identification === 'device')!;
    expect(device.menuType).toBe(1);
    expect(device.children.map((c) => c.menuUrl)).toEqual(['list', 'type', 'addtype', 'edittype', 'setparam', 'setalarm', 'track']);
  });

  it('an upgrade moves the device list permission to its sidebar entry, unless an administrator moved it', async () => {
    const db = t.database.db;
    const menuId = async (identification: string) =>
      (await db.select({ id: menus.id }).from(menus).where(eq(menus.identification, identification)))[0]?.id;
    const permMenu = async () =>
      (await db.select({ menuId: permissions.menuId }).from(permissions).where(eq(permissions.identification, 'device:list')))[0]!.menuId;
    // A database from before: the device list was a hidden page under projects.
    const [old] = await db
      .insert(menus)
      .values({ identification: 'project-devicelist', name: '设备列表', menuUrl: 'devicelist', menuType: 0, sort: 3, isShow: 0, parentId: (await menuId('project'))! })
      .returning({ id: menus.id });
    await db.update(permissions).set({ menuId: old!.id }).where(eq(permissions.identification, 'device:list'));
    await seed(db, { adminUsername: 'admin' });
    expect(await permMenu()).toBe(await menuId('device-list'));

    // An administrator's own placement survives restarts.
    const mine = (await menuId('project-index'))!;
    await db.update(permissions).set({ menuId: mine }).where(eq(permissions.identification, 'device:list'));
    await seed(db, { adminUsername: 'admin' });
    expect(await permMenu()).toBe(mine);
    await db.update(permissions).set({ menuId: (await menuId('device-list'))! }).where(eq(permissions.identification, 'device:list'));
  });

  it('battery management sees only menus it holds permissions for', async () => {
    const ids = (await tree(await t.login('battery', 'battery-pass'))).map((m) => m.identification);
    expect(ids).toContain('device-type');
    expect(ids).toContain('project-index');
    expect(ids).not.toContain('sys');
    expect(ids).not.toContain('sys-role');
    expect(ids).not.toContain('device-addtype');
    // Read-only settings pages come with the view codes.
    expect(ids).toContain('device-setparam');
    expect(ids).toContain('device-setalarm');
  });

  it('the hook refuses a code the role lacks (403) and allows one it holds', async () => {
    const battery = await t.login('battery', 'battery-pass');
    const refused = await t.app.inject({ method: 'GET', url: '/api/v1/test/roles', headers: bearer(battery) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(ErrorCode.FORBIDDEN);
    const admin = await t.login();
    const allowed = await t.app.inject({ method: 'GET', url: '/api/v1/test/roles', headers: bearer(admin) });
    expect(allowed.json().data).toBe('secret');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/test/roles' });
    expect(anonymous.json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
  });

  it('a route under /api/v1 without a declared permission cannot be registered', async () => {
    const other = await buildTestApp();
    expect(() => other.app.get('/api/v1/test/unguarded', async () => 'open')).toThrow(
      /GET \/api\/v1\/test\/unguarded declares no permission/,
    );
    await other.close();
  });

  it('the seed is idempotent and keeps administrators’ changes', async () => {
    const db = t.database.db;
    const count = async () => ({
      menus: (await db.select().from(menus)).length,
      permissions: (await db.select().from(permissions)).length,
      grants: (await db.select().from(rolePermissions)).length,
      roles: (await db.select().from(roles)).length,
      users: (await db.select().from(users)).length,
    });
    const before = await count();
    const again = await seed(db, { adminUsername: 'admin', adminPassword: 'ignored-now' });
    expect(again.adminCreated).toBe(false);
    expect(await count()).toEqual(before);
  });

  it('menu URLs are in-site paths or http(s) links, never javascript: or data:', async () => {
    const token = await t.login();
    let n = 0;
    const add = async (jumpType: number, menuUrl: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/menu/addmenutest',
          headers: bearer(token),
          payload: { name: 'Link', jumpType, menuUrl, identification: `link-${++n}` },
        })
      ).json();
    for (const [jumpType, url] of [
      [2, 'javascript:alert(document.cookie)'],
      [2, ' JaVaScRiPt:alert(1)'],
      [2, 'data:text/html,<script>alert(1)</script>'],
      [2, 'vbscript:msgbox'],
      [2, '//evil.example/path'],
      [2, 'https://user@evil.example'],
      [2, 'https://ok.example/a b'],
      [2, 'type'],
      [1, 'javascript:alert(1)'],
      [1, '//evil.example'],
      [1, '\\evil.example'],
      [1, 'https://elsewhere.example'],
    ] as const) {
      expect(await add(jumpType, url), `${jumpType} ${url}`).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'menuUrl' } });
    }
    for (const [jumpType, url] of [[2, 'https://docs.example.com/guide?x=1#top'], [2, 'HTTP://intranet:8080/'], [1, 'type'], [1, '/device']] as const) {
      expect((await add(jumpType, url)).code, `${jumpType} ${url}`).toBe(20000);
    }
    // Editing is held to the same rule.
    const { data } = await add(1, 'ok-path');
    const edit = await t.app.inject({
      method: 'POST',
      url: '/api/v1/menu/editmenutest',
      headers: bearer(token),
      payload: { id: data.id, name: 'Link', jumpType: 2, menuUrl: 'javascript:void(0)', identification: `link-${n}` },
    });
    expect(edit.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'menuUrl' } });
    // A partial edit sending only the URL, or only the jump type, is checked with the stored other.
    for (const payload of [{ id: data.id, menuUrl: 'javascript:void(0)' }, { id: data.id, jumpType: 2 }]) {
      const partial = await t.app.inject({ method: 'POST', url: '/api/v1/menu/editmenutest', headers: bearer(token), payload });
      expect(partial.json(), JSON.stringify(payload)).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'menuUrl' } });
    }
    const fine = await t.app.inject({ method: 'POST', url: '/api/v1/menu/editmenutest', headers: bearer(token), payload: { id: data.id, menuUrl: '/fine' } });
    expect(fine.json().code).toBe(20000);
  });

  it('every answer carries the security headers: CSP without inline scripts, no framing, nosniff, no referrer', async () => {
    for (const url of ['/api/v1/config', '/api/docs/', '/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("img-src 'self' data:");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });
});
