import { and, asc, desc, eq, inArray, like, sql, type SQL } from 'drizzle-orm';
import { FAULTY_ALARM_LEVEL, RENTAL_OPEN_STATES, type EndpointParsedQuery, type StockCounts, type StockState, type storeApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { devices, rentals, stores, users } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { pageAndTotal } from '../../lib/query/paging.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const OPEN = sql.raw(RENTAL_OPEN_STATES.map((s) => `'${s}'`).join(', '));

/** Stores a caller sees (and changes): owned in its subtree. Undefined scope: all. */
export const visibleStores = (scopePath: string | undefined): SQL | undefined =>
  scopePath ? like(stores.ownerPath, `${escapeLike(scopePath)}%`) : undefined;

/**
 * A stocked pack's state from live data (aliases: `d` the device, `s` its store, `b` its
 * `device_battery` row): rented (an open rental, found through `rentals_open_device_idx`), faulty
 * (a recorded fault, or an active alarm of level ≥ 3: `devices.warning_level` is the highest
 * active level), offline, charging, available (SOC ≥ the store's threshold), else low.
 */
export const stockStateSql = sql<StockState>`case
    when exists (select 1 from rentals r where r.device_id = d.id and r.state in (${OPEN})) then 'rented'
    when d.store_fault is not null or d.warning_level >= ${FAULTY_ALARM_LEVEL} then 'faulty'
    when not d.online then 'offline'
    when b.state = 'charging' then 'charging'
    when b.soc >= s.min_soc then 'available'
    else 'low' end`;

const columns = {
  id: stores.id,
  name: stores.name,
  code: stores.code,
  address: stores.address,
  lng: stores.lng,
  lat: stores.lat,
  contact: stores.contact,
  phone: stores.phone,
  openingHours: stores.openingHours,
  status: stores.status,
  remark: stores.remark,
  minSoc: stores.minSoc,
  maxCellDeltaMv: stores.maxCellDeltaMv,
  maxTempC: stores.maxTempC,
  ownerId: stores.ownerId,
  ownerPath: stores.ownerPath,
  ownerName: users.username,
  createdAt: stores.createdAt,
  updatedAt: stores.updatedAt,
};
export type StoreRow = Awaited<ReturnType<typeof findStores>>[number];

type ListQuery = EndpointParsedQuery<typeof storeApi.list> & { scopePath?: string };

function filterOf(f: Omit<ListQuery, 'page' | 'limit' | 'sort' | 'order'>) {
  return and(
    visibleStores(f.scopePath),
    f.status ? eq(stores.status, f.status) : undefined,
    f.ownerId ? eq(stores.ownerId, f.ownerId) : undefined,
    f.q ? like(stores.search, `%${escapeLike(f.q.toLowerCase())}%`) : undefined,
  );
}

const orderOf = (f: Pick<ListQuery, 'sort' | 'order'>) => {
  const dir = f.order === 'asc' ? asc : desc;
  return [dir(stores[f.sort]), dir(stores.id)];
};

export async function listStores(db: Executor, f: ListQuery) {
  const where = filterOf(f);
  const [items, total] = await pageAndTotal(
    db,
    f,
    db.select(columns).from(stores).innerJoin(users, eq(users.id, stores.ownerId)).where(where).orderBy(...orderOf(f)).limit(f.limit).offset((f.page - 1) * f.limit),
    db.select({ one: sql`1` }).from(stores).where(where),
  );
  return { ...total, items };
}

export async function exportStores(db: Executor, f: Omit<ListQuery, 'page' | 'limit'>, max: number) {
  return db.select(columns).from(stores).innerJoin(users, eq(users.id, stores.ownerId)).where(filterOf(f)).orderBy(...orderOf(f)).limit(max);
}

export async function findStores(db: Executor, ids: number[], scopePath: string | undefined) {
  if (ids.length === 0) return [];
  return db.select(columns).from(stores).innerJoin(users, eq(users.id, stores.ownerId)).where(and(inArray(stores.id, ids), visibleStores(scopePath)));
}

/** Stores by code among those the caller sees (imports name stores by code). */
export async function storesByCode(db: Executor, codes: string[], scopePath: string | undefined) {
  if (codes.length === 0) return [];
  return db.select({ id: stores.id, code: stores.code, status: stores.status }).from(stores).where(and(inArray(stores.code, codes), visibleStores(scopePath)));
}

export const EMPTY_STOCK: StockCounts = { available: 0, charging: 0, low: 0, rented: 0, faulty: 0, offline: 0, total: 0 };

/** The stock of these stores by state, one statement over live data. */
export async function stockCounts(db: Executor, storeIds: number[]): Promise<Map<number, StockCounts>> {
  const out = new Map<number, StockCounts>();
  if (storeIds.length === 0) return out;
  const res = await db.execute(sql`
    select x.store_id, x.st, count(*)::int as n from (
      select d.store_id, ${stockStateSql} as st
      from devices d join stores s on s.id = d.store_id left join device_battery b on b.device_id = d.id
      where d.store_id = any(${`{${storeIds.join(',')}}`}::int[])) x
    group by 1, 2`);
  for (const r of rows<{ store_id: number; st: StockState; n: number }>(res)) {
    const c = out.get(r.store_id) ?? { ...EMPTY_STOCK };
    c[r.st] += r.n;
    c.total += r.n;
    out.set(r.store_id, c);
  }
  return out;
}

/** A store's packs with their state (optionally of one state), paged by SN. */
export async function stockItems(db: Executor, storeId: number, state: StockState | undefined, page: number, limit: number) {
  const res = await db.execute(sql`
    select x.*, count(*) over () as total from (
      select d.id as device_id, d.sn, d.name, ${stockStateSql} as state, d.online, b.soc, coalesce(b.state = 'charging', false) as charging,
        d.warning_level, d.store_fault,
        (select r.id from rentals r where r.device_id = d.id and r.state in (${OPEN})) as rental_id
      from devices d join stores s on s.id = d.store_id left join device_battery b on b.device_id = d.id
      where d.store_id = ${storeId}) x
    where ${state ? sql`x.state = ${state}` : sql`true`}
    order by x.sn
    limit ${limit} offset ${(page - 1) * limit}`);
  return rows<{
    device_id: number; sn: string; name: string; state: StockState; online: boolean; soc: number | null; charging: boolean;
    warning_level: number; store_fault: string | null; rental_id: number | null; total: string;
  }>(res);
}

/** How many packs of this state a store has (the stock list's total past its first page). */
export async function stockTotal(db: Executor, storeId: number, state: StockState | undefined) {
  const res = await db.execute(sql`
    select count(*)::int as n from devices d join stores s on s.id = d.store_id left join device_battery b on b.device_id = d.id
    where d.store_id = ${storeId} ${state ? sql`and ${stockStateSql} = ${state}` : sql``}`);
  return rows<{ n: number }>(res)[0]?.n ?? 0;
}

export async function codeTaken(db: Executor, code: string, exceptId?: number) {
  const [row] = await db.select({ id: stores.id }).from(stores).where(eq(stores.code, code));
  return Boolean(row && row.id !== exceptId);
}

export async function insertStore(db: Executor, values: typeof stores.$inferInsert) {
  const [row] = await db.insert(stores).values(values).returning({ id: stores.id });
  return row!.id;
}

export async function updateStore(db: Executor, id: number, set: Partial<typeof stores.$inferInsert>) {
  await db.update(stores).set({ ...set, updatedAt: new Date() }).where(eq(stores.id, id));
}

/** Of these stores, those with any rental on record. */
export async function storesWithRentals(db: Executor, ids: number[]) {
  const found = await db.selectDistinct({ id: rentals.storeId }).from(rentals).where(inArray(rentals.storeId, ids));
  return new Set(found.map((r) => r.id));
}

export async function deleteStores(db: Executor, ids: number[]) {
  await db.delete(stores).where(inArray(stores.id, ids));
}

/** Of these devices, those with an open rental (SNs). */
export async function rentedOf(db: Executor, deviceIds: number[]) {
  if (deviceIds.length === 0) return [];
  const res = await db.execute(sql`select r.device_sn as sn from rentals r
    where r.device_id = any(${`{${deviceIds.join(',')}}`}::int[]) and r.state in (${OPEN})`);
  return rows<{ sn: string }>(res).map((r) => r.sn);
}

/** Stocks packs at a store (or at none); a pack moved to another store keeps no old fault. */
export async function setStore(db: Executor, deviceIds: number[], storeId: number | null) {
  const res = await db
    .update(devices)
    .set({ storeId, ...(storeId === null ? { storeFault: null } : {}) })
    .where(inArray(devices.id, deviceIds))
    .returning({ id: devices.id });
  return res.length;
}

export async function clearFaults(db: Executor, deviceIds: number[]) {
  const res = await db
    .update(devices)
    .set({ storeFault: null })
    .where(and(inArray(devices.id, deviceIds), sql`${devices.storeFault} is not null`))
    .returning({ id: devices.id });
  return res.length;
}

/** Of these codes, those a store already has (whoever owns it: codes are unique platform-wide). */
export async function existingCodes(db: Executor, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const found = await db.select({ code: stores.code }).from(stores).where(inArray(stores.code, codes));
  return new Set(found.map((r) => r.code));
}

export async function insertStores(db: Executor, values: (typeof stores.$inferInsert)[]) {
  for (let i = 0; i < values.length; i += 500) await db.insert(stores).values(values.slice(i, i + 500));
  return values.length;
}
