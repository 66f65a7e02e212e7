import { and, eq, gte, like, lte, lt, sql, inArray } from 'drizzle-orm';
import type { EndpointParsedQuery, clientErrorApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { clientErrors } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { boundTime } from '../../lib/query/filters.js';
import { pageAndTotal } from '../../lib/query/paging.js';
import { keysetPage, keysetRows, keysetValue, type Keyset } from '../../lib/query/keyset.js';

export type ClientErrorFilter = EndpointParsedQuery<typeof clientErrorApi.list>;
export type ClientErrorRow = typeof clientErrors.$inferSelect;

export async function insertClientError(db: Executor, row: typeof clientErrors.$inferInsert) {
  await db.insert(clientErrors).values(row);
}

/** Deletes up to `limit` reports older than `days` days (oldest first, on the created index). */
export async function pruneClientErrors(db: Executor, days: number, limit: number) {
  const old = db
    .select({ id: clientErrors.id })
    .from(clientErrors)
    .where(lt(clientErrors.createdAt, sql`now() - make_interval(days => ${days})`))
    .orderBy(clientErrors.createdAt, clientErrors.id)
    .limit(limit);
  await db.delete(clientErrors).where(inArray(clientErrors.id, old));
}

function whereOf(f: Omit<ClientErrorFilter, 'page' | 'limit' | 'after'>) {
  return and(
    f.kind ? eq(clientErrors.kind, f.kind) : undefined,
    f.q ? like(sql`lower(${clientErrors.message})`, `%${escapeLike(f.q.toLowerCase())}%`) : undefined,
    f.route ? like(clientErrors.route, `${escapeLike(f.route)}%`) : undefined,
    f.version ? eq(clientErrors.version, f.version) : undefined,
    f.from ? gte(clientErrors.createdAt, boundTime(f.from)) : undefined,
    f.to ? lte(clientErrors.createdAt, boundTime(f.to)) : undefined,
  );
}

/** A page of reports, newest first by default (keyset on created_at, id like the other logs). */
export async function listClientErrors(db: Executor, f: ClientErrorFilter) {
  const where = whereOf(f);
  const keyset: Keyset = { sort: 'createdAt', order: f.order, column: clientErrors.createdAt, id: clientErrors.id, kind: 'timestamp' };
  const [rows, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) => db.select({ row: clientErrors, keyset: keysetValue(keyset) }).from(clientErrors).where(cond),
      (cond) => db.select({ id: clientErrors.id }).from(clientErrors).where(cond),
    ),
    db.select({ one: sql`1` }).from(clientErrors).where(where),
  );
  const page = keysetPage(keyset, rows.map((r) => ({ ...r, id: r.row.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => r.row) };
}

/** Up to `max` reports of the filter, for the export. */
export async function exportClientErrors(db: Executor, f: Omit<ClientErrorFilter, 'page' | 'limit' | 'after'>, max: number) {
  const dir = f.order === 'asc' ? sql`asc` : sql`desc`;
  return db
    .select()
    .from(clientErrors)
    .where(whereOf(f))
    .orderBy(sql`${clientErrors.createdAt} ${dir}, ${clientErrors.id} ${dir}`)
    .limit(max);
}
