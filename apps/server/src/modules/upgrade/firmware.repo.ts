import { and, asc, desc, eq, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { DeviceTypeOption } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { firmwareVersions, users } from '../../db/schema/index.js';
import { pageAndTotal } from '../../lib/query/paging.js';
import { escapeLike } from '../../lib/sql.js';
import { visibleVersions } from '../../lib/query/visibility.js';

const v = firmwareVersions;


/** A running campaign rolls the version out (its image and its row are then fixed). */
const inUse = sql<boolean>`exists (select 1 from upgrade_campaigns c where c.version_id = ${v.id} and c.state = 'running')`;

const columns = {
  id: v.id,
  name: v.name,
  manufacturer: v.manufacturer,
  module: v.module,
  softwareVersion: v.softwareVersion,
  info: v.info,
  url: v.url,
  fileKey: v.fileKey,
  fileName: v.fileName,
  size: v.size,
  sha256: v.sha256,
  typeIds: v.typeIds,
  models: v.models,
  ownerPath: v.ownerPath,
  createdBy: v.createdBy,
  createdByName: users.username,
  createdAt: v.createdAt,
  updatedAt: v.updatedAt,
  inUse,
  types: sql<DeviceTypeOption[]>`coalesce((select json_agg(json_build_object('id', t.id, 'code', t.code, 'name', t.name,
      'nameEn', t.name_en, 'nameEs', t.name_es, 'nameJa', t.name_ja) order by t.name, t.id)
    from device_types t where t.id = any(${v.typeIds})), '[]'::json)`,
};

export interface VersionFilter {
  scopePath?: string;
  q?: string;
  manufacturer?: string;
  module?: string;
  typeId?: number;
}

const contains = (col: SQL | typeof v.name, text: string) => like(sql`lower(${col})`, `%${escapeLike(text.toLowerCase())}%`);

function versionWhere(f: VersionFilter) {
  return and(
    visibleVersions(f.scopePath),
    f.q ? or(contains(v.name, f.q), contains(sql`${v.softwareVersion}`, f.q)) : undefined,
    f.manufacturer ? contains(sql`${v.manufacturer}`, f.manufacturer) : undefined,
    f.module ? contains(sql`${v.module}`, f.module) : undefined,
    // A version naming no type applies to every type.
    f.typeId ? sql`(${f.typeId} = any(${v.typeIds}) or cardinality(${v.typeIds}) = 0)` : undefined,
  );
}

export async function listVersions(
  db: Executor,
  f: VersionFilter & {
    sort: 'createdAt' | 'name' | 'softwareVersion' | 'manufacturer' | 'module' | 'size' | 'id';
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  const where = versionWhere(f);
  const dir = f.order === 'asc' ? asc : desc;
  const [items, total] = await pageAndTotal(
    db,
    f,
    db
      .select(columns)
      .from(v)
      .leftJoin(users, eq(users.id, v.createdBy))
      .where(where)
      .orderBy(dir(v[f.sort]), dir(v.id))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db.select({ one: sql`1` }).from(v).where(where),
  );
  return { ...total, items };
}

/** Versions by id that the caller sees (any order). */
export async function findVersions(db: Executor, ids: readonly number[], scopePath: string | undefined) {
  return db
    .select(columns)
    .from(v)
    .leftJoin(users, eq(users.id, v.createdBy))
    .where(and(inArray(v.id, ids.length > 0 ? [...ids] : [0]), visibleVersions(scopePath)));
}
export type VersionRow = Awaited<ReturnType<typeof findVersions>>[number];

/**
 * Locks these versions for a change of image or a delete (FOR UPDATE, which a campaign's
 * insert naming the version waits for: its foreign key takes a KEY SHARE lock), then tells
 * which of them a running campaign uses. A campaign started meanwhile is seen, or waits.
 */
export async function lockInUse(tx: Executor, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const locked = await tx.select({ id: v.id }).from(v).where(inArray(v.id, [...ids])).for('update');
  if (locked.length === 0) return [];
  const used = await tx.select({ id: v.id }).from(v).where(and(inArray(v.id, [...ids]), inUse));
  return used.map((r) => r.id);
}

export async function insertVersion(db: Executor, values: typeof v.$inferInsert): Promise<number> {
  const [row] = await db.insert(v).values(values).returning({ id: v.id });
  return row!.id;
}

export async function updateVersion(db: Executor, id: number, set: Partial<typeof v.$inferInsert>) {
  await db
    .update(v)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(v.id, id));
}

/** Deletes versions; the keys of their uploaded images (to remove from disk after the commit). */
export async function deleteVersions(db: Executor, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.delete(v).where(inArray(v.id, [...ids])).returning({ fileKey: v.fileKey });
  return rows.flatMap((r) => (r.fileKey ? [r.fileKey] : []));
}

/** Of these upload keys, those a version names. */
export async function keysInUse(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ key: v.fileKey }).from(v).where(inArray(v.fileKey, [...keys]));
  return new Set(rows.flatMap((r) => (r.key ? [r.key] : [])));
}

/**
 * The version a device may download: published for its owner line (the version's owner path
 * is a prefix of the device's). Undefined otherwise, as for a version that does not exist.
 */
export async function versionForDevice(db: Executor, id: number, deviceOwnerPath: string) {
  const [row] = await db
    .select({
      id: v.id,
      softwareVersion: v.softwareVersion,
      url: v.url,
      fileKey: v.fileKey,
      fileName: v.fileName,
      size: v.size,
      sha256: v.sha256,
    })
    .from(v)
    .where(and(eq(v.id, id), sql`${deviceOwnerPath} like ${v.ownerPath} || '%'`));
  return row;
}
