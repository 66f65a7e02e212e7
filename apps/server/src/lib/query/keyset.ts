import { and, asc, desc, inArray, or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ErrorCode, encodeListCursor, type ListCursor } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { refuse } from '../errors.js';
import { COUNT_CAP, pageAndTotal } from './paging.js';

/**
 * Keyset pages (`after` / `next`, the contract's `ListCursor`): a list ordered by one column and
 * then its id answers the rows after the previous page's last one with a row comparison that its
 * index answers directly — `(created_at, id) < (…, …)` starts the index scan at the cursor, where
 * an offset of 100,000 reads and drops 100,000 index entries first.
 *
 * The sort value travels as text exactly as PostgreSQL holds it (timestamps to the microsecond:
 * a JavaScript Date would round them to the millisecond and skip or repeat rows that share one).
 */
export interface Keyset {
  /** The list's sort name and order, written into the cursor and checked when it comes back. */
  sort: string;
  order: 'asc' | 'desc';
  column: AnyColumn | SQL;
  /** The tie-breaker of the order: the row's id (unique, not null). */
  id: AnyColumn | SQL;
  kind: 'timestamp' | 'text' | 'integer';
  /**
   * The column may be null, and where the nulls come: `high` (PostgreSQL's default: a null sorts
   * above every value, last ascending and first descending: "not yet ended" is the latest), or
   * `lastWhenDesc` (last descending, first ascending: "never seen" is the stalest). Either way one
   * index `(column, id)` in that order serves both directions, and the list is read in up to two
   * runs (`keysetRuns`), each a range of the index.
   */
  nulls?: 'high' | 'lastWhenDesc';
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The select expression giving the sort value of a row as the cursor's text. */
export function keysetValue(k: Keyset): SQL<string | null> {
  if (k.kind === 'timestamp') {
    return sql<string | null>`to_char(${k.column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  }
  return sql<string | null>`${k.column}::text`;
}

function refuseCursor(): never {
  throw refuse(ErrorCode.VALIDATION, 'cursorOtherSort', { field: 'after' });
}

/** The cursor's value as SQL of the column's type; null for a row without one. */
function typedValue(k: Keyset, cursor: ListCursor): SQL | null {
  const { value } = cursor;
  if (cursor.sort !== k.sort || cursor.order !== k.order) refuseCursor();
  if (value === null) {
    if (!k.nulls) refuseCursor();
    return null;
  }
  let typed: SQL;
  if (k.kind === 'timestamp') {
    // The shape keysetValue writes, and a real instant (not 2026-02-30): PostgreSQL must not be
    // the one to refuse it.
    if (!TIMESTAMP.test(value) || new Date(value).toISOString().slice(0, 23) !== value.slice(0, 23)) refuseCursor();
    typed = sql`${value}::timestamptz`;
  } else if (k.kind === 'integer') {
    if (!/^-?\d{1,10}$/.test(value)) refuseCursor();
    typed = sql`${Number(value)}::int`;
  } else {
    typed = sql`${value}::text`;
  }
  return typed;
}

function rowsAfter(k: Keyset, typed: SQL, id: unknown): SQL {
  return k.order === 'desc' ? sql`(${k.column}, ${k.id}) < (${typed}, ${id})` : sql`(${k.column}, ${k.id}) > (${typed}, ${id})`;
}

/**
 * The list's ORDER BY: the column, then the id, both in the keyset's order; the nulls where
 * `nulls` puts them (and no nulls clause on a column without nulls: on a descending index it
 * would keep PostgreSQL from reading the order off the index).
 *
 * `lastWhenDesc` is read off one index `(column desc nulls last, id desc nulls last)`, forwards
 * or backwards, so the id takes the column's nulls clause too: the id is never null, but
 * PostgreSQL only reads an order off an index whose nulls clauses match it. With a bare
 * `id desc` (nulls first) it read the index for the column alone and sorted each run of equal
 * values by id, and devices marked offline by one sweep share one "last seen".
 */
export function keysetOrder(k: Keyset): SQL[] {
  const dir = k.order === 'asc' ? asc : desc;
  if (!k.nulls || k.nulls === 'high') return [dir(k.column), dir(k.id)];
  const nulls = k.order === 'asc' ? sql`nulls first` : sql`nulls last`;
  return [sql`${dir(k.column)} ${nulls}`, sql`${dir(k.id)} ${nulls}`];
}

/**
 * The rows after the cursor, as consecutive runs of the list's order, each a range of its index:
 * read them in turn until the page is full. One run for a column without nulls; with nulls, the
 * rows with a value and those without are two runs, in the order of `nulls`.
 */
function keysetRuns(k: Keyset, cursor: ListCursor): SQL[] {
  const typed = typedValue(k, cursor);
  const id = cursor.id;
  if (!k.nulls) return [rowsAfter(k, typed!, id)];
  const isNull = sql`${k.column} is null`;
  const notNull = sql`${k.column} is not null`;
  const nullsAfter = sql`${isNull} and ${k.id} ${k.order === 'desc' ? sql`<` : sql`>`} ${id}`;
  const nullsComeLast = k.nulls === 'high' ? k.order === 'asc' : k.order === 'desc';
  if (nullsComeLast) return typed ? [rowsAfter(k, typed, id), isNull] : [nullsAfter];
  return typed ? [rowsAfter(k, typed, id)] : [nullsAfter, notNull];
}

/** A list query as `keysetRows` needs it: ordered, then limited (and offset), it gives rows. */
interface Orderable<R> {
  orderBy(...order: SQL[]): SQLWrapper &
    PromiseLike<R[]> & { limit(n: number): SQLWrapper & PromiseLike<R[]> & { offset(n: number): SQLWrapper & PromiseLike<R[]> } };
}

/**
 * The rows of a page and one more (`keysetPage` tells from it whether `next` is due) of a list
 * whose rows are `rows(condition)` (its tables and joins, filtered by the condition) under
 * `where`, in the keyset's order:
 * - after a cursor, run by run (`keysetRuns`): each run starts its index scan at the cursor;
 * - the first page: the first rows;
 * - a page past the first by offset: its ids are chosen first by `ids(condition)` (only the
 *   tables the filters need, selecting the id), so the offset walks the sort's index without
 *   reading or joining the rows it skips, and only the page's rows are read. With `idsFirst`,
 *   every page so (a list whose filter the ids' index answers alone).
 */
export async function keysetRows<R>(
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  where: SQL | undefined,
  rows: (cond: SQL | undefined) => Orderable<R>,
  ids: (cond: SQL | undefined) => Orderable<{ id: number }>,
  idsFirst = false,
): Promise<R[]> {
  const order = keysetOrder(k);
  if (f.after) {
    const found: R[] = [];
    for (const run of keysetRuns(k, f.after)) {
      found.push(...(await rows(and(where, run)).orderBy(...order).limit(f.limit + 1 - found.length)));
      if (found.length > f.limit) break;
    }
    return found;
  }
  const offset = (f.page - 1) * f.limit;
  if (offset === 0 && !idsFirst) return rows(where).orderBy(...order).limit(f.limit + 1);
  const chosen = ids(where).orderBy(...order).limit(f.limit + 1).offset(offset);
  return rows(sql`${k.id} in (select p.id from (${chosen}) p)`).orderBy(...order);
}

/**
 * The page and its `next`: the query asked for `limit + 1` rows, each with its cursor value as
 * `keyset` and its `id`; the extra row only says that more follow.
 */
export function keysetPage<R extends { keyset: string | null; id: number }>(
  k: Keyset,
  rows: R[],
  limit: number,
): { rows: R[]; next?: string } {
  if (rows.length <= limit) return { rows };
  const page = rows.slice(0, limit);
  const last = page[page.length - 1]!;
  return { rows: page, next: encodeListCursor({ sort: k.sort, order: k.order, value: last.keyset, id: last.id }) };
}

/**
 * The total and the page's ids (and one more, for `next`) of a list that matches at most
 * COUNT_CAP rows, from one read of its matches: `matches` selects each matching row's `id` and
 * (no order, no limit) the sort value as `v`, or `value` gives it from `m.id` (looked up only when
 * the page is sorted). They are counted up to the cap and, when the count is exact, sorted and
 * paged in memory (after the cursor, or by offset). When more match, no ids: the caller walks
 * the sort's index, where matches that many are dense enough to come soon, and has its total.
 *
 * Walking the sort's index for a few matches may pass most of the table: an SN range created
 * together, a small agent's devices, a text term the planner guesses twenty times too common
 * (0.3–2.7 s at a million devices). Counting the matches and then reading them again for the page
 * paid a broad trigram term twice.
 */
export async function fewMatches(
  db: Executor,
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  matches: SQL,
  value: SQL = sql`m.v`,
): Promise<{ total: number; exact: boolean; ids?: number[] }> {
  const m: Keyset = { ...k, column: value, id: sql`m.id` };
  const after = f.after ? or(...keysetRuns(m, f.after)) : undefined;
  const offset = f.after ? 0 : (f.page - 1) * f.limit;
  const cap = sql.raw(String(COUNT_CAP));
  // The page is sorted only when the count is exact (a one-time filter on the lateral side).
  const res = await db.execute(sql`with m as materialized (${matches} limit ${sql.raw(String(COUNT_CAP + 1))})
    select c.n, p.id from (select count(*)::int as n from m) c
    left join lateral (select m.id from m where c.n <= ${cap} ${after ? sql`and ${after}` : sql``}
      order by ${sql.join(keysetOrder(m), sql`, `)} limit ${f.limit + 1} offset ${offset}) p on true`);
  const rows = (res as unknown as { rows: { n: number; id: number | null }[] }).rows;
  const n = Number(rows[0]?.n ?? 0);
  if (n > COUNT_CAP) return { total: COUNT_CAP, exact: false };
  return { total: n, exact: true, ids: rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)])) };
}

/**
 * A keyset list's page, its capped total and `next`: from `few` when it finds the matches few
 * (their ids sorted; only those rows read), else by `keysetRows` with the total `few` counted, or
 * `pageAndTotal`'s count of `matches` when there is no `few` (a list without conditions).
 */
export async function keysetList<R extends { keyset: string | null; id: number }>(
  db: Executor,
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  o: {
    where: SQL | undefined;
    rows: (cond: SQL | undefined) => Orderable<R>;
    ids: (cond: SQL | undefined) => Orderable<{ id: number }>;
    idsFirst?: boolean;
    matches: SQLWrapper;
    few?: () => ReturnType<typeof fewMatches>;
  },
): Promise<{ total: number; exact: boolean; next?: string; rows: R[] }> {
  const counted = o.few ? await o.few() : undefined;
  if (counted?.ids) {
    const found = counted.ids.length ? await o.rows(inArray(sql`${k.id}`, counted.ids)).orderBy(...keysetOrder(k)) : [];
    return { total: counted.total, exact: counted.exact, ...keysetPage(k, found, f.limit) };
  }
  const rows = keysetRows(k, f, o.where, o.rows, o.ids, o.idsFirst);
  const [found, total] = counted
    ? [await rows, { total: counted.total, exact: counted.exact }]
    : await pageAndTotal(db, f, rows, o.matches);
  return { ...total, ...keysetPage(k, found, f.limit) };
}
