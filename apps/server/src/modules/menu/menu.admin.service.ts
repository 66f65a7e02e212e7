import { ErrorCode, menuUrlProblem, type MenuNode, type MenuOption } from '@iot/contract';
import type { z } from 'zod';
import type { menuCreateSchema, menuEditSchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { PermissionService } from '../permission/permission.service.js';
import * as repo from './menu.repo.js';
import type { MenuService } from './menu.service.js';

type CreateBody = z.output<typeof menuCreateSchema>;
type EditBody = z.output<typeof menuEditSchema>;

/** Menu management (the platform's structure: SUPERADMIN by default). */
export class MenuAdminService {
  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly menus: MenuService,
    private readonly permissions: PermissionService,
  ) {}

  tree(): Promise<MenuNode[]> {
    return this.menus.tree();
  }

  async options(): Promise<MenuOption[]> {
    const strip = (n: MenuNode): MenuOption => ({
      id: n.id,
      name: n.name,
      nameEn: n.nameEn,
      nameEs: n.nameEs,
      nameJa: n.nameJa,
      children: n.children.map(strip),
    });
    return (await this.tree()).map(strip);
  }

  private async assertParent(parentId: number, selfId?: number) {
    if (parentId === 0) return;
    const rows = await repo.allMenus(this.db);
    const byId = new Map(rows.map((r) => [r.id, r]));
    if (!byId.has(parentId)) throw invalid('parentId', 'noParentMenu');
    // Walk up from the new parent: meeting the menu itself would make a cycle.
    for (let cur = byId.get(parentId); cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
      if (cur.id === selfId) throw invalid('parentId', 'menuCycle');
    }
  }

  async create(actor: Actor, body: CreateBody) {
    await this.assertParent(body.parentId);
    if (await repo.menuIdentificationTaken(this.db, body.identification)) {
      throw conflict('identificationTaken', { field: 'identification' });
    }
    const id = await this.db.transaction(async (tx) => {
      const id = await repo.insertMenu(tx, body);
      await audit(tx, actor, { entityId: id, name: body.name, summary: body });
      return id;
    });
    this.bus.emit('menus.changed', {});
    return id;
  }

  /** Changes only the fields sent; a new parent must exist and not lie below the menu itself. */
  async edit(actor: Actor, body: EditBody) {
    const menu = await repo.findMenu(this.db, body.id);
    if (!menu) throw notFound('menuNotFound');
    if (body.parentId !== undefined) await this.assertParent(body.parentId, body.id);
    // An edit sending only the URL or only the jump type is held to the rule with the stored other.
    if ((body.jumpType === undefined) !== (body.menuUrl === undefined)) {
      const problem = menuUrlProblem(body.jumpType ?? menu.jumpType, body.menuUrl ?? menu.menuUrl);
      if (problem) throw new AppError(ErrorCode.VALIDATION, `menuUrl: ${problem}`, { field: 'menuUrl' });
    }
    if (
      body.identification !== undefined &&
      (await repo.menuIdentificationTaken(this.db, body.identification, body.id))
    ) {
      throw conflict('identificationTaken', { field: 'identification' });
    }
    const { id, ...set } = body;
    await this.db.transaction(async (tx) => {
      await repo.updateMenu(tx, id, set);
      await audit(tx, actor, { entityId: id, name: menu.name, summary: set });
    });
    this.bus.emit('menus.changed', {});
  }

  async remove(actor: Actor, id: number) {
    const menu = await repo.findMenu(this.db, id);
    if (!menu) throw notFound('menuNotFound');
    if ((await repo.countMenuChildren(this.db, id)) > 0) {
      throw conflict('menuHasChildren');
    }
    if ((await this.permissions.countOfMenu(id)) > 0) {
      throw conflict('menuHasPermissions');
    }
    await this.db.transaction(async (tx) => {
      await repo.deleteMenu(tx, id);
      await audit(tx, actor, { entityId: id, name: menu.name, summary: { identification: menu.identification } });
    });
    this.bus.emit('menus.changed', {});
  }
}
