import { and, asc, count, desc, eq, ilike, inArray, like, ne, sql, type SQL } from 'drizzle-orm';
import { SUPERADMIN, type EndpointParsedQuery, type userAdminApi } from '@iot/contract';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  alarms,
  batteryEnergyHour,
  cardOrders,
  deviceLogs,
  deviceTypes,
  devices,
  externalDevices,
  externalLogs,
  firmwareVersions,
  loginThrottle,
  operationLogs,
  projects,
  roles,
  simCards,
  upgradeCampaigns,
  userEmails,
  users,
  stores,
} from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { pageAndTotal } from '../../lib/query/paging.js';

const parent = alias(users, 'parent');

const userColumns = {
  id: users.id,
  username: users.username,
  type: users.type,
  path: users.path,
  roleId: users.roleId,
  roleName: roles.name,
  roleIdentification: roles.identification,
  parentId: users.parentId,
  parentName: parent.username,
  corporateName: users.corporateName,
  corporateAddress: users.corporateAddress,
  contactNumber: users.contactNumber,
  dashboardStyle: users.dashboardStyle,
  language: users.language,
  enabled: users.enabled,
  /** Locked out by failed logins from some address (read with the user: no second query per page). */
  locked: sql<boolean>`exists (select 1 from login_throttle t where t.username = ${users.username} and t.locked_until > now())`,
  createdAt: users.createdAt,
};

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/** GET /user/list's validated query, scoped to the caller's subtree. */
export type UserFilter = EndpointParsedQuery<typeof userAdminApi.list> & { scopePath?: string; callerId: number };

export async function listUsers(db: Executor, f: UserFilter) {
  const conds: (SQL | undefined)[] = [
    f.scopePath ? like(users.path, `${escapeLike(f.scopePath)}%`) : undefined,
    f.kind === 'admin'
      ? eq(users.type, 0)
      : f.kind === 'user'
        ? eq(users.type, 1)
        : ne(users.id, f.callerId),
    f.username ? ilike(users.username, `%${escapeLike(f.username)}%`) : undefined,
    f.roleId ? eq(users.roleId, f.roleId) : undefined,
    f.parentId ? eq(users.parentId, f.parentId) : undefined,
    f.enabled === undefined ? undefined : eq(users.enabled, f.enabled),
  ];
  const where = and(...conds);
  const dir = f.order === 'asc' ? asc : desc;
  const [items, total] = await pageAndTotal(
    db,
    f,
    db
      .select(userColumns)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .leftJoin(parent, eq(parent.id, users.parentId))
      .where(where)
      .orderBy(dir(users[f.sort]), dir(users.id))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db.select({ one: sql`1` }).from(users).where(where),
  );
  return { ...total, items };
}

export async function findUser(db: Executor, id: number) {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(parent, eq(parent.id, users.parentId))
    .where(eq(users.id, id));
  return row;
}

export async function usernameTaken(db: Executor, username: string) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  return Boolean(row);
}

export async function insertUser(
  db: Executor,
  values: Omit<typeof users.$inferInsert, 'id' | 'path'>,
  parentPath: string,
) {
  const [u] = await db.insert(users).values(values).returning({ id: users.id });
  const path = `${parentPath}${u!.id}/`;
  await db.update(users).set({ path }).where(eq(users.id, u!.id));
  return u!.id;
}

export async function updateUser(db: Executor, id: number, set: Partial<typeof users.$inferInsert>) {
  await db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/**
 * Every column that ties a row to a line of users: a user moved to another parent takes these
 * rows along (`movePaths`), in this order. A new table with an owner path belongs here;
 * `test/owner-paths.test.ts` compares this list with every `*_path` column of the database.
 *
 * - Device logs can be the largest table here: one statement by prefix on their owner index
 *   rewrites every log row of the moved line (bench/README.md, "Moving a user"). They go first:
 *   ingestion only inserts log rows, so nobody waits on the rows this locks.
 * - The operation log's `user_path` is the acting user's path: the log is scoped like users, so a
 *   moved user's actions follow it, as its logins (read through `users`) do.
 * - Devices come late: ingestion locks a batch's device rows first (ARCHITECTURE.md, "The batch
 *   transaction"), and a batch of the moved line's devices waits for this commit from here on.
 *   Then alarms, in ingestion's lock order (a device's row, then its alarms'): the devices'
 *   trigger (migration 0030) has already carried them, so their statement is one index probe
 *   kept as a guard should the copy ever be out of step.
 */
export const LINE_COLUMNS: readonly PgColumn[] = [
  deviceLogs.ownerPath,
  operationLogs.userPath,
  projects.ownerPath,
  simCards.ownerPath,
  cardOrders.ownerPath,
  deviceTypes.ownerPath,
  roles.ownerPath,
  // The battery dashboard's energy per hour (written by the rollup job only).
  batteryEnergyHour.ownerPath,
  // Firmware versions and upgrade campaigns follow their creator.
  firmwareVersions.ownerPath,
  upgradeCampaigns.ownerPath,
  // External devices and their logs follow their creator.
  externalDevices.ownerPath,
  externalLogs.ownerPath,
  devices.ownerPath,
  alarms.ownerPath,
  // Stores follow their owner (their rentals are scoped through them).
  stores.ownerPath,
];

/**
 * Moves a whole subtree: every path starting with `from` starts with `to` afterwards, the users'
 * and every row they own (`LINE_COLUMNS`), in the caller's transaction so that nobody ever sees
 * a moved user without its things. Built-in rows (owner `/`) never match: `from` is a user's path.
 */
export async function movePaths(db: Executor, from: string, to: string) {
  const prefix = `${escapeLike(from)}%`;
  const carry = (col: PgColumn) =>
    db.execute(sql`update ${col.table} set ${sql.identifier(col.name)} = ${to} || substr(${col}, ${from.length + 1}) where ${col} like ${prefix}`);
  await db.update(users).set({ path: sql`${to} || substr(${users.path}, ${from.length + 1})` }).where(like(users.path, prefix));
  for (const col of LINE_COLUMNS) await carry(col);
  // Logs that batches committed while the first pass ran took their devices' old line; the
  // devices are locked by this transaction now, so later batches of them log into the new one
  // (ingest.repo.ts reads the line at write time). A second look finds just those few rows.
  await carry(deviceLogs.ownerPath);
}

export async function deleteUser(db: Executor, id: number) {
  await db.delete(users).where(eq(users.id, id));
}

export async function countChildren(db: Executor, id: number) {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.parentId, id));
  return row?.n ?? 0;
}

/** Enabled users holding the SUPERADMIN role. */
export async function countActiveSuperadmins(db: Executor) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.identification, SUPERADMIN), eq(users.enabled, true)));
  return row?.n ?? 0;
}

export async function clearThrottle(db: Executor, username: string) {
  await db.delete(loginThrottle).where(eq(loginThrottle.username, username));
}

export async function userOptions(db: Executor, scopePath: string | undefined, q: string, limit: number) {
  return db
    .select({ id: users.id, name: users.username })
    .from(users)
    .where(
      and(
        scopePath ? like(users.path, `${escapeLike(scopePath)}%`) : undefined,
        q ? ilike(users.username, `%${escapeLike(q)}%`) : undefined,
      ),
    )
    .orderBy(asc(users.username))
    .limit(limit);
}

/**
 * The navbar search: users of the subtree whose username contains the text, of the given types
 * (undefined: every type but the caller, as the agent screen lists). lower() and LIKE, answered
 * by users_username_trgm_idx.
 */
export async function findUsersByName(
  db: Executor,
  f: { scopePath: string | undefined; callerId: number; types: number[] | undefined; q: string; limit: number },
) {
  return db
    .select({ id: users.id, username: users.username, type: users.type })
    .from(users)
    .where(
      and(
        f.scopePath ? like(users.path, `${escapeLike(f.scopePath)}%`) : undefined,
        f.types ? inArray(users.type, f.types) : ne(users.id, f.callerId),
        like(sql`lower(${users.username})`, `%${escapeLike(f.q.toLowerCase())}%`),
      ),
    )
    .orderBy(asc(users.username))
    .limit(f.limit);
}

// ---------------------------------------------------------------- emails

export async function listEmails(db: Executor, userId: number) {
  return db
    .select({ id: userEmails.id, email: userEmails.email, createdAt: userEmails.createdAt })
    .from(userEmails)
    .where(eq(userEmails.userId, userId))
    .orderBy(asc(userEmails.id));
}

export async function insertEmail(db: Executor, userId: number, email: string) {
  const [row] = await db.insert(userEmails).values({ userId, email }).returning({ id: userEmails.id });
  return row!.id;
}

export async function findEmail(db: Executor, id: number) {
  const [row] = await db
    .select({ id: userEmails.id, userId: userEmails.userId, email: userEmails.email, path: users.path })
    .from(userEmails)
    .innerJoin(users, eq(users.id, userEmails.userId))
    .where(eq(userEmails.id, id));
  return row;
}

export async function deleteEmail(db: Executor, id: number) {
  await db.delete(userEmails).where(eq(userEmails.id, id));
}

/** Serialises changes to one user's rows (the 3-email limit under concurrent adds). */
export async function lockUser(db: Executor, id: number) {
  await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
}
