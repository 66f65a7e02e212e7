import { and, asc, desc, eq, gte, inArray, like, lt, notInArray, or, sql } from 'drizzle-orm';
import type { EndpointParsedQuery, PaymentOutcome, cardOrderApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { cardOrderItems, cardOrders, cardPaymentEvents, simCards } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { pageAndTotal } from '../../lib/query/paging.js';

export type OrderFilter = EndpointParsedQuery<typeof cardOrderApi.list> & { scopePath?: string };

/** Orders a caller sees: created in its subtree (the order's owner line). */
const visibleOrders = (scopePath: string | undefined) => (scopePath ? like(cardOrders.ownerPath, `${escapeLike(scopePath)}%`) : undefined);

const columns = {
  id: cardOrders.id,
  orderNo: cardOrders.orderNo,
  kind: cardOrders.kind,
  plan: cardOrders.plan,
  months: cardOrders.months,
  topupMb: cardOrders.topupMb,
  unitPriceCents: cardOrders.unitPriceCents,
  amountCents: cardOrders.amountCents,
  status: cardOrders.status,
  ownerPath: cardOrders.ownerPath,
  remarks: cardOrders.remarks,
  createdBy: cardOrders.createdByName,
  createdAt: cardOrders.createdAt,
  payBefore: cardOrders.payBefore,
  paidAt: cardOrders.paidAt,
  provider: cardOrders.provider,
  transactionId: cardOrders.transactionId,
  codeUrl: cardOrders.codeUrl,
  priceId: cardOrders.priceId,
  cardCount: sql<number>`(select count(*)::int from ${cardOrderItems} i where i.order_id = ${cardOrders.id})`,
  iccids: sql<string[]>`array(select i.iccid from ${cardOrderItems} i where i.order_id = ${cardOrders.id} order by i.iccid limit 3)`,
};
export type OrderRow = Awaited<ReturnType<typeof findOrders>>[number];

export async function listOrders(db: Executor, f: OrderFilter) {
  const q = f.q ? `%${escapeLike(f.q)}%` : undefined;
  const where = and(
    visibleOrders(f.scopePath),
    f.status ? eq(cardOrders.status, f.status) : undefined,
    f.kind ? eq(cardOrders.kind, f.kind) : undefined,
    f.cardId ? sql`exists (select 1 from ${cardOrderItems} i where i.order_id = ${cardOrders.id} and i.card_id = ${f.cardId})` : undefined,
    // The orders whose number, or one of whose cards' ICCID or MSISDN, holds the text: each found
    // through its trigram index (migration 0070). An `exists` per order ILIKEd every order's cards,
    // 38 ms of 20,000 orders for the page and again for the count.
    q
      ? sql`${cardOrders.id} in (select o.id from ${cardOrders} o where o.order_no ilike ${q}
          union select i.order_id from ${cardOrderItems} i where i.iccid ilike ${q} or i.msisdn ilike ${q})`
      : undefined,
  );
  const dir = f.order === 'asc' ? asc : desc;
  const [items, total] = await pageAndTotal(
    db,
    f,
    db.select(columns).from(cardOrders).where(where).orderBy(dir(cardOrders[f.sort]), dir(cardOrders.id)).limit(f.limit).offset((f.page - 1) * f.limit),
    db.select({ one: sql`1` }).from(cardOrders).where(where),
  );
  return { ...total, items };
}

export async function findOrders(db: Executor, ids: number[], scopePath: string | undefined) {
  if (ids.length === 0) return [];
  return db.select(columns).from(cardOrders).where(and(inArray(cardOrders.id, ids), visibleOrders(scopePath)));
}

export async function orderItems(db: Executor, orderId: number) {
  return db.select().from(cardOrderItems).where(eq(cardOrderItems.orderId, orderId)).orderBy(asc(cardOrderItems.iccid));
}

export async function insertOrder(
  db: Executor,
  order: typeof cardOrders.$inferInsert,
  items: { cardId: number; iccid: string; msisdn: string; expiresBefore: string | null }[],
) {
  const [row] = await db.insert(cardOrders).values(order).returning({ id: cardOrders.id });
  await db.insert(cardOrderItems).values(items.map((i) => ({ ...i, orderId: row!.id })));
  return row!.id;
}

/** Changes an order while it is in status `from`; false when it no longer is (paid or expired meanwhile). */
export async function updateOrder(db: Executor, id: number, set: Partial<typeof cardOrders.$inferInsert>, from: string) {
  const rows = await db
    .update(cardOrders)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(cardOrders.id, id), eq(cardOrders.status, from)))
    .returning({ id: cardOrders.id });
  return rows.length > 0;
}

/**
 * Marks an unpaid order paid with the provider's transaction: the one guard of "exactly once"
 * (the update matches only while the order is unpaid; a replay or a concurrent one matches nothing).
 */
export async function markPaid(db: Executor, orderNo: string, transactionId: string, paidAt: Date, amountCents: number) {
  const [row] = await db
    .update(cardOrders)
    .set({ status: 'paid', transactionId, paidAt, updatedAt: new Date() })
    .where(
      and(
        eq(cardOrders.orderNo, orderNo),
        // The amount as it is now (an edit between the check and this update changes it).
        eq(cardOrders.amountCents, amountCents),
        // Unpaid; or expired by our clock although the customer paid before the deadline the
        // provider was given (time_expire): the notification arrived late, the money is ours.
        or(eq(cardOrders.status, 'unpaid'), and(eq(cardOrders.status, 'expired'), gte(cardOrders.payBefore, paidAt))),
      ),
    )
    .returning({ id: cardOrders.id, kind: cardOrders.kind, plan: cardOrders.plan, months: cardOrders.months, topupMb: cardOrders.topupMb });
  return row;
}

export async function orderByNo(db: Executor, orderNo: string) {
  const [row] = await db
    .select({ id: cardOrders.id, status: cardOrders.status, amountCents: cardOrders.amountCents, transactionId: cardOrders.transactionId })
    .from(cardOrders)
    .where(eq(cardOrders.orderNo, orderNo));
  return row;
}

export async function setItemExpiry(db: Executor, orderId: number, rows: { id: number; expiresAt: string | null }[]) {
  for (const r of rows) {
    await db
      .update(cardOrderItems)
      .set({ expiresAfter: r.expiresAt })
      .where(and(eq(cardOrderItems.orderId, orderId), eq(cardOrderItems.cardId, r.id)));
  }
}

/** Before a paid renewal moves its cards to the order's plan: the plan each card was on. */
export async function recordPlansBefore(db: Executor, orderId: number) {
  await db.execute(sql`
    update ${cardOrderItems} i set plan_before = c.plan
    from ${simCards} c where c.id = i.card_id and i.order_id = ${orderId}`);
}

/**
 * A refunded renewal: each card still at the expiry the order gave it goes back to the expiry it
 * had; a card renewed again since loses the order's months; a card still on the order's plan goes
 * back to its plan before. Answers the cards' expiry after the refund.
 */
export async function revertRenewal(db: Executor, orderId: number, months: number, plan: string) {
  const res = await db.execute(sql`
    update ${simCards} c set
      expires_at = case
        when c.expires_at is not distinct from i.expires_after then i.expires_before
        else (c.expires_at - make_interval(months => ${months}::int))::date end,
      plan = case when i.plan_before is not null and c.plan = ${plan} then i.plan_before else c.plan end,
      expiry_notified_for = null,
      updated_at = now()
    from ${cardOrderItems} i
    where i.order_id = ${orderId} and i.card_id = c.id
    returning c.id, c.expires_at::text as expires_at`);
  return (res as unknown as { rows: { id: number; expires_at: string | null }[] }).rows;
}

export async function itemCardIds(db: Executor, orderId: number): Promise<number[]> {
  const rows = await db.select({ id: cardOrderItems.cardId }).from(cardOrderItems).where(eq(cardOrderItems.orderId, orderId));
  return rows.flatMap((r) => (r.id === null ? [] : [r.id]));
}

/** Deletes the orders that have no payment (not paid, not refunded); how many were deleted. */
export async function deleteOrders(db: Executor, ids: number[]) {
  const rows = await db
    .delete(cardOrders)
    .where(and(inArray(cardOrders.id, ids), notInArray(cardOrders.status, ['paid', 'refunded'])))
    .returning({ id: cardOrders.id });
  return rows.length;
}

/** Unpaid orders past their deadline become `expired`. */
export async function expireDue(db: Executor, now = new Date()) {
  const rows = await db
    .update(cardOrders)
    .set({ status: 'expired', codeUrl: null, updatedAt: now })
    .where(and(eq(cardOrders.status, 'unpaid'), lt(cardOrders.payBefore, now)))
    .returning({ id: cardOrders.id });
  return rows.length;
}

export async function logPayment(
  db: Executor,
  e: { orderNo: string; provider: string; outcome: PaymentOutcome; amountCents?: number | null; transactionId?: string; detail?: string },
) {
  await db.insert(cardPaymentEvents).values({
    orderNo: e.orderNo.slice(0, 64),
    provider: e.provider,
    outcome: e.outcome,
    amountCents: e.amountCents ?? null,
    transactionId: (e.transactionId ?? '').slice(0, 64),
    detail: (e.detail ?? '').slice(0, 256),
  });
}
