import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, SUPERADMIN, type MenuNode } from '@iot/contract';
import { apiAs, bearer, buildTestApp, type TestApp } from './helpers.js';

/** Escalation attempts, sub-user hierarchy, emails, session ends and the operation log. */
describe('access control', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const { call, ok } = apiAs(() => t, tok);
  const roleOf = async (identification: string) =>
    ((await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[]).find(
      (r) => r.identification === identification,
    )!.id;

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    ids.ADMIN = await roleOf('ADMIN');
    ids.BATTERY = await roleOf('BATTERYMANAGEMENT');
    ids.SUPER = await roleOf(SUPERADMIN);
    for (const name of ['alpha', 'beta']) {
      ids[name] = (await ok('admin', 'POST', '/user/add', { username: name, password: 'secret-pass', type: 1, roleId: ids.ADMIN })).id;
      tok[name] = await t.login(name, 'secret-pass');
    }
    ids.alphaSub = (await ok('alpha', 'POST', '/user/add', { username: 'alpha-sub', password: 'secret-pass', type: 1, roleId: ids.BATTERY })).id;
    tok.alphaSub = await t.login('alpha-sub', 'secret-pass');
  });
  afterAll(() => t.close());

  describe('escalation attempts are refused', () => {
    it('a sub-user cannot give itself a role, or change its own parent or state', async () => {
      for (const change of [{ roleId: ids.SUPER }, { roleId: ids.BATTERY }, { parentId: ids.beta }, { enabled: false }]) {
        const r = await call('alpha', 'POST', '/user/edit', { id: ids.alpha, ...change });
        expect(r.code, JSON.stringify(change)).toBe(ErrorCode.FORBIDDEN);
      }
    });

    it('a sub-user cannot reach its parent or the super administrator (not found, not forbidden)', async () => {
      expect((await call('alpha', 'POST', '/user/edit', { id: 1, corporateName: 'pwned' })).code).toBe(ErrorCode.NOT_FOUND);
      expect((await call('alpha', 'DELETE', '/user/delete?id=1')).code).toBe(ErrorCode.NOT_FOUND);
      expect((await call('alpha', 'POST', '/user/repassword', { id: 1, password: 'taken-over' })).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('a sub-user cannot create a user above or beside itself', async () => {
      const above = await call('alpha', 'POST', '/user/add', { username: 'x1', password: 'secret-pass', type: 1, roleId: ids.BATTERY, parentId: 1 });
      expect(above).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'parentId' } });
      const beside = await call('alpha', 'POST', '/user/add', { username: 'x2', password: 'secret-pass', type: 1, roleId: ids.BATTERY, parentId: ids.beta });
      expect(beside.code).toBe(ErrorCode.VALIDATION);
    });

    it('nobody hands out more permissions than it holds', async () => {
      const superRole = await call('alpha', 'POST', '/user/add', { username: 'x3', password: 'secret-pass', type: 1, roleId: ids.SUPER });
      expect(superRole.code).toBe(ErrorCode.FORBIDDEN);
      // A role holding menu:add, which ADMIN does not hold.
      const { id: strong } = await ok('admin', 'POST', '/role/add', { name: 'Strong', identification: 'STRONG' });
      const all = (await ok('admin', 'GET', '/permission/getlist?limit=200')).items as { id: number; identification: string }[];
      const menuAdd = all.find((p) => p.identification === 'menu:add')!.id;
      await ok('admin', 'POST', '/role/setpermission', { id: strong, permissionIds: [menuAdd] });
      const stronger = await call('alpha', 'POST', '/user/add', { username: 'x4', password: 'secret-pass', type: 1, roleId: strong });
      expect(stronger.code).not.toBe(20000);
      // Its own role cannot be edited, and its own roles cannot carry foreign permissions.
      expect((await call('alpha', 'POST', '/role/setpermission', { id: ids.ADMIN, permissionIds: [menuAdd] })).code).toBe(ErrorCode.FORBIDDEN);
      const { id: own } = await ok('alpha', 'POST', '/role/add', { name: 'Alpha role', identification: 'ALPHA_ROLE' });
      const grant = await call('alpha', 'POST', '/role/setpermission', { id: own, permissionIds: [menuAdd] });
      expect(grant.code).toBe(ErrorCode.FORBIDDEN);
      expect(grant.message).toContain('menu:add');
      // The options offered to alpha never include the stronger roles.
      const options = (await ok('alpha', 'GET', '/role/getoptionslist')) as { identification: string }[];
      expect(options.map((o) => o.identification)).not.toContain(SUPERADMIN);
      expect(options.map((o) => o.identification)).not.toContain('STRONG');
    });

    it('a stronger user in one’s subtree cannot be changed; the super administrator cannot delete itself', async () => {
      expect((await call('admin', 'DELETE', '/user/delete?id=1')).code).toBe(ErrorCode.FORBIDDEN);
      const { id: root3 } = await ok('admin', 'POST', '/user/add', { username: 'root3', password: 'secret-pass', type: 0, roleId: ids.SUPER, parentId: ids.alpha });
      expect((await call('alpha', 'POST', '/user/repassword', { id: root3, password: 'taken-over' })).code).toBe(ErrorCode.FORBIDDEN);
      expect((await call('alpha', 'POST', '/user/edit', { id: root3, enabled: false })).code).toBe(ErrorCode.FORBIDDEN);
      expect((await call('alpha', 'DELETE', `/user/delete?id=${root3}`)).code).toBe(ErrorCode.FORBIDDEN);
      // Another super administrator may demote the first; the remaining one cannot demote itself.
      tok.root3 = await t.login('root3', 'secret-pass');
      await ok('root3', 'POST', '/user/edit', { id: 1, roleId: ids.ADMIN });
      expect((await call('root3', 'POST', '/user/edit', { id: root3, roleId: ids.ADMIN })).code).toBe(ErrorCode.FORBIDDEN);
      await ok('root3', 'POST', '/user/edit', { id: 1, roleId: ids.SUPER });
      tok.admin = await t.login();
      await ok('admin', 'DELETE', `/user/delete?id=${root3}`);
    });

    it('built-in roles cannot be deleted and the console’s own permission codes stay', async () => {
      expect((await call('admin', 'DELETE', `/role/delete?id=${ids.BATTERY}`)).code).toBe(ErrorCode.FORBIDDEN);
      const all = (await ok('admin', 'GET', '/permission/getlist?limit=200')).items as { id: number; identification: string }[];
      const roleList = all.find((p) => p.identification === 'role:list')!.id;
      expect((await call('admin', 'DELETE', `/permission/delete?id=${roleList}`)).code).toBe(ErrorCode.FORBIDDEN);
    });
  });

  describe('hierarchy and scoping', () => {
    it('lists only the caller’s subtree, with filters and paging', async () => {
      // A subtree of its own: the users other tests add under alpha are not in it.
      const { id: scope } = await ok('admin', 'POST', '/user/add', { username: 'scope', password: 'secret-pass', type: 1, roleId: ids.ADMIN });
      tok.scope = await t.login('scope', 'secret-pass');
      await ok('scope', 'POST', '/user/add', { username: 'scope-sub', password: 'secret-pass', type: 1, roleId: ids.BATTERY });
      const scopeList = await ok('scope', 'GET', '/user/list?kind=agent');
      expect(scopeList.items.map((u: { username: string }) => u.username)).toEqual(['scope-sub']);
      const page = (order: string) => ok('admin', 'GET', `/user/list?kind=user&username=scope&limit=1&sort=username&order=${order}`);
      const first = await page('asc');
      expect(first.total).toBe(2);
      expect(first.items.map((u: { username: string }) => u.username)).toEqual(['scope']);
      expect((await page('desc')).items.map((u: { username: string }) => u.username)).toEqual(['scope-sub']);
      const filtered = await ok('admin', 'GET', '/user/list?kind=user&username=e-sub');
      expect(filtered.items.map((u: { username: string }) => u.username)).toEqual(['scope-sub']);
      expect(filtered.items[0]).toMatchObject({ parentId: scope, parentName: 'scope', roleIdentification: 'BATTERYMANAGEMENT', locked: false });
    });

    it('moving a user moves its whole subtree', async () => {
      const { id: leaf } = await ok('alpha', 'POST', '/user/add', { username: 'leaf', password: 'secret-pass', type: 1, roleId: ids.BATTERY, parentId: ids.alphaSub });
      expect((await call('alpha', 'POST', '/user/edit', { id: ids.alphaSub, parentId: leaf })).code).toBe(ErrorCode.VALIDATION);
      await ok('admin', 'POST', '/user/edit', { id: ids.alphaSub, parentId: ids.beta });
      expect((await call('alpha', 'GET', `/user/item?id=${leaf}`)).code).toBe(ErrorCode.NOT_FOUND);
      expect((await ok('beta', 'GET', `/user/item?id=${leaf}`)).username).toBe('leaf');
      // A user with sub-users cannot be deleted.
      expect((await call('admin', 'DELETE', `/user/delete?id=${ids.alphaSub}`)).code).toBe(ErrorCode.CONFLICT);
      await ok('admin', 'POST', '/user/edit', { id: ids.alphaSub, parentId: ids.alpha });
      expect((await ok('alpha', 'GET', `/user/item?id=${leaf}`)).username).toBe('leaf');
    });

    it('a user who still owns a project is not deleted: a named conflict, not a server error', async () => {
      const { id: owner } = await ok('admin', 'POST', '/user/add', { username: 'projowner', password: 'secret-pass', type: 1, roleId: ids.BATTERY });
      const { id: project } = await ok('admin', 'POST', '/project/addproject', { name: 'Owned elsewhere', ownerId: owner });
      const refused = await call('admin', 'DELETE', `/user/delete?id=${owner}`);
      expect(refused).toMatchObject({ code: ErrorCode.CONFLICT, data: { reason: 'userOwnsRecords' } });
      expect((await ok('admin', 'GET', `/user/item?id=${owner}`)).username).toBe('projowner');
      await ok('admin', 'DELETE', `/project/deleteproject?id=${project}`);
      await ok('admin', 'DELETE', `/user/delete?id=${owner}`);
    });

    it('a duplicate username is a conflict naming the field', async () => {
      const r = await call('admin', 'POST', '/user/add', { username: 'alpha', password: 'secret-pass', type: 1, roleId: ids.BATTERY });
      expect(r).toMatchObject({ code: ErrorCode.CONFLICT, data: { field: 'username' } });
    });
  });

  describe('emails', () => {
    it('up to 3 per user; the 4th and duplicates are refused with a clear message', async () => {
      for (const e of ['a@example.com', 'B@Example.com', 'c@example.com']) {
        await ok('alpha', 'POST', '/user/addemail', { userId: ids.alphaSub, email: e });
      }
      const list = await ok('alpha', 'GET', `/user/emaillist?id=${ids.alphaSub}`);
      expect(list.map((e: { email: string }) => e.email)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
      const fourth = await call('alpha', 'POST', '/user/addemail', { userId: ids.alphaSub, email: 'd@example.com' });
      expect(fourth).toMatchObject({
        code: ErrorCode.CONFLICT,
        message: 'A user can have at most 3 emails',
        data: { field: 'email', reason: 'emailLimit', params: { max: 3 } },
      });
      await ok('alpha', 'DELETE', `/user/deleteemail?id=${list[0].id}`);
      const dup = await call('alpha', 'POST', '/user/addemail', { userId: ids.alphaSub, email: 'b@example.com' });
      expect(dup.code).toBe(ErrorCode.CONFLICT);
      const bad = await call('alpha', 'POST', '/user/addemail', { userId: ids.alphaSub, email: 'not-an-email' });
      expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'email' } });
    });

    it('a user manages its own emails without user-management permission', async () => {
      // A user of its own: alpha-sub's three emails belong to the test above.
      const { id } = await ok('alpha', 'POST', '/user/add', { username: 'own-mail', password: 'secret-pass', type: 1, roleId: ids.BATTERY });
      tok.ownMail = await t.login('own-mail', 'secret-pass');
      await ok('ownMail', 'POST', '/user/addemail', { userId: id, email: 'own@example.com' });
      expect((await ok('ownMail', 'GET', `/user/emaillist?id=${id}`)).map((e: { email: string }) => e.email)).toEqual(['own@example.com']);
      expect((await call('ownMail', 'GET', `/user/emaillist?id=${ids.alpha}`)).code).toBe(ErrorCode.NOT_FOUND);
    });
  });

  describe('changes that end sessions', () => {
    it('disabling, changing the role or resetting the password ends the user’s sessions (50012)', async () => {
      const make = async (name: string) => {
        const { id } = await ok('alpha', 'POST', '/user/add', { username: name, password: 'secret-pass', type: 1, roleId: ids.BATTERY });
        return { id, token: await t.login(name, 'secret-pass') };
      };
      const info = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(token) }).then((r) => r.json().code);

      const d = await make('to-disable');
      await ok('alpha', 'POST', '/user/edit', { id: d.id, enabled: false });
      expect(await info(d.token)).toBe(ErrorCode.TOKEN_REVOKED);
      await expect(t.login('to-disable', 'secret-pass')).rejects.toThrow(/60204/);

      const { id: custom } = await ok('alpha', 'POST', '/role/add', { name: 'Viewer', identification: 'ALPHA_VIEWER' });
      const r = await make('to-rerole');
      await ok('alpha', 'POST', '/user/edit', { id: r.id, roleId: custom });
      expect(await info(r.token)).toBe(ErrorCode.TOKEN_REVOKED);

      const p = await make('to-reset');
      await ok('alpha', 'POST', '/user/repassword', { id: p.id, password: 'fresh-pass' });
      expect(await info(p.token)).toBe(ErrorCode.TOKEN_REVOKED);
      expect(await t.login('to-reset', 'fresh-pass')).toBeTruthy();
    });

    it('role permission changes rebuild the menus of its users at their next request', async () => {
      const { id: role } = await ok('alpha', 'POST', '/role/add', { name: 'Narrow', identification: 'ALPHA_NARROW' });
      const { id } = await ok('alpha', 'POST', '/user/add', { username: 'narrow', password: 'secret-pass', type: 1, roleId: role });
      tok.narrow = await t.login('narrow', 'secret-pass');
      const flatten = (n: MenuNode[]): string[] => n.flatMap((m) => [m.identification, ...flatten(m.children)]);
      expect(flatten(await ok('narrow', 'GET', '/user/menutestlist'))).toEqual([]);
      const view = await ok('alpha', 'GET', `/role/getpermission?id=${role}`);
      const findCode = (nodes: any[], code: string): number | undefined => {
        for (const n of nodes) {
          if (n.identification === code) return n.permissionId;
          const inner = findCode(n.children, code);
          if (inner) return inner;
        }
        return undefined;
      };
      const roleListId = findCode(view.tree, 'role:list')!;
      expect(findCode(view.tree, 'menu:add')).toBeUndefined(); // alpha cannot grant what it lacks
      // The route guard reads the role's codes with the session: refused before, allowed right after.
      expect((await call('narrow', 'GET', '/role/getlist')).code).toBe(40300);
      await ok('alpha', 'POST', '/role/setpermission', { id: role, permissionIds: [roleListId] });
      expect((await call('narrow', 'GET', '/role/getlist')).code).toBe(20000);
      expect(flatten(await ok('narrow', 'GET', '/user/menutestlist'))).toEqual(['sys', 'sys-role']);
      expect((await ok('narrow', 'GET', '/user/info')).permissions).toEqual(['role:list']);
      void id;
    });
  });

  describe('menus and permissions management', () => {
    it('refuses deleting a menu with children or permissions, and cycles', async () => {
      const tree = (await ok('admin', 'GET', '/menu/menutestlist')) as MenuNode[];
      const sys = tree.find((m) => m.identification === 'sys')!;
      const sysRole = sys.children.find((m) => m.identification === 'sys-role')!;
      expect((await call('admin', 'DELETE', `/menu/deletemenutest?id=${sys.id}`)).message).toContain('sub-menus');
      expect((await call('admin', 'DELETE', `/menu/deletemenutest?id=${sysRole.id}`)).message).toContain('permissions');
      const { id: child } = await ok('admin', 'POST', '/menu/addmenutest', { parentId: sysRole.id, name: '子菜单', jumpType: 1, menuUrl: 'child', identification: 'child-menu' });
      const cycle = await call('admin', 'POST', '/menu/editmenutest', { id: sysRole.id, parentId: child, name: 'x', jumpType: 1, menuUrl: 'role', identification: 'sys-role' });
      expect(cycle).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'parentId' } });
      await ok('admin', 'DELETE', `/menu/deletemenutest?id=${child}`);
    });

    it('a new menu and permission appear in the trees of roles granted it', async () => {
      const { id: menu } = await ok('admin', 'POST', '/menu/addmenutest', { name: '报表', nameEn: 'Reports', jumpType: 1, menuUrl: '/reports', menuType: 1, identification: 'reports', sort: 95 });
      const { id: page } = await ok('admin', 'POST', '/menu/addmenutest', { parentId: menu, name: '日报', nameEn: 'Daily', jumpType: 1, menuUrl: 'daily', identification: 'reports-daily' });
      const { id: perm } = await ok('admin', 'POST', '/permission/add', { name: 'Daily report', identification: 'report:daily', menuId: page });
      const { id: role } = await ok('admin', 'POST', '/role/add', { name: 'Reporter', identification: 'REPORTER' });
      await ok('admin', 'POST', '/role/setpermission', { id: role, permissionIds: [perm] });
      await ok('admin', 'POST', '/user/add', { username: 'reporter', password: 'secret-pass', type: 0, roleId: role });
      tok.reporter = await t.login('reporter', 'secret-pass');
      const tree = (await ok('reporter', 'GET', '/user/menutestlist')) as MenuNode[];
      expect(tree.map((m) => m.nameEn)).toEqual(['Reports']);
      expect(tree[0]!.children.map((m) => m.menuUrl)).toEqual(['daily']);
      expect((await ok('reporter', 'GET', `/user/menulist?parent_id=${menu}`)).map((m: MenuNode) => m.identification)).toEqual(['reports-daily']);
    });
  });

  describe('operation log', () => {
    it('records changes with who, what and where, never secrets; failures too', async () => {
      const { id } = await ok('alpha', 'POST', '/user/add', { username: 'logged', password: 'very-secret', type: 1, roleId: ids.BATTERY, corporateName: 'Logged Ltd' });
      await call('alpha', 'DELETE', '/user/delete?id=1');
      const logs = (await ok('alpha', 'GET', '/logs/list?limit=50')).items as any[];
      const add = logs.find((l) => l.action === 'user.add' && l.entityId === String(id))!;
      expect(add).toMatchObject({ username: 'alpha', role: 'ADMIN', entity: 'user', result: 'success', ip: '127.0.0.1' });
      expect(add.summary).toContain('Logged Ltd');
      expect(add.summary).not.toContain('very-secret');
      const refused = logs.find((l) => l.action === 'user.delete' && l.result === 'failure');
      expect(refused.entityId).toBe('1');
      expect(refused.summary).toContain(String(ErrorCode.NOT_FOUND));
    });

    it('names the object, its role and its references, so a reader needs no ids', async () => {
      const { id } = await ok('alpha', 'POST', '/user/add', {
        username: 'named', password: 'very-secret', type: 1, roleId: ids.BATTERY, corporateName: 'Named Ltd', contactNumber: '555 0100',
      });
      await ok('admin', 'POST', '/user/edit', { id, roleId: ids.ADMIN, contactNumber: '555 0199' });
      await ok('admin', 'POST', '/role/add', { name: 'Night shift', identification: 'NIGHT' });
      await ok('admin', 'POST', '/user/preferences', { language: 'es' });
      const taken = await call('admin', 'POST', '/role/add', { name: 'Night shift again', identification: 'NIGHT' });
      expect(taken.code).toBe(ErrorCode.CONFLICT);
      const logs = (await ok('admin', 'GET', '/logs/list?limit=20')).items as any[];
      const row = (action: string, result = 'success') => logs.find((l) => l.action === action && l.result === result)!;

      const add = row('user.add');
      expect(add).toMatchObject({ entityId: String(id), entityName: 'named', role: 'ADMIN', roleName: 'Administrators' });
      expect(JSON.parse(add.summary)).toMatchObject({ role: 'Battery management', parent: 'alpha', contactNumber: '555 0100' });
      expect(add.summary).not.toContain('roleId');
      const edit = row('user.edit');
      expect(edit).toMatchObject({ entityName: 'named', role: 'SUPERADMIN', roleName: 'Super administrator' });
      expect(JSON.parse(edit.summary)).toEqual({ role: 'Administrators', contactNumber: '555 0199' });
      expect(row('role.add')).toMatchObject({ entityName: 'Night shift', summary: JSON.stringify({ identification: 'NIGHT' }) });
      expect(row('user.preferences')).toMatchObject({ entityName: 'admin', summary: JSON.stringify({ language: 'es' }) });
      // A refusal keeps its reason (the console translates it) and the name the request gave.
      const refused = row('role.add', 'failure');
      expect(refused.entityName).toBe('Night shift again');
      expect(JSON.parse(refused.summary)).toMatchObject({ code: ErrorCode.CONFLICT, reason: 'identificationTaken', field: 'identification' });
    });

    it('filters by action, user and time, scoped to the caller’s subtree', async () => {
      await ok('admin', 'POST', '/role/add', { name: 'Filtered', identification: 'FILTERED' });
      const mine = (await ok('alpha', 'GET', '/logs/list?limit=200')).items as any[];
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.filter((l) => ['admin', 'beta'].includes(l.username))).toEqual([]);
      const all = (await ok('admin', 'GET', '/logs/list?action=role.&limit=200')).items as any[];
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((l) => l.action.startsWith('role.'))).toBe(true);
      const future = encodeURIComponent(new Date(Date.now() + 3600_000).toISOString());
      expect((await ok('admin', 'GET', `/logs/list?from=${future}`)).total).toBe(0);
      const bad = await call('admin', 'GET', '/logs/list?from=yesterday');
      expect(bad).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'from' } });
    });

    it('login logs are scoped too', async () => {
      const alphaView = (await ok('alpha', 'GET', '/logs/loginlist?limit=200')).items as any[];
      expect(alphaView.some((l) => l.username === 'admin')).toBe(false);
      expect(alphaView.some((l) => l.username === 'alpha-sub')).toBe(true);
      const adminView = await ok('admin', 'GET', '/logs/loginlist?result=success&username=admin');
      expect(adminView.items.every((l: any) => l.result === 'success')).toBe(true);
    });
  });
});
