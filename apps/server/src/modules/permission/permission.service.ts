import { PERMISSIONS, type PermissionDto } from '@iot/contract';
import type { z } from 'zod';
import type { permissionCreateSchema, permissionEditSchema, permissionListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import { holdsAny } from '../../lib/can.js';
import { isSuper } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { MenuService } from '../menu/menu.service.js';
import * as repo from './permission.repo.js';

type ListQuery = z.output<typeof permissionListQuerySchema>;
type Row = NonNullable<Awaited<ReturnType<typeof repo.findPermission>>>;

/** Codes the console's own routes declare: renaming or deleting them would break those routes. */
const isBuiltin = (code: string) => Object.hasOwn(PERMISSIONS, code);

const toDto = (r: Row): PermissionDto => ({ ...r, createdAt: r.createdAt.toISOString() });

type Caller = Pick<AuthContext, 'role' | 'roleId' | 'codes'>;

/**
 * Permission definitions (the codes routes declare), each owned by a menu, and the one place that
 * answers whether a caller holds a code.
 */
export class PermissionService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly menus: MenuService,
  ) {}

  /** Permission codes the caller holds; the super administrator holds every code. */
  codesFor(auth: Caller): Promise<string[]> {
    return isSuper(auth) ? repo.allCodes(this.db) : repo.roleCodes(this.db, auth.roleId);
  }

  /** Whether the caller holds a permission code. */
  has(auth: Caller, code: string): Promise<boolean> {
    return this.hasAny(auth, [code]);
  }

  /** Whether the caller holds at least one of the codes. */
  async hasAny(auth: Caller, codes: readonly string[]): Promise<boolean> {
    const held = isSuper(auth) ? [] : (auth.codes ?? (await repo.roleCodes(this.db, auth.roleId)));
    return holdsAny(auth, held, codes);
  }

  /** The codes a role is granted (none implied: the super administrator's role holds them all). */
  codesOfRole(roleId: number): Promise<string[]> {
    return repo.roleCodes(this.db, roleId);
  }

  /** Every permission, ordered by id. */
  all() {
    return repo.allPermissions(this.db);
  }

  /** The permissions of these ids that exist. */
  byIds(ids: number[]) {
    return repo.permissionsByIds(this.db, ids);
  }

  /** How many permissions a menu owns. */
  countOfMenu(menuId: number): Promise<number> {
    return repo.countMenuPermissions(this.db, menuId);
  }

  async list(q: ListQuery) {
    const res = await repo.listPermissions(this.db, q);
    return { total: res.total, items: res.items.map(toDto) };
  }

  async item(id: number) {
    const row = await repo.findPermission(this.db, id);
    if (!row) throw notFound('permissionNotFound');
    return toDto(row);
  }

  /** The menu given must exist and the identification given must be free. */
  private async check(body: { identification?: string; menuId?: number }, id?: number) {
    if (body.menuId !== undefined && !(await this.menus.exists(body.menuId))) throw invalid('menuId', 'noMenu');
    if (body.identification !== undefined && (await repo.identificationTaken(this.db, body.identification, id))) {
      throw conflict('identificationTaken', { field: 'identification' });
    }
  }

  async create(actor: Actor, body: z.output<typeof permissionCreateSchema>) {
    await this.check(body);
    return this.db.transaction(async (tx) => {
      const id = await repo.insertPermission(tx, body);
      await audit(tx, actor, { entityId: id, name: body.name, summary: body });
      return id;
    });
  }

  /** Changes only the fields sent; codes the console's routes declare are not renamed. */
  async edit(actor: Actor, body: z.output<typeof permissionEditSchema>) {
    const row = await this.item(body.id);
    if (isBuiltin(row.identification) && body.identification !== undefined && body.identification !== row.identification) {
      throw forbidden('consoleCodeRename');
    }
    await this.check(body, body.id);
    const { id, ...set } = body;
    await this.db.transaction(async (tx) => {
      await repo.updatePermission(tx, id, set);
      await audit(tx, actor, { entityId: id, name: row.name, summary: set });
    });
    this.bus.emit('menus.changed', {});
  }

  async remove(actor: Actor, id: number) {
    const row = await this.item(id);
    if (isBuiltin(row.identification)) {
      throw forbidden('consoleCodeDelete');
    }
    await this.db.transaction(async (tx) => {
      await repo.deletePermission(tx, id);
      await audit(tx, actor, { entityId: id, name: row.name, summary: { identification: row.identification } });
    });
    this.bus.emit('menus.changed', {});
  }
}
