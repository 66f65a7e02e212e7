import { and, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { menus, permissions, rolePermissions } from '../../db/schema/index.js';
import { escapeLike, sentValues } from '../../lib/sql.js';

const columns = {
  id: permissions.id,
  name: permissions.name,
  identification: permissions.identification,
  menuId: permissions.menuId,
  menuName: menus.name,
  createdAt: permissions.createdAt,
};

export async function listPermissions(
  db: Executor,
  f: {
    name?: string;
    identification?: string;
    menuId?: number;
    sort: 'createdAt' | 'name' | 'identification' | 'id';
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  const conds: (SQL | undefined)[] = [
    f.name ? ilike(permissions.name, `%${escapeLike(f.name)}%`) : undefined,
    f.identification ? ilike(permissions.identification, `%${escapeLike(f.identification)}%`) : undefined,
    f.menuId ? eq(permissions.menuId, f.menuId) : undefined,
  ];
  const where = and(...conds);
  const dir = f.order === 'asc' ? asc : desc;
  const [items, [total]] = await Promise.all([
    db
      .select(columns)
      .from(permissions)
      .innerJoin(menus, eq(menus.id, permissions.menuId))
      .where(where)
      .orderBy(dir(permissions[f.sort]), dir(permissions.id))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db.select({ n: count() }).from(permissions).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}

export async function findPermission(db: Executor, id: number) {
  const [row] = await db
    .select(columns)
    .from(permissions)
    .innerJoin(menus, eq(menus.id, permissions.menuId))
    .where(eq(permissions.id, id));
  return row;
}

export async function allPermissions(db: Executor) {
  return db
    .select({ id: permissions.id, name: permissions.name, identification: permissions.identification, menuId: permissions.menuId })
    .from(permissions)
    .orderBy(asc(permissions.id));
}

export async function permissionsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: permissions.id, identification: permissions.identification })
    .from(permissions)
    .where(inArray(permissions.id, ids));
}

export async function identificationTaken(db: Executor, identification: string, exceptId?: number) {
  const [row] = await db
    .select({ id: permissions.id })
    .from(permissions)
    .where(eq(permissions.identification, identification));
  return Boolean(row && row.id !== exceptId);
}

export async function insertPermission(db: Executor, values: { name: string; identification: string; menuId: number }) {
  const [row] = await db.insert(permissions).values(values).returning({ id: permissions.id });
  return row!.id;
}

export async function updatePermission(
  db: Executor,
  id: number,
  set: Partial<{ name: string; identification: string; menuId: number }>,
) {
  const values = sentValues(set);
  if (values) await db.update(permissions).set(values).where(eq(permissions.id, id));
}

export async function deletePermission(db: Executor, id: number) {
  await db.delete(permissions).where(eq(permissions.id, id));
}

export async function countMenuPermissions(db: Executor, menuId: number) {
  const [row] = await db.select({ n: count() }).from(permissions).where(eq(permissions.menuId, menuId));
  return row?.n ?? 0;
}

/** Permission codes granted to a role. */
export async function roleCodes(db: Executor, roleId: number): Promise<string[]> {
  const rows = await db
    .select({ code: permissions.identification })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId));
  return rows.map((r) => r.code);
}

export async function allCodes(db: Executor): Promise<string[]> {
  const rows = await db.select({ code: permissions.identification }).from(permissions);
  return rows.map((r) => r.code);
}
