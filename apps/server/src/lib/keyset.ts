import { and, asc, desc, sql, type AnyColumn, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { ErrorCode, encodeListCursor, type ListCursor } from '@iot/contract';
import { refuse } from './errors.js';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { placeholders, runPage, runPrepared, type Bind, type Prepared } from './sql.js';
import { idArray } from './paging.js';

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
  column: AnyColumn;
  /** The tie-breaker of the order: the row's id (unique, not null). */
  id: AnyColumn;
  kind: 'timestamp' | 'text' | 'integer';
  /**
   * The column may be null, and where the nulls come: `last` in both orders, or `lastWhenDesc`
   * (last descending, first ascending: one index `(column desc nulls last, id desc nulls last)`
   * read either way). Such a list is read in up to two runs (`keysetRuns`), each a range of the index.
   */
  nulls?: 'last' | 'lastWhenDesc';
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

/**
 * The cursor's value as SQL of the column's type; null for a row without one. With
 * `placeholders()`'s bind the value is the placeholder `k_value`.
 */
function typedValue(k: Keyset, cursor: ListCursor, bind: Bind): SQL | null {
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
    typed = sql`${bind('k_value', value)}::timestamptz`;
  } else if (k.kind === 'integer') {
    if (!/^-?\d{1,10}$/.test(value)) refuseCursor();
    typed = sql`${bind('k_value', Number(value))}::int`;
  } else {
    typed = sql`${bind('k_value', value)}::text`;
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
 * values by id — 33,000 devices marked offline by one sweep share one "last seen": 96 ms.
 */
export function keysetOrder(k: Keyset): SQL[] {
  const dir = k.order === 'asc' ? asc : desc;
  if (!k.nulls) return [dir(k.column), dir(k.id)];
  const nulls = k.nulls === 'lastWhenDesc' && k.order === 'asc' ? sql`nulls first` : sql`nulls last`;
  return [sql`${dir(k.column)} ${nulls}`, k.nulls === 'lastWhenDesc' ? sql`${dir(k.id)} ${nulls}` : dir(k.id)];
}

/**
 * The rows after the cursor, as consecutive runs of the list's order, each a range of its index:
 * read them in turn until the page is full. One run for a column without nulls; with nulls, the
 * rows with a value and those without are two runs, in the order of `nulls`.
 */
function keysetRuns(k: Keyset, cursor: ListCursor, bind: Bind): SQL[] {
  const typed = typedValue(k, cursor, bind);
  const id = bind('k_id', cursor.id);
  if (!k.nulls) return [rowsAfter(k, typed!, id)];
  const isNull = sql`${k.column} is null`;
  const notNull = sql`${k.column} is not null`;
  const nullsAfter = sql`${isNull} and ${k.id} ${k.order === 'desc' ? sql`<` : sql`>`} ${id}`;
  if (k.nulls === 'last' || k.order === 'desc') {
    return typed ? [rowsAfter(k, typed, id), isNull] : [nullsAfter];
  }
  return typed ? [rowsAfter(k, typed, id)] : [nullsAfter, notNull];
}

/** A list query limited (and offset): it gives rows, is SQL (a subquery) and can be prepared. */
interface Limited<R> extends PromiseLike<R[]>, SQLWrapper {
  prepare(name: string): Prepared<R[]>;
}

/** A list query as `keysetListRows` needs it: ordered, then limited (and offset), it gives rows. */
interface Orderable<R> {
  orderBy(...order: SQL[]): Limited<R> & {
    limit(n: number | Placeholder): Limited<R> & { offset(n: number | Placeholder): Limited<R> };
  };
}

/**
 * A list whose query is prepared once per shape (`runPrepared`): `where` was built with
 * `placeholders()`, whose `values` and `shape` (with the list's name) are these.
 */
export interface ShapedList {
  db: object;
  shape: string;
  values: Record<string, unknown>;
  /**
   * One plan serves every value of the list's filters: an index bounds its rows by one of them
   * and gives them in the list's order whatever the value (a project's devices by creation). Its
   * first page may then keep a generic plan (`runPage`) like a list without filter values.
   */
  anyValuePlan?: boolean;
}

/**
 * Page anchors for a list whose ids are chosen first (`keysetListRows`): its key (family, shape
 * and filter values), its family's counter (`listVersion`), and the table of its order's column
 * and id (`db` builds the statement that reads them for the chosen ids).
 */
export interface IdsAnchoring {
  db: object;
  table: PgTable;
  key: string;
  version: SQL<number>;
}

/**
 * The rows of a page and one more (`keysetPage` tells from it whether `next` is due) of a list
 * whose rows are read from `rows(condition)` (its tables and joins, filtered by the condition)
 * under `where`. Past the first rows, by offset, the page's ids are chosen first by
 * `ids(condition)` (only the tables the filters need, selecting the id): the offset then walks
 * the sort's index without reading or joining the rows it skips, and only the page's rows are
 * read. Operation-log page 5,000 of 10 million rows: 139 → 25 ms. `idsFirst`: every page so, for
 * a list whose filter its ids' index answers alone (a scoped alarm list).
 *
 * Chosen first, the ids are a statement of their own, planned with the filter's values, and the
 * rows a second one, by id: the same statement for every filter value and page, named and kept
 * with a generic plan (`runPrepared`'s `generic`: ids have no skew). As one statement, PostgreSQL
 * planned the rows' joins again for every request: the agent's alarm page spent 1.7 ms planning
 * and 1.3 ms running.
 *
 * With `anchoring`, the ids of a page past the first start at a remembered row when they can
 * (page anchors, above): for a list whose order's column is on its own table, never changes, and
 * whose matches move only with the family's counter.
 */
export async function keysetListRows<R>(
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  where: SQL | undefined,
  rows: (cond: SQL | undefined) => Orderable<R>,
  ids: (cond: SQL | undefined) => Orderable<{ id: number }>,
  shaped: ShapedList,
  idsFirst = false,
  anchoring?: IdsAnchoring,
): Promise<R[]> {
  const order = keysetOrder(k);
  if (!idsFirst && (f.after !== undefined || f.page === 1)) {
    return keysetShapedRows(k, f, shaped, (cond, limit) => rows(and(where, cond)).orderBy(...order).limit(limit));
  }
  const idsShaped = { ...shaped, shape: `${shaped.shape}\u0000ids` };
  const chosenIds = (cond: SQL | undefined, limit: Placeholder, offset: Placeholder) => ids(and(where, cond)).orderBy(...order).limit(limit).offset(offset);
  const chosen = anchoring
    ? await keysetShapedRows(
        k,
        f,
        { ...idsShaped, shape: `${idsShaped.shape}\u0000anchored` },
        // The chosen ids' sort values and the counter, read in the ids' statement but outside the
        // offset's subquery: a select expression below the offset runs for every row it skips.
        (cond, limit, offset) =>
          (anchoring.db as PgDatabase<PgQueryResultHKT>)
            .select({ id: sql<number>`${k.id}`, keyset: keysetValue(k), listVersion: anchoring.version })
            .from(anchoring.table)
            .where(sql`${k.id} in (select p.id from (${chosenIds(cond, limit, offset)}) p)`)
            .orderBy(...order) as unknown as Limited<{ id: number; keyset: string | null; listVersion: number | null }>,
        { key: anchoring.key, of: (r) => ({ version: r.listVersion, value: r.keyset, id: Number(r.id) }) },
      )
    : await keysetShapedRows(k, f, idsShaped, chosenIds);
  if (chosen.length === 0) return [];
  return runPrepared(
    shaped.db,
    `${shaped.shape}\u0000${k.sort}\u0000${k.order}\u0000byIds`,
    // An array literal: the same text on node-postgres and PGlite.
    { k_ids: idArray(chosen.map((r) => r.id)) },
    (name) => rows(sql`${k.id} = any(${sql.placeholder('k_ids')}::bigint[])`).orderBy(...order).prepare(name),
    true,
  );
}

/**
 * Page anchors for a list by offset (`keysetShapedRows`' `anchoring`): the sort value and id of
 * rows at known positions of the list, remembered with the list's counter (`list_versions`, read
 * in the same statement as the rows). Page 4,000 of 10 rows is row 39,990 on: by offset
 * PostgreSQL walks 39,990 index entries to get there, on every request. Each deep page read
 * remembers the row before it and its own last row; the page asked again, or the next one, is
 * then read after the nearest anchor before it (`(created_at, id) < (…)`: the index scan starts
 * there), and is answered only if the counter read with its rows is the anchors' — else the
 * list changed (a device added, moved, renamed…) and the page is read by offset again.
 *
 * The caller decides that its filter and sort depend only on what its counter covers: a device
 * list sorted by creation, id, name or SN, not by last update or warning level, which change
 * without it. Lists whose nulls split the order in runs (`nulls`) are not anchored.
 */
export interface Anchoring<R> {
  /** The list's key: its family, shape and filter values (the caller's scope among them). */
  key: string;
  /** A row's counter (read in its statement), sort value (as `keysetValue` writes it) and id. */
  of(row: R): { version: number | null; value: string | null; id: number };
  /**
   * The list's rows of the given ids (a placeholder: one bound id array), with the same columns,
   * in the list's order, under no filter: a page asked again is read this way (remembered pages,
   * below). `key` names its SQL (the list's family; the sort and order are added).
   */
  byIds?: { key: string; rows(ids: SQL): Limited<R> };
}

/**
 * Remembered pages: the ids of a page of an anchored list, with the counter read with its rows.
 * The same page asked again (same list, filter values, sort, page and size) reads those ids'
 * rows by primary key (`Anchoring.byIds`: one named statement with a generic plan for every
 * filter, value and page) and answers them if the counter read with them is still the one they
 * were chosen at — the list's matches and order have not changed since, so these are the page's
 * rows, read fresh — else it is read again and remembered anew. A filtered first page no longer
 * plans its filter per request while the fleet's registry stands still: an agent's device page
 * and a text search cost PostgreSQL 1.1–3.1 ms per request, a page by id ~0.3 ms.
 */
const REMEMBERED_PAGES = 2_000;
const pagesByDb = new WeakMap<object, Map<string, { version: number; ids: number[] }>>();

function pageMemo(db: object): Map<string, { version: number; ids: number[] }> {
  let memo = pagesByDb.get(db);
  if (!memo) {
    memo = new Map();
    pagesByDb.set(db, memo);
  }
  return memo;
}

/** How many lists (per database) and positions per list are remembered, the oldest going first. */
const ANCHORED_LISTS = 1_000;
const ANCHORS_PER_LIST = 200;
interface Anchors {
  version: number;
  at: Map<number, { value: string | null; id: number }>;
}
const anchorsByDb = new WeakMap<object, Map<string, Anchors>>();

function anchorMemo(db: object): Map<string, Anchors> {
  let memo = anchorsByDb.get(db);
  if (!memo) {
    memo = new Map();
    anchorsByDb.set(db, memo);
  }
  return memo;
}

/** Remembers that `row` is at `position` of the list under `key` (at the row's counter). */
function rememberAnchor<R>(db: object, key: string, a: Anchoring<R>, position: number, row: R): void {
  const { version, value, id } = a.of(row);
  if (version === null || version === undefined) return;
  const memo = anchorMemo(db);
  let list = memo.get(key);
  if (!list || list.version !== Number(version)) {
    list = { version: Number(version), at: new Map() };
  }
  // Most recently used last: the oldest list is the first to go.
  memo.delete(key);
  if (memo.size >= ANCHORED_LISTS) memo.delete(memo.keys().next().value!);
  memo.set(key, list);
  list.at.delete(position);
  if (list.at.size >= ANCHORS_PER_LIST) list.at.delete(list.at.keys().next().value!);
  list.at.set(position, { value, id });
}

/** The remembered anchor nearest before `position` (the row at `position - 1` at best). */
function anchorBefore(db: object, key: string, position: number): { position: number; version: number; value: string | null; id: number } | undefined {
  const list = anchorMemo(db).get(key);
  if (!list) return undefined;
  let best: number | undefined;
  for (const p of list.at.keys()) if (p < position && (best === undefined || p > best)) best = p;
  return best === undefined ? undefined : { position: best, version: list.version, ...list.at.get(best)! };
}

/**
 * The rows of a page and one more: without a cursor by offset, after it run by run
 * (`keysetRuns`), each query prepared once (`runPrepared`) per list shape, sort, run and kind
 * (`byOffset`: past the first rows by offset; else the first rows or a run after the cursor).
 * `query` builds it, in `keysetOrder`, under the list's `where` (built with `shaped`'s
 * placeholders) with the run's condition, whose cursor value and id are placeholders too
 * (`k_value`, `k_id`), as are the limit and offset it is given (`k_limit`, `k_offset`).
 *
 * A list without a filter value (no placeholder in `shaped`), or one whose plan is the same for
 * every value (`anyValuePlan`), reads its first rows, or its first run after a cursor, with a
 * named statement whose limit is written in (`runPage`): PostgreSQL may keep a generic plan for
 * it instead of parsing and planning it per request (`runPrepared`).
 *
 * With `anchoring`, a page past the first by offset starts at a remembered row when it can
 * (page anchors, above), and with its `byIds` a page asked again is read by the ids it had
 * (remembered pages, above).
 */
export async function keysetShapedRows<R>(
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  shaped: ShapedList,
  query: (run: SQL | undefined, limit: Placeholder, offset: Placeholder, byOffset: boolean) => Limited<R>,
  anchoring?: Anchoring<R>,
): Promise<R[]> {
  const byIds = anchoring?.byIds;
  if (!anchoring || !byIds || f.after || k.nulls) return anchoredRows(k, f, shaped, query, anchoring);
  // A remembered page (above): its rows by id, answered if the list's counter has not moved.
  const db = shaped.db;
  const memo = pageMemo(db);
  const key = `${anchoring.key}\u0000${k.sort}\u0000${k.order}\u0000${f.page}\u0000${f.limit}`;
  const known = memo.get(key);
  if (known) {
    const rows = await runPrepared(
      db,
      `${byIds.key}\u0000${k.sort}\u0000${k.order}\u0000byIds`,
      { p_ids: idArray(known.ids) },
      (name) => byIds.rows(sql`${sql.placeholder('p_ids')}::bigint[]`).prepare(name),
      true,
    );
    if (rows.length === known.ids.length && Number(anchoring.of(rows[0]!).version) === known.version) return rows;
  }
  const rows = await anchoredRows(k, f, shaped, query, anchoring);
  const version = rows.length > 0 ? anchoring.of(rows[0]!).version : null;
  memo.delete(key);
  if (version !== null && version !== undefined) {
    // Most recently used last: the oldest page is the first to go.
    if (memo.size >= REMEMBERED_PAGES) memo.delete(memo.keys().next().value!);
    memo.set(key, { version: Number(version), ids: rows.map((r) => anchoring.of(r).id) });
  }
  return rows;
}

/** `keysetShapedRows` without remembered pages: by offset from the nearest anchor, or by cursor. */
async function anchoredRows<R>(
  k: Keyset,
  f: { after?: ListCursor; page: number; limit: number },
  shaped: ShapedList,
  query: (run: SQL | undefined, limit: Placeholder, offset: Placeholder, byOffset: boolean) => Limited<R>,
  anchoring?: Anchoring<R>,
): Promise<R[]> {
  const offset = (f.page - 1) * f.limit;
  const rowsFrom = (after: ListCursor | undefined, limit: number, skip: number) => runsFrom(k, after, f.limit, limit, skip, shaped, query);
  if (f.after || !anchoring || offset === 0 || k.nulls) return rowsFrom(f.after, f.limit + 1, offset);
  const key = `${anchoring.key}\u0000${k.sort}\u0000${k.order}`;
  const db = shaped.db;
  // The page's last row anchors the next page.
  const anchorNext = (rows: R[]) => {
    if (rows.length >= f.limit) rememberAnchor(db, key, anchoring, offset + f.limit - 1, rows[f.limit - 1]!);
    return rows;
  };
  const anchor = anchorBefore(db, key, offset);
  if (anchor) {
    const rows = await rowsFrom({ sort: k.sort, order: k.order, value: anchor.value, id: anchor.id }, f.limit + 1, offset - anchor.position - 1);
    // Answered only if the list has not changed since the anchor was taken (its counter, read
    // with the rows); a page after the anchor with no row cannot tell, and is read by offset.
    if (rows.length > 0 && Number(anchoring.of(rows[0]!).version) === anchor.version) return anchorNext(rows);
  }
  // By offset, from the row before the page: it anchors the page itself.
  const rows = await rowsFrom(undefined, f.limit + 2, offset - 1);
  if (rows.length > 0) rememberAnchor(db, key, anchoring, offset - 1, rows[0]!);
  return anchorNext(rows.slice(1));
}

/**
 * `limit` rows after the cursor `after` (or from the list's start), `skip` rows skipped first
 * (after a cursor, only of a list in one run), for a page of `pageSize` rows.
 */
async function runsFrom<R>(
  k: Keyset,
  after: ListCursor | undefined,
  pageSize: number,
  limit: number,
  skip: number,
  shaped: ShapedList,
  query: (run: SQL | undefined, limit: Placeholder, offset: Placeholder, byOffset: boolean) => Limited<R>,
): Promise<R[]> {
  const cursor = placeholders();
  const runs: (SQL | undefined)[] = after ? keysetRuns(k, after, cursor.bind) : [undefined];
  const key = `${shaped.shape}\u0000${cursor.shape(k.sort, k.order)}`;
  const unfiltered = shaped.anyValuePlan === true || Object.keys(shaped.values).length === 0;
  const read = (run: SQL | undefined, limit: number, offset: number) =>
    runPage(
      shaped.db,
      `${key}\u0000${runs.indexOf(run)}\u0000${offset > 0}`,
      { ...shaped.values, ...cursor.values },
      { limit, offset, pageSize, extra: 1, unfiltered, bound: ['k_limit', 'k_offset'] },
      (l, o) => query(run, l, o, offset > 0),
    );
  if (!after || skip > 0) return read(runs[0], limit, skip);
  const rows: R[] = [];
  for (const run of runs) {
    rows.push(...(await read(run, limit - rows.length, 0)));
    if (rows.length >= limit) break;
  }
  return rows;
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
