import { PERMISSIONS, type PermissionDto } from '@iot/contract';
import type { z } from 'zod';
import type { permissionCreateSchema, permissionEditSchema, permissionListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import { audit, type Actor } from '../../plugins/audit.js';
import { findMenu } from '../menu/menu.repo.js';
import * as repo from './permission.repo.js';

type ListQuery = z.output<typeof permissionListQuerySchema>;
type Row = NonNullable<Awaited<ReturnType<typeof repo.findPermission>>>;

/** Codes the console's own routes declare: renaming or deleting them would break those routes. */
const isBuiltin = (code: string) => Object.hasOwn(PERMISSIONS, code);

const toDto = (r: Row): PermissionDto => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Permission definitions (the codes routes declare), each owned by a menu. */
export class PermissionService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
  ) {}

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
    if (body.menuId !== undefined && !(await findMenu(this.db, body.menuId))) throw invalid('menuId', 'noMenu');
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
