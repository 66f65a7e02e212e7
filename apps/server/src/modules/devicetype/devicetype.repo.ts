import { and, asc, count, desc, eq, ilike, like, or, sql, type SQL } from 'drizzle-orm';
import type { AlarmRule, Param } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { deviceTypeAlarms, deviceTypeParams, deviceTypes, devices } from '../../db/schema/index.js';
import { escapeLike, sentValues } from '../../lib/sql.js';

/** Types a caller sees: built-ins and those created in its subtree (all for undefined scope). */
export function visibleTypes(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  return or(eq(deviceTypes.ownerPath, '/'), like(deviceTypes.ownerPath, `${escapeLike(scopePath)}%`));
}

/** What a type is shown by: id, code and its name in every language. */
const typeLabel = {
  id: deviceTypes.id,
  code: deviceTypes.code,
  name: deviceTypes.name,
  nameEn: deviceTypes.nameEn,
  nameEs: deviceTypes.nameEs,
  nameJa: deviceTypes.nameJa,
};

export async function listTypes(
  db: Executor,
  f: { scopePath?: string; name?: string; code?: string; sort: 'createdAt' | 'name' | 'code' | 'id'; order: 'asc' | 'desc'; page: number; limit: number },
) {
  const where = and(
    visibleTypes(f.scopePath),
    f.name ? nameLike(`%${escapeLike(f.name)}%`) : undefined,
    f.code ? ilike(deviceTypes.code, `%${escapeLike(f.code)}%`) : undefined,
  );
  const dir = f.order === 'asc' ? asc : desc;
  const [items, [total]] = await Promise.all([
    db
      .select({
        ...typeLabel,
        remarks: deviceTypes.remarks,
        recordTrack: deviceTypes.recordTrack,
        builtin: deviceTypes.builtin,
        ownerPath: deviceTypes.ownerPath,
        createdAt: deviceTypes.createdAt,
        // Correlated counts, qualified by hand: drizzle leaves columns unqualified in raw SQL.
        paramCount: sql<number>`(select count(*)::int from device_type_params p where p.type_id = device_types.id)`,
        alarmCount: sql<number>`(select count(*)::int from device_type_alarms a where a.type_id = device_types.id)`,
      })
      .from(deviceTypes)
      .where(where)
      .orderBy(dir(deviceTypes[f.sort]), dir(deviceTypes.id))
      .limit(f.limit)
      .offset((f.page - 1) * f.limit),
    db.select({ n: count() }).from(deviceTypes).where(where),
  ]);
  return { total: total?.n ?? 0, items };
}

/** A name filter matches the type's name in any of its languages. */
function nameLike(pattern: string): SQL | undefined {
  return or(
    ilike(deviceTypes.name, pattern),
    ilike(deviceTypes.nameEn, pattern),
    ilike(deviceTypes.nameEs, pattern),
    ilike(deviceTypes.nameJa, pattern),
  );
}

export async function typeOptions(db: Executor, scopePath: string | undefined) {
  return db
    .select(typeLabel)
    .from(deviceTypes)
    .where(visibleTypes(scopePath))
    .orderBy(asc(deviceTypes.name));
}

export async function findType(db: Executor, id: number) {
  const [row] = await db.select().from(deviceTypes).where(eq(deviceTypes.id, id));
  return row;
}

export async function findTypeByCode(db: Executor, code: string) {
  const [row] = await db.select().from(deviceTypes).where(eq(deviceTypes.code, code));
  return row;
}

export async function insertType(db: Executor, values: typeof deviceTypes.$inferInsert) {
  const [row] = await db.insert(deviceTypes).values(values).returning({ id: deviceTypes.id });
  return row!.id;
}

/** Sets the fields given a value; the others keep theirs. */
export async function updateType(db: Executor, id: number, set: Partial<typeof deviceTypes.$inferInsert>) {
  const values = sentValues(set);
  if (values) await db.update(deviceTypes).set(values).where(eq(deviceTypes.id, id));
}

export async function deleteType(db: Executor, id: number) {
  await db.delete(deviceTypes).where(eq(deviceTypes.id, id));
}

export async function paramsOf(db: Executor, typeId: number) {
  return db
    .select()
    .from(deviceTypeParams)
    .where(eq(deviceTypeParams.typeId, typeId))
    .orderBy(asc(deviceTypeParams.sort), asc(deviceTypeParams.id));
}

export async function replaceParams(db: Executor, typeId: number, params: Param[]) {
  await db.delete(deviceTypeParams).where(eq(deviceTypeParams.typeId, typeId));
  if (params.length > 0) await db.insert(deviceTypeParams).values(params.map((p) => ({ ...p, typeId })));
}

export async function alarmsOf(db: Executor, typeId: number) {
  return db
    .select()
    .from(deviceTypeAlarms)
    .where(eq(deviceTypeAlarms.typeId, typeId))
    .orderBy(asc(deviceTypeAlarms.id));
}

export async function replaceAlarms(db: Executor, typeId: number, rules: AlarmRule[]) {
  await db.delete(deviceTypeAlarms).where(eq(deviceTypeAlarms.typeId, typeId));
  if (rules.length > 0) {
    await db.insert(deviceTypeAlarms).values(
      rules.map((r) => ({ ...r, typeId, threshold: String(r.threshold) })),
    );
  }
}

/** How many devices are of this type. */
export async function countTypeDevices(db: Executor, typeId: number) {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.typeId, typeId));
  return row?.n ?? 0;
}

/** Whether the caller sees the type (built-in, or created in its subtree). */
export async function typeVisible(db: Executor, typeId: number, scopePath: string | undefined) {
  const [row] = await db
    .select({ id: deviceTypes.id })
    .from(deviceTypes)
    .where(and(eq(deviceTypes.id, typeId), visibleTypes(scopePath)));
  return Boolean(row);
}
