import { SUPERADMIN, type MenuNode, type PermissionTreeNode, type RoleDto } from '@iot/contract';
import type { z } from 'zod';
import type { roleEditSchema, roleListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import { isSuper, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { MenuService } from '../menu/menu.service.js';
import type { PermissionService } from '../permission/permission.service.js';
import * as repo from './role.repo.js';

type ListQuery = z.output<typeof roleListQuerySchema>;
type RoleRow = NonNullable<Awaited<ReturnType<typeof repo.findRole>>>;

/**
 * Roles and their permission sets. Callers see built-in roles, their own role and roles created
 * in their subtree; they edit only roles created in their subtree (built-ins: the super
 * administrator), and never grant a permission they do not hold.
 */
export class RoleService {
  constructor(
    private readonly db: Db,
    private readonly permissionService: PermissionService,
    private readonly menus: MenuService,
    private readonly bus: EventBus,
  ) {}

  private editable(ctx: AuthContext, r: Pick<RoleRow, 'id' | 'builtin' | 'ownerPath'>) {
    if (isSuper(ctx)) return true;
    return !r.builtin && r.id !== ctx.roleId && r.ownerPath.startsWith(ctx.path);
  }

  async list(ctx: AuthContext, q: ListQuery): Promise<{ total: number; items: RoleDto[] }> {
    const res = await repo.listRoles(this.db, { ...q, scopePath: scopeOf(ctx), ownRoleId: ctx.roleId });
    return {
      total: res.total,
      items: res.items.map((r) => ({
        id: r.id,
        name: r.name,
        identification: r.identification,
        builtin: r.builtin,
        userCount: r.userCount ?? 0,
        editable: this.editable(ctx, r),
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }

  /** Roles the caller may give to users: visible, and within its own permissions. */
  async options(ctx: AuthContext) {
    const roles = await repo.visibleRoles(this.db, scopeOf(ctx), ctx.roleId);
    if (isSuper(ctx)) return roles;
    const mine = new Set(await this.permissionService.codesFor(ctx));
    const codes = await repo.codesOfRoles(this.db, roles.map((r) => r.id));
    return roles.filter(
      (r) => r.identification !== SUPERADMIN && (codes.get(r.id) ?? []).every((c) => mine.has(c)),
    );
  }

  /** The role if the caller sees it (built-in, its own, or created in its subtree). */
  async find(ctx: AuthContext, id: number) {
    const role = await repo.findRole(this.db, id);
    const ok = role && (await repo.visibleRoles(this.db, scopeOf(ctx), ctx.roleId)).some((r) => r.id === id);
    return ok ? role : undefined;
  }

  private async visible(ctx: AuthContext, id: number) {
    const role = await this.find(ctx, id);
    if (!role) throw notFound('roleNotFound');
    return role;
  }

  private async editableRole(ctx: AuthContext, id: number) {
    const role = await this.visible(ctx, id);
    if (!this.editable(ctx, role)) throw forbidden('roleNotEditable');
    return role;
  }

  async item(ctx: AuthContext, id: number) {
    const r = await this.visible(ctx, id);
    return {
      id: r.id,
      name: r.name,
      identification: r.identification,
      builtin: r.builtin,
      userCount: await repo.countRoleUsers(this.db, id),
      editable: this.editable(ctx, r),
      createdAt: r.createdAt.toISOString(),
    };
  }

  async create(actor: Actor, body: { name: string; identification: string }) {
    if (await repo.identificationTaken(this.db, body.identification)) {
      throw conflict('identificationTaken', { field: 'identification' });
    }
    return this.db.transaction(async (tx) => {
      const id = await repo.insertRole(tx, { ...body, ownerPath: actor.path });
      await audit(tx, actor, { entityId: id, name: body.name, summary: { identification: body.identification } });
      return id;
    });
  }

  /** Changes only the fields sent; a built-in role keeps its identification. */
  async edit(actor: Actor, body: z.output<typeof roleEditSchema>) {
    const role = await this.editableRole(actor, body.id);
    if (body.identification !== undefined) {
      if (role.builtin && body.identification !== role.identification) {
        throw forbidden('builtinRoleRename');
      }
      if (await repo.identificationTaken(this.db, body.identification, body.id)) {
        throw conflict('identificationTaken', { field: 'identification' });
      }
    }
    const { id, ...set } = body;
    await this.db.transaction(async (tx) => {
      await repo.updateRole(tx, id, set);
      await audit(tx, actor, { entityId: id, name: role.name, summary: set });
    });
  }

  async remove(actor: Actor, id: number) {
    const role = await this.editableRole(actor, id);
    if (role.builtin) throw forbidden('builtinRoleDelete');
    if ((await repo.countRoleUsers(this.db, id)) > 0) {
      throw conflict('roleInUse');
    }
    await this.db.transaction(async (tx) => {
      await repo.deleteRole(tx, id);
      await audit(tx, actor, { entityId: id, name: role.name, summary: { identification: role.identification } });
    });
  }

  /** What the role holds, and the menu → permission tree of what the caller may grant. */
  async permissions(ctx: AuthContext, id: number) {
    await this.visible(ctx, id);
    const held = await repo.rolePermissionRows(this.db, id);
    return { permissionIds: held.map((p) => p.id), tree: await this.grantTree(ctx) };
  }

  async setPermissions(actor: Actor, id: number, permissionIds: number[]) {
    const role = await this.editableRole(actor, id);
    if (role.identification === SUPERADMIN) {
      throw forbidden('superPermissions');
    }
    const unique = [...new Set(permissionIds)];
    const found = await this.permissionService.byIds(unique);
    if (found.length !== unique.length) throw notFound('permissionNotFound');
    if (!isSuper(actor)) {
      const mine = new Set(await this.permissionService.codesFor(actor));
      const extra = found.filter((p) => !mine.has(p.identification)).map((p) => p.identification);
      if (extra.length > 0) throw forbidden('grantBeyondOwn', { codes: extra.join(', ') });
    }
    await this.db.transaction(async (tx) => {
      await repo.replaceRolePermissions(tx, id, unique);
      await audit(tx, actor, {
        entityId: id,
        name: role.name,
        summary: { permissions: found.map((p) => p.identification).sort() },
      });
    });
    this.bus.emit('menus.changed', { userIds: await repo.roleUserIds(this.db, id) });
  }

  private async grantTree(ctx: AuthContext): Promise<PermissionTreeNode[]> {
    const mine = isSuper(ctx) ? undefined : new Set(await this.permissionService.codesFor(ctx));
    const perms = (await this.permissionService.all()).filter((p) => !mine || mine.has(p.identification));
    const byMenu = new Map<number, typeof perms>();
    for (const p of perms) byMenu.set(p.menuId, [...(byMenu.get(p.menuId) ?? []), p]);
    const toNode = (m: MenuNode): PermissionTreeNode | undefined => {
      const children = [
        ...m.children.map(toNode).filter((n): n is PermissionTreeNode => Boolean(n)),
        ...(byMenu.get(m.id) ?? []).map((p) => ({
          key: `p${p.id}`,
          title: p.name,
          titleEn: p.name,
          titleEs: p.name,
          titleJa: p.name,
          permissionId: p.id,
          identification: p.identification,
          children: [],
        })),
      ];
      if (children.length === 0) return undefined;
      return { key: `m${m.id}`, title: m.name, titleEn: m.nameEn, titleEs: m.nameEs, titleJa: m.nameJa, children };
    };
    return (await this.menus.tree())
      .map(toNode)
      .filter((n): n is PermissionTreeNode => Boolean(n));
  }
}
