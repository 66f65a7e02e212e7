import { asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { menus, permissions, rolePermissions } from '../../db/schema/index.js';
import { sentValues } from '../../lib/sql.js';

export async function allMenus(db: Executor) {
  return db.select().from(menus).orderBy(asc(menus.sort), asc(menus.id));
}

/** Menu ids that carry at least one permission the role holds. */
export async function menusWithRolePermission(db: Executor, roleId: number): Promise<Set<number>> {
  const rows = await db
    .selectDistinct({ menuId: permissions.menuId })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId));
  return new Set(rows.map((r) => r.menuId));
}

export async function findMenu(db: Executor, id: number) {
  const [row] = await db.select().from(menus).where(eq(menus.id, id));
  return row;
}

export async function menuIdentificationTaken(db: Executor, identification: string, exceptId?: number) {
  const [row] = await db.select({ id: menus.id }).from(menus).where(eq(menus.identification, identification));
  return Boolean(row && row.id !== exceptId);
}

export type MenuValues = Omit<typeof menus.$inferInsert, 'id' | 'createdAt'>;

export async function insertMenu(db: Executor, values: MenuValues) {
  const [row] = await db.insert(menus).values(values).returning({ id: menus.id });
  return row!.id;
}

/** Sets the fields given a value; the others keep theirs. */
export async function updateMenu(db: Executor, id: number, set: Partial<MenuValues>) {
  const values = sentValues(set);
  if (values) await db.update(menus).set(values).where(eq(menus.id, id));
}

export async function deleteMenu(db: Executor, id: number) {
  await db.delete(menus).where(eq(menus.id, id));
}

export async function countMenuChildren(db: Executor, id: number) {
  const [row] = await db.select({ n: count() }).from(menus).where(eq(menus.parentId, id));
  return row?.n ?? 0;
}
