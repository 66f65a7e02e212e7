import { and, asc, desc, eq, gte, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import { FAULTY_ALARM_LEVEL, type EndpointParsedQuery, type RentalState, type ReturnCheck, type rentalApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { devices, rentalEvents, rentals, stores } from '../../db/schema/index.js';
import { stockStateSql } from './store.repo.js';
import { escapeLike } from '../../lib/sql.js';
import { pageAndTotal } from '../../lib/query/paging.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * Rentals a caller sees: those of the stores owned in its subtree. The stores are collected once
 * (an InitPlan), so `store_id = any(…)` is an index condition.
 */
export function visibleRentals(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  return sql`${rentals.storeId} = any(array(select s.id from stores s where s.owner_path like ${`${escapeLike(scopePath)}%`}))`;
}

const columns = {
  id: rentals.id,
  kind: rentals.kind,
  state: rentals.state,
  storeId: rentals.storeId,
  storeName: stores.name,
  deviceId: rentals.deviceId,
  deviceSn: rentals.deviceSn,
  deviceName: rentals.deviceName,
  customerName: rentals.customerName,
  customerPhone: rentals.customerPhone,
  idCardMasked: rentals.idCardMasked,
  email: rentals.email,
  currency: rentals.currency,
  depositCents: rentals.depositCents,
  pricePerDayCents: rentals.pricePerDayCents,
  totalPriceCents: rentals.totalPriceCents,
  chargedCents: rentals.chargedCents,
  startAt: rentals.startAt,
  dueAt: rentals.dueAt,
  returnedAt: rentals.returnedAt,
  remark: rentals.remark,
  returnCheck: rentals.returnCheck,
  deviceLng: devices.lng,
  deviceLat: devices.lat,
  deviceWarningLevel: devices.warningLevel,
  createdAt: rentals.createdAt,
};
export type RentalRow = Awaited<ReturnType<typeof findRental>>;

type ListQuery = EndpointParsedQuery<typeof rentalApi.list> & { scopePath?: string };

function filterOf(f: Omit<ListQuery, 'page' | 'limit' | 'sort' | 'order'>) {
  return and(
    visibleRentals(f.scopePath),
    f.storeId ? eq(rentals.storeId, f.storeId) : undefined,
    f.state ? eq(rentals.state, f.state) : undefined,
    f.kind ? eq(rentals.kind, f.kind) : undefined,
    f.phone ? like(rentals.customerPhone, `${escapeLike(f.phone)}%`) : undefined,
    f.sn ? sql`lower(${rentals.deviceSn}) like ${`%${escapeLike(f.sn.toLowerCase())}%`}` : undefined,
    f.from ? gte(rentals.startAt, new Date(f.from)) : undefined,
    f.to ? lt(rentals.startAt, new Date(f.to)) : undefined,
  );
}

const orderOf = (f: Pick<ListQuery, 'sort' | 'order'>) => {
  const dir = f.order === 'asc' ? asc : desc;
  return [dir(rentals[f.sort]), dir(rentals.id)];
};

const base = (db: Executor) =>
  db.select(columns).from(rentals).innerJoin(stores, eq(stores.id, rentals.storeId)).leftJoin(devices, eq(devices.id, rentals.deviceId));

export async function listRentals(db: Executor, f: ListQuery) {
  const where = filterOf(f);
  const [items, total] = await pageAndTotal(
    db,
    f,
    base(db).where(where).orderBy(...orderOf(f)).limit(f.limit).offset((f.page - 1) * f.limit),
    db.select({ one: sql`1` }).from(rentals).where(where),
  );
  return { ...total, items };
}

export async function exportRentals(db: Executor, f: Omit<ListQuery, 'page' | 'limit'>, max: number) {
  return base(db).where(filterOf(f)).orderBy(...orderOf(f)).limit(max);
}

export async function findRental(db: Executor, id: number, scopePath: string | undefined) {
  const [row] = await base(db).where(and(eq(rentals.id, id), visibleRentals(scopePath)));
  return row;
}

export async function eventsOf(db: Executor, rentalId: number) {
  return db
    .select({ from: rentalEvents.fromState, to: rentalEvents.toState, at: rentalEvents.at, by: rentalEvents.byName })
    .from(rentalEvents)
    .where(eq(rentalEvents.rentalId, rentalId))
    .orderBy(asc(rentalEvents.at), asc(rentalEvents.id));
}

/** Where a pack is stocked and whether it is faulty now (a recorded fault or an alarm of level ≥ 3). */
export async function packPlace(db: Executor, deviceId: number) {
  const [row] = await db
    .select({ storeId: devices.storeId, faulty: sql<boolean>`(${devices.storeFault} is not null or ${devices.warningLevel} >= ${FAULTY_ALARM_LEVEL})` })
    .from(devices)
    .where(eq(devices.id, deviceId));
  return row;
}

export async function insertRental(db: Executor, values: typeof rentals.$inferInsert) {
  const [row] = await db.insert(rentals).values(values).returning({ id: rentals.id });
  return row!.id;
}

export async function insertEvent(db: Executor, e: typeof rentalEvents.$inferInsert) {
  await db.insert(rentalEvents).values(e);
}

/**
 * One transition: a guarded update that changes the rental only while it is in one of `from`
 * (so of two concurrent requests one wins and the other finds nothing to change). Answers the
 * rental's device and store when it changed, else undefined.
 */
export async function transition(db: Executor, id: number, from: readonly RentalState[], set: Partial<typeof rentals.$inferInsert>) {
  const [row] = await db
    .update(rentals)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(rentals.id, id), inArray(rentals.state, [...from])))
    .returning({ deviceId: rentals.deviceId, storeId: rentals.storeId });
  return row;
}

/** What a return earns: the started days × the day price (at least one day), or the total price. */
export const chargeAt = (at: Date) =>
  sql<number>`coalesce(${rentals.totalPriceCents},
    ${rentals.pricePerDayCents} * greatest(1, ceil(extract(epoch from (${at.toISOString()}::timestamptz - ${rentals.startAt})) / 86400))::int)`;

export async function setPack(db: Executor, deviceId: number, set: { storeId?: number | null; storeFault?: string | null }) {
  await db.update(devices).set(set).where(eq(devices.id, deviceId));
}

/** The live figures a return check reads: the battery summary and the active alarms, worst first. */
export async function liveOf(db: Executor, deviceId: number, language: string) {
  const message = sql.raw(language === 'zh' ? 'a.message' : language === 'es' ? "coalesce(nullif(a.message_es, ''), a.message)" : language === 'ja' ? "coalesce(nullif(a.message_ja, ''), a.message)" : "coalesce(nullif(a.message_en, ''), a.message)");
  const res = await db.execute(sql`
    select b.soc, b.cell_delta_mv, b.max_cell_temp, b.updated_at,
      coalesce((select json_agg(json_build_object('level', a.level, 'message', a.msg, 'startedAt', a.started_at) order by a.level desc, a.started_at desc)
        from (select a.level, ${message} as msg, a.started_at from alarms a where a.device_id = x.id and a.ended_at is null
              order by a.level desc, a.started_at desc limit 20) a), '[]'::json) as alarms
    from (select ${deviceId}::int as id) x left join device_battery b on b.device_id = x.id`);
  return rows<{
    soc: number | null;
    cell_delta_mv: number | null;
    max_cell_temp: number | null;
    updated_at: Date | string | null;
    alarms: ReturnCheck['alarms'];
  }>(res)[0]!;
}

/**
 * The overdue job: every active rental due before `now` becomes overdue, each with its event and
 * an operation-log row (by "system", in its store owner's line), in one statement. The update is
 * guarded by `state = 'active'`, so two instances running it at once change each rental once.
 */
export async function markOverdue(db: Executor, now: Date) {
  const res = await db.execute(sql`
    with changed as (
      update rentals r set state = 'overdue', updated_at = now()
      where r.state = 'active' and r.due_at < ${now.toISOString()}::timestamptz
      returning r.id, r.store_id, r.device_sn, r.customer_name, r.due_at),
    events as (
      insert into rental_events (rental_id, from_state, to_state, by_name) select c.id, 'active', 'overdue', 'system' from changed c)
    insert into operation_logs (username, user_path, role, action, entity, entity_id, entity_name, summary, result)
    select 'system', s.owner_path, '', 'rent.overdue', 'rent', c.id::text, c.device_sn,
      json_build_object('customer', c.customer_name, 'dueAt', c.due_at)::text, 'success'
    from changed c join stores s on s.id = c.store_id
    returning entity_id`);
  return rows<{ entity_id: string }>(res).map((r) => Number(r.entity_id));
}

/** The agent view's counts and revenue, each one statement over the caller's stores. */
export async function summary(
  db: Executor,
  f: { scopePath: string | undefined; storeId?: number; period: 'day' | 'week' | 'month'; from: Date; to: Date; tz: string },
) {
  const storeScope = and(
    f.scopePath ? like(stores.ownerPath, `${escapeLike(f.scopePath)}%`) : undefined,
    f.storeId ? eq(stores.id, f.storeId) : undefined,
  );
  const storeWhere = storeScope ? sql`where ${storeScope}` : sql``;
  const rentalScope = and(visibleRentals(f.scopePath), f.storeId ? eq(rentals.storeId, f.storeId) : undefined);
  const rentalWhere = rentalScope ? sql`and ${rentalScope}` : sql``;
  const [storeCounts, stock, open, revenue] = await Promise.all([
    db.execute(sql`select count(*)::int as total, count(*) filter (where status = 'open')::int as open from stores ${storeWhere}`),
    db.execute(sql`
      select x.st, count(*)::int as n from (
        select ${stockStateSql} as st
        from devices d join stores s on s.id = d.store_id left join device_battery b on b.device_id = d.id
        where d.store_id = any(array(select stores.id from stores ${storeWhere}))) x
      group by 1`),
    db.execute(sql`select state, count(*)::int as n from rentals where state in ('reserved', 'active', 'overdue') ${rentalWhere} group by 1`),
    db.execute(sql`
      select to_char(date_trunc(${f.period}, settled_at at time zone ${f.tz}), 'YYYY-MM-DD') as bucket, currency,
        sum(charged_cents)::bigint as charged, count(*)::int as n
      from rentals
      where settled_at >= ${f.from.toISOString()}::timestamptz and settled_at < ${f.to.toISOString()}::timestamptz ${rentalWhere}
      group by 1, 2 order by 1, 2`),
  ]);
  return {
    stores: rows<{ total: number; open: number }>(storeCounts)[0]!,
    stock: rows<{ st: string; n: number }>(stock),
    open: rows<{ state: string; n: number }>(open),
    revenue: rows<{ bucket: string; currency: string; charged: string; n: number }>(revenue),
  };
}

/** The pack as the command channel addresses it, and whether its type has a writable switch `semaphoreId`. */
export async function switchable(db: Executor, deviceId: number, semaphoreId: string) {
  const res = await db.execute(sql`
    select d.id, d.sn, exists (select 1 from device_type_params p where p.type_id = d.type_id and p.semaphore_id = ${semaphoreId} and p.writable) as has
    from devices d where d.id = ${deviceId}`);
  return rows<{ id: number; sn: string; has: boolean }>(res)[0];
}

/**
 * The packs a rental import names by SN that the caller may change (owned in its subtree or in a
 * project owned there), with their store and whether an open rental or a sale holds them.
 */
export async function importPacks(db: Executor, scopePath: string | undefined, sns: string[]) {
  if (sns.length === 0) return [];
  const scope = scopePath === undefined ? undefined : `${escapeLike(scopePath)}%`;
  const res = await db.execute(sql`
    select d.id, d.sn, d.name, d.store_id,
      exists (select 1 from rentals r where r.device_id = d.id and r.state in ('reserved', 'active', 'overdue')) as rented,
      exists (select 1 from rentals r where r.device_id = d.id and r.state = 'sold') as sold
    from devices d
    where d.sn = any(select jsonb_array_elements_text(${JSON.stringify(sns)}::jsonb))
      ${scope === undefined ? sql`` : sql`and (d.owner_path like ${scope} or exists (select 1 from projects p where p.id = d.project_id and p.owner_path like ${scope}))`}`);
  return rows<{ id: number; sn: string; name: string; store_id: number | null; rented: boolean; sold: boolean }>(res);
}

/**
 * Imported rentals and sales, in the import's transaction: the rows (the open-rental index lets
 * a pack another request rented meanwhile fail the whole import), their first events, and the
 * sold packs out of their store's stock.
 */
export async function insertImported(db: Executor, values: (typeof rentals.$inferInsert)[], by: { userId: number; username: string }) {
  for (let i = 0; i < values.length; i += 500) {
    const ids = await db.insert(rentals).values(values.slice(i, i + 500)).returning({ id: rentals.id, state: rentals.state });
    await db.insert(rentalEvents).values(ids.map((r) => ({ rentalId: r.id, fromState: null, toState: r.state, byUserId: by.userId, byName: by.username })));
  }
  const sold = values.filter((v) => v.state === 'sold' && v.deviceId).map((v) => v.deviceId!);
  if (sold.length > 0) await db.update(devices).set({ storeId: null, storeFault: null }).where(inArray(devices.id, sold));
  return values.length;
}
