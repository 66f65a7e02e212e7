import { and, asc, count, desc, eq, ilike, inArray, like, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { permissions, rolePermissions, roles, users } from '../../db/schema/index.js';
import { escapeLike, sentValues } from '../../lib/sql.js';

export async function findRole(db: Executor, id: number) {
  const [row] = await db.select().from(roles).where(eq(roles.id, id));
  return row;
}

/** Roles a caller can see: built-ins, its own role and roles created in its subtree. */
function visible(scopePath: string | undefined, ownRoleId: number): SQL | undefined {
  if (!scopePath) return undefined;
  return or(eq(roles.builtin, true), eq(roles.id, ownRoleId), like(roles.ownerPath, `${escapeLike(scopePath)}%`));
}

export async function listRoles(
  db: Executor,
  f: {
    scopePath?: string;
    ownRoleId: number;
    name?: string;
    sort: 'createdAt' | 'name' | 'id';
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  const where = and(visible(f.scopePath, f.ownRoleId), f.name ? ilike(roles.name, `%${escapeLike(f.name)}%`) : undefined);
  const dir = f.order === 'asc' ? asc : desc;
  const userCount = db
    .select({ roleId: users.roleId, n: count().as('n') })
    .from(users)
    .where(f.scopePath ? like(users.path, `${escapeLike(f.scopePath)}%`) : undefined)
    .groupBy(users.roleId)
    .as('uc');
  const [items, [total]] = await Promise.all([
    db
      .select({
        id: roles.id,
        name: roles.name,
        identification: roles.identification,
        builtin: roles.builtin,
        ownerPath: roles.ownerPath,
        createdAt: roles.createdAt,
        userCount: userCount.n,
      })
      .from(roles)
      .leftJoin(userCount, eq(userCount.roleId, roles.id))
      .where(where)
      .orderBy(dir(roles[f.sort]), dir(roles.id))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db.select({ n: count() }).from(roles).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}

export async function visibleRoles(db: Executor, scopePath: string | undefined, ownRoleId: number) {
  return db
    .select({ id: roles.id, name: roles.name, identification: roles.identification })
    .from(roles)
    .where(visible(scopePath, ownRoleId))
    .orderBy(asc(roles.id));
}

export async function identificationTaken(db: Executor, identification: string, exceptId?: number) {
  const [row] = await db.select({ id: roles.id }).from(roles).where(eq(roles.identification, identification));
  return Boolean(row && row.id !== exceptId);
}

export async function insertRole(db: Executor, values: { name: string; identification: string; ownerPath: string }) {
  const [row] = await db.insert(roles).values(values).returning({ id: roles.id });
  return row!.id;
}

/** Sets the fields given a value; the others keep theirs. */
export async function updateRole(db: Executor, id: number, set: Partial<{ name: string; identification: string }>) {
  const values = sentValues(set);
  if (values) await db.update(roles).set(values).where(eq(roles.id, id));
}

export async function deleteRole(db: Executor, id: number) {
  await db.delete(roles).where(eq(roles.id, id));
}

export async function countRoleUsers(db: Executor, id: number) {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.roleId, id));
  return row?.n ?? 0;
}

export async function roleUserIds(db: Executor, id: number) {
  return (await db.select({ id: users.id }).from(users).where(eq(users.roleId, id))).map((r) => r.id);
}

export async function rolePermissionRows(db: Executor, roleId: number) {
  return db
    .select({ id: permissions.id, identification: permissions.identification })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId));
}

/** Codes of several roles at once: role id → codes. */
export async function codesOfRoles(db: Executor, roleIds: number[]) {
  const out = new Map<number, string[]>();
  if (roleIds.length === 0) return out;
  const rows = await db
    .select({ roleId: rolePermissions.roleId, code: permissions.identification })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(inArray(rolePermissions.roleId, roleIds));
  for (const r of rows) out.set(r.roleId, [...(out.get(r.roleId) ?? []), r.code]);
  return out;
}

export async function replaceRolePermissions(db: Executor, roleId: number, permissionIds: number[]) {
  await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  if (permissionIds.length > 0) {
    await db.insert(rolePermissions).values(permissionIds.map((permissionId) => ({ roleId, permissionId })));
  }
}
