import {
  MAX_EMAILS,
  SUPERADMIN,
  type DashboardStyle,
  type Language,
  type UserDto,
  type UserKind,
} from '@iot/contract';
import type { z } from 'zod';
import type {
  userCreateSchema,
  userEditSchema,
  userListQuerySchema,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../lib/events.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../db/password.js';
import { inScope, isSuper, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext, AuthService } from '../auth/auth.service.js';
import type { PermissionService } from '../permission/permission.service.js';
import type { RoleService } from '../role/role.service.js';
import * as repo from './admin.repo.js';

type ListQuery = z.output<typeof userListQuerySchema>;
type CreateBody = z.output<typeof userCreateSchema>;
type EditBody = z.output<typeof userEditSchema>;

const LIST_CODE: Record<UserKind, string> = { admin: 'admin:list', user: 'user:list', agent: 'agent:list' };

/**
 * Users with sub-users. A caller other than the super administrator manages only itself and its
 * descendants; anything else answers "not found" so ids cannot be probed. Nobody hands out more
 * permissions than it holds.
 */
export class UserAdminService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly permissions: PermissionService,
    private readonly roles: RoleService,
    /** A moved user changes what its new and old lines see (the live channel re-checks). */
    private readonly bus?: EventBus,
  ) {}

  async list(ctx: AuthContext, q: ListQuery) {
    if (!(await this.permissions.has(ctx, LIST_CODE[q.kind]))) {
      throw forbidden('missingPermission', { codes: LIST_CODE[q.kind] });
    }
    const res = await repo.listUsers(this.db, { ...q, scopePath: scopeOf(ctx), callerId: ctx.userId });
    return { total: res.total, exact: res.exact, items: res.items.map(toDto) };
  }

  /**
   * The navbar search: users of the caller's subtree whose username contains `q`, of the kinds
   * the caller may list (the agent screen lists every kind but the caller itself); null when it
   * may list none.
   */
  async findByName(ctx: AuthContext, q: string, limit: number) {
    const [agents, admins, companies] = await Promise.all(
      (['agent', 'admin', 'user'] as const).map((kind) => this.permissions.has(ctx, LIST_CODE[kind])),
    );
    if (!agents && !admins && !companies) return null;
    const types = agents ? undefined : [...(admins ? [0] : []), ...(companies ? [1] : [])];
    return repo.findUsersByName(this.db, { scopePath: scopeOf(ctx), callerId: ctx.userId, types, q, limit });
  }

  /** The user if it lies in the caller's subtree, else "not found". */
  private async visible(ctx: AuthContext, id: number) {
    const u = await this.find(ctx, id);
    if (!u) throw notFound('userNotFound');
    return u;
  }

  /** The user if it lies in the caller's subtree (the caller included). */
  async find(ctx: AuthContext, id: number) {
    const u = await repo.findUser(this.db, id);
    return u && inScope(ctx, u.path) ? u : undefined;
  }

  /**
   * A user the caller may change: in its subtree, and holding no permission the caller lacks
   * (resetting a stronger user's password would be an escalation).
   */
  private async manageable(ctx: AuthContext, id: number) {
    const u = await this.visible(ctx, id);
    if (u.id === ctx.userId || isSuper(ctx)) return u;
    const mine = new Set(await this.permissions.codesFor(ctx));
    const theirs =
      u.roleIdentification === SUPERADMIN
        ? ['*']
        : await this.permissions.codesOfRole(u.roleId);
    if (theirs.some((c) => !mine.has(c))) {
      throw forbidden('userStronger');
    }
    return u;
  }

  async item(ctx: AuthContext, id: number): Promise<UserDto> {
    const u = await this.visible(ctx, id);
    return toDto(u);
  }

  options(ctx: AuthContext, q: string, limit: number) {
    return repo.userOptions(this.db, scopeOf(ctx), q, limit);
  }

  /** A role the caller may give: visible to it, and no permission beyond its own. */
  private async assertAssignable(ctx: AuthContext, roleId: number) {
    const role = await this.roles.find(ctx, roleId);
    if (!role) throw invalid('roleId', 'noRole');
    if (isSuper(ctx)) return role;
    if (role.identification === SUPERADMIN) throw forbidden('superRoleOnly');
    const mine = new Set(await this.permissions.codesFor(ctx));
    const theirs = await this.permissions.codesOfRole(roleId);
    const extra = theirs.filter((c) => !mine.has(c));
    if (extra.length > 0) throw forbidden('roleBeyondOwn', { codes: extra.join(', ') });
    return role;
  }

  async create(actor: Actor, body: CreateBody) {
    const parentId = body.parentId ?? actor.userId;
    const parent = await repo.findUser(this.db, parentId);
    if (!parent || !inScope(actor, parent.path)) throw invalid('parentId', 'noParentUser');
    const role = await this.assertAssignable(actor, body.roleId);
    if (await repo.usernameTaken(this.db, body.username)) {
      throw conflict('usernameTaken', { field: 'username' });
    }
    const passwordHash = await hashPassword(body.password);
    return this.db.transaction(async (tx) => {
      const { password: _password, ...fields } = body;
      const id = await repo.insertUser(tx, { ...fields, parentId, passwordHash }, parent.path);
      const { username, roleId: _r, parentId: _p, ...rest } = fields;
      await audit(tx, actor, {
        entityId: id,
        name: username,
        summary: { ...rest, role: role.name, parent: parent.username },
      });
      return id;
    });
  }

  async edit(actor: Actor, body: EditBody) {
    const target = await this.manageable(actor, body.id);
    const self = target.id === actor.userId;
    const changesRole = body.roleId !== undefined && body.roleId !== target.roleId;
    const moves = body.parentId !== undefined && body.parentId !== target.parentId;
    const disables = body.enabled === false && target.enabled;
    if (self && (changesRole || moves || body.enabled === false || (body.type !== undefined && body.type !== target.type))) {
      throw forbidden('ownFixed');
    }
    const role = changesRole ? await this.assertAssignable(actor, body.roleId!) : undefined;
    let newPath: string | undefined;
    let parent: Awaited<ReturnType<typeof repo.findUser>>;
    if (moves) {
      parent = await repo.findUser(this.db, body.parentId!);
      if (!parent || !inScope(actor, parent.path)) throw invalid('parentId', 'noParentUser');
      if (parent.path.startsWith(target.path)) {
        throw invalid('parentId', 'userCycle');
      }
      newPath = `${parent.path}${target.id}/`;
    }
    if ((changesRole || disables) && target.roleIdentification === SUPERADMIN) {
      if ((await repo.countActiveSuperadmins(this.db)) <= 1) {
        throw forbidden('lastSuperKeep');
      }
    }
    const { id, ...set } = body;
    // The log names the new role and parent, and only when they change.
    const { roleId: _r, parentId: _p, ...rest } = set;
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, id, set);
      if (newPath) await repo.movePaths(tx, target.path, newPath);
      await audit(tx, actor, {
        entityId: id,
        name: target.username,
        summary: { ...rest, ...(role ? { role: role.name } : {}), ...(parent ? { parent: parent.username } : {}) },
      });
    });
    // Disabling a user disables everyone below it: their sessions end with its own.
    if (disables) await this.auth.endSubtreeSessions(newPath ?? target.path, 'disabled');
    else if (changesRole) await this.auth.endOtherSessions(id, 'admin');
    // Every path below the moved user changed: everyone connected is re-read (a rare change).
    if (newPath) this.bus?.emit('scope.changed', {});
  }

  async remove(actor: Actor, id: number) {
    const target = await this.manageable(actor, id);
    if (target.id === actor.userId) throw forbidden('deleteSelf');
    if ((await repo.countChildren(this.db, id)) > 0) {
      throw conflict('userHasChildren');
    }
    if (target.roleIdentification === SUPERADMIN && (await repo.countActiveSuperadmins(this.db)) <= 1) {
      throw forbidden('lastSuperDelete');
    }
    await this.auth.endOtherSessions(id, 'admin');
    try {
      await this.db.transaction(async (tx) => {
        await repo.deleteUser(tx, id);
        await audit(tx, actor, { entityId: id, name: target.username });
      });
    } catch (err) {
      // Rows that name the user as their owner (projects, stores…) keep it: the caller is told
      // what to do rather than answered 500 (a foreign key violation, nothing deleted).
      if (isForeignKeyViolation(err)) throw conflict('userOwnsRecords');
      throw err;
    }
  }

  async resetPassword(actor: Actor, id: number, password: string) {
    const target = await this.manageable(actor, id);
    if (target.id === actor.userId) throw forbidden('resetSelf');
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      await repo.updateUser(tx, id, { passwordHash });
      await repo.clearThrottle(tx, target.username);
      await audit(tx, actor, { entityId: id, name: target.username });
    });
    await this.auth.endOtherSessions(id, 'admin');
  }

  async unlock(actor: Actor, id: number) {
    const target = await this.manageable(actor, id);
    await this.db.transaction(async (tx) => {
      await repo.clearThrottle(tx, target.username);
      await audit(tx, actor, { entityId: id, name: target.username });
    });
  }

  /** Own emails need only a session; another user's need a user-management code of the verb. */
  private async emailAccess(ctx: AuthContext, userId: number, verb: 'list' | 'edit') {
    const user = await this.visible(ctx, userId);
    if (userId === ctx.userId) return user;
    if (!(await this.permissions.hasAny(ctx, [`admin:${verb}`, `user:${verb}`, `agent:${verb}`]))) {
      throw forbidden('foreignEmails');
    }
    return user;
  }

  async emails(ctx: AuthContext, userId: number) {
    await this.emailAccess(ctx, userId, 'list');
    return (await repo.listEmails(this.db, userId)).map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
  }

  async addEmail(actor: Actor, userId: number, email: string) {
    const user = await this.emailAccess(actor, userId, 'edit');
    return this.db.transaction(async (tx) => {
      await repo.lockUser(tx, userId);
      const existing = await repo.listEmails(tx, userId);
      if (existing.some((e) => e.email === email)) throw conflict('emailTaken', { field: 'email' });
      if (existing.length >= MAX_EMAILS) {
        throw conflict('emailLimit', { params: { max: MAX_EMAILS }, field: 'email' });
      }
      const id = await repo.insertEmail(tx, userId, email);
      await audit(tx, actor, { entityId: id, name: email, summary: { user: user.username } });
      return id;
    });
  }

  async deleteEmail(actor: Actor, id: number) {
    const row = await repo.findEmail(this.db, id);
    if (!row || !inScope(actor, row.path)) throw notFound('emailNotFound');
    const user = await this.emailAccess(actor, row.userId, 'edit');
    await this.db.transaction(async (tx) => {
      await repo.deleteEmail(tx, id);
      await audit(tx, actor, { entityId: id, name: row.email, summary: { user: user.username } });
    });
  }
}

function toDto(u: repo.UserRow): UserDto {
  return {
    id: u.id,
    username: u.username,
    type: u.type,
    roleId: u.roleId,
    roleName: u.roleName,
    roleIdentification: u.roleIdentification,
    parentId: u.parentId,
    parentName: u.parentName,
    corporateName: u.corporateName,
    corporateAddress: u.corporateAddress,
    contactNumber: u.contactNumber,
    dashboardStyle: u.dashboardStyle as DashboardStyle,
    language: u.language as Language,
    enabled: u.enabled,
    locked: u.locked,
    createdAt: u.createdAt.toISOString(),
  };
}
