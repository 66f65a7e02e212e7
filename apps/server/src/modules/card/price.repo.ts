import { and, asc, desc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { EndpointParsedQuery, cardPriceApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { cardPrices } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';

export type PriceRow = typeof cardPrices.$inferSelect;

export async function listPrices(db: Executor, f: EndpointParsedQuery<typeof cardPriceApi.list>) {
  const where = and(
    f.q ? ilike(cardPrices.plan, `%${escapeLike(f.q)}%`) : undefined,
    f.kind ? eq(cardPrices.kind, f.kind) : undefined,
    f.enabled !== undefined ? eq(cardPrices.enabled, f.enabled) : undefined,
  );
  const dir = f.order === 'asc' ? asc : desc;
  // A price list is short (plans and packages): an exact count is cheap.
  const [items, [count]] = await Promise.all([
    db.select().from(cardPrices).where(where).orderBy(asc(cardPrices.kind), dir(cardPrices[f.sort]), dir(cardPrices.id)).limit(f.limit).offset((f.page - 1) * f.limit),
    db.select({ n: sql<number>`count(*)::int` }).from(cardPrices).where(where),
  ]);
  return { total: count?.n ?? 0, items };
}

/** The prices an order may be made at: enabled, renewals first, then by plan. */
export function enabledPrices(db: Executor) {
  return db.select().from(cardPrices).where(eq(cardPrices.enabled, true)).orderBy(desc(cardPrices.kind), asc(cardPrices.plan)).limit(500);
}

export async function findPrices(db: Executor, ids: number[]) {
  return ids.length === 0 ? [] : db.select().from(cardPrices).where(inArray(cardPrices.id, ids));
}

export async function insertPrice(db: Executor, p: typeof cardPrices.$inferInsert) {
  const [row] = await db.insert(cardPrices).values(p).returning({ id: cardPrices.id });
  return row!.id;
}

export async function updatePrice(db: Executor, id: number, set: Partial<typeof cardPrices.$inferInsert>) {
  await db.update(cardPrices).set({ ...set, updatedAt: new Date() }).where(eq(cardPrices.id, id));
}

/** Orders keep their terms (copied); their `price_id` becomes null. */
export async function deletePrices(db: Executor, ids: number[]) {
  const rows = await db.delete(cardPrices).where(inArray(cardPrices.id, ids)).returning({ id: cardPrices.id });
  return rows.length;
}
