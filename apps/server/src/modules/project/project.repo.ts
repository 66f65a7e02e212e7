import { and, asc, count, desc, eq, inArray, like, ne, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, projectUsers, projects, roadSections, simCards, users } from '../../db/schema/index.js';
import { escapeLike, sentValues } from '../../lib/sql.js';
import { pageAndTotal, pageByIds } from '../../lib/query/paging.js';

export { visibleProjects } from '../../lib/query/visibility.js';
import { visibleProjects } from '../../lib/query/visibility.js';

const columns = {
  id: projects.id,
  name: projects.name,
  remarks: projects.remarks,
  address: projects.address,
  lng: projects.lng,
  lat: projects.lat,
  weather: projects.weather,
  map: projects.map,
  ownerId: projects.ownerId,
  ownerName: users.username,
  ownerPath: projects.ownerPath,
  createdAt: projects.createdAt,
  deviceCount: sql<number>`(select count(*)::int from devices d where d.project_id = projects.id)`,
};

type ProjectFilter = { scopePath?: string; name?: string; ownerId?: number };

/** The project list's conditions. */
function projectWhere(f: ProjectFilter) {
  return and(
    visibleProjects(f.scopePath),
    // lower() once per row and a plain LIKE: half the cost of ILIKE, which lowers the pattern and
    // every name per row in a UTF-8 database (1 µs a project); projects_name_trgm_idx answers it.
    f.name ? like(sql`lower(${projects.name})`, `%${escapeLike(f.name.toLowerCase())}%`) : undefined,
    f.ownerId ? eq(projects.ownerId, f.ownerId) : undefined,
  );
}

export async function listProjects(
  db: Executor,
  f: ProjectFilter & { sort: 'createdAt' | 'name' | 'id'; order: 'asc' | 'desc'; page: number; limit: number },
) {
  const where = projectWhere(f);
  const dir = f.order === 'asc' ? asc : desc;
  const order = [dir(projects[f.sort]), dir(projects.id)];
  const [items, total] = await pageAndTotal(
    db,
    f,
    // The device count is read for the page's projects only.
    pageByIds(
      db
        .select({ id: projects.id })
        .from(projects)
        .where(where)
        .orderBy(...order)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit),
      (ids) =>
        db
          .select(columns)
          .from(projects)
          .innerJoin(users, eq(users.id, projects.ownerId))
          .where(inArray(projects.id, ids))
          .orderBy(...order),
    ),
    db.select({ one: sql`1` }).from(projects).where(where),
  );
  return { ...total, items };
}

/** The navbar search: projects the caller sees whose name contains the text (the list's filter). */
export async function findProjectsByName(db: Executor, scopePath: string | undefined, q: string, limit: number) {
  return db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(projectWhere({ scopePath, name: q }))
    .orderBy(asc(projects.name), asc(projects.id))
    .limit(limit);
}

export async function findProject(db: Executor, id: number, scopePath: string | undefined) {
  const [row] = await db
    .select(columns)
    .from(projects)
    .innerJoin(users, eq(users.id, projects.ownerId))
    .where(and(eq(projects.id, id), visibleProjects(scopePath)));
  return row;
}

export async function insertProject(db: Executor, values: typeof projects.$inferInsert) {
  const [row] = await db.insert(projects).values(values).returning({ id: projects.id });
  return row!.id;
}

export async function updateProject(db: Executor, id: number, set: Partial<typeof projects.$inferInsert>) {
  await db
    .update(projects)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(projects.id, id));
}

export async function deleteProject(db: Executor, id: number) {
  await db.delete(projects).where(eq(projects.id, id));
}

export async function countProjectDevices(db: Executor, id: number) {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.projectId, id));
  return row?.n ?? 0;
}

/** Moves a project's devices to another (or none); `ownerPath` undefined: each keeps its owner. Their ids. */
export async function moveProjectDevices(db: Executor, from: number, to: number | null, ownerPath: string | undefined) {
  const rows = await db
    .update(devices)
    .set({ projectId: to, ...(ownerPath !== undefined ? { ownerPath } : {}), updatedAt: new Date() })
    .where(eq(devices.projectId, from))
    .returning({ id: devices.id });
  return rows.map((r) => r.id);
}

/**
 * A project's devices and SIM cards given to its new owner's line (the owner rule of
 * `lib/scope.ts deviceOwnerPath`, which cards share); their alarms follow the devices by trigger
 * (migration 0030). The ids of the devices whose owner changed.
 */
export async function carryProjectRows(db: Executor, projectId: number, ownerPath: string) {
  const rows = await db
    .update(devices)
    .set({ ownerPath, updatedAt: new Date() })
    .where(and(eq(devices.projectId, projectId), ne(devices.ownerPath, ownerPath)))
    .returning({ id: devices.id });
  await db
    .update(simCards)
    .set({ ownerPath, updatedAt: new Date() })
    .where(and(eq(simCards.projectId, projectId), ne(simCards.ownerPath, ownerPath)));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- road sections

export async function listRoadSections(db: Executor, projectId: number, page: number, limit: number) {
  const where = eq(roadSections.projectId, projectId);
  const [items, [total]] = await Promise.all([
    db.select().from(roadSections).where(where).orderBy(asc(roadSections.sort), asc(roadSections.id)).limit(limit).offset((page - 1) * limit),
    db.select({ n: count() }).from(roadSections).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}

export async function findRoadSection(db: Executor, id: number) {
  const [row] = await db.select().from(roadSections).where(eq(roadSections.id, id));
  return row;
}

export async function insertRoadSection(db: Executor, values: typeof roadSections.$inferInsert) {
  const [row] = await db.insert(roadSections).values(values).returning({ id: roadSections.id });
  return row!.id;
}

/** Sets the fields given a value; the others keep theirs. */
export async function updateRoadSection(db: Executor, id: number, set: Partial<typeof roadSections.$inferInsert>) {
  const values = sentValues(set);
  if (values) await db.update(roadSections).set(values).where(eq(roadSections.id, id));
}

export async function deleteRoadSection(db: Executor, id: number) {
  await db.delete(roadSections).where(eq(roadSections.id, id));
}

// ---------------------------------------------------------------- project users

export async function projectUserList(db: Executor, projectId: number) {
  return db
    .select({ id: users.id, username: users.username, corporateName: users.corporateName, path: users.path })
    .from(projectUsers)
    .innerJoin(users, eq(users.id, projectUsers.userId))
    .where(eq(projectUsers.projectId, projectId))
    .orderBy(asc(users.username));
}

export async function usersByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, username: users.username, path: users.path })
    .from(users)
    .where(inArray(users.id, ids));
}

export async function replaceProjectUsers(db: Executor, projectId: number, keep: number[], add: number[]) {
  // Users outside the caller's subtree (`keep`) stay untouched; the caller's part is replaced.
  await db
    .delete(projectUsers)
    .where(and(eq(projectUsers.projectId, projectId), keep.length ? notInArray(projectUsers.userId, keep) : undefined));
  if (add.length > 0) {
    await db.insert(projectUsers).values(add.map((userId) => ({ projectId, userId }))).onConflictDoNothing();
  }
}

/** Projects owned in a subtree (all for undefined scope): the ones a caller may put devices in. */
export async function ownedProjects(db: Executor, scopePath: string | undefined) {
  return db
    .select({ id: projects.id, name: projects.name, ownerPath: projects.ownerPath })
    .from(projects)
    .where(scopePath ? like(projects.ownerPath, `${escapeLike(scopePath)}%`) : undefined);
}
