import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/**
 * Lists count their matches up to this many; past it a list answers `total: COUNT_CAP,
 * exact: false` and the console says there are more than 10000. The pager still reaches every page up to the
 * cap; beyond it a filter or a sort finds the rows (nobody pages through 10,000 rows).
 */
export const COUNT_CAP = 10_000;

/**
 * The total of a list, counted up to the cap only: `select count(*) from (… limit cap + 1)`
 * stops scanning at the cap, so an unfiltered list of 10 million log rows, or a text search that
 * matches half the fleet, costs 10,001 index entries instead of millions. `matches` is the
 * list's select (any single column, with its joins and where; no order, limit or offset).
 */
export async function cappedTotal(db: Executor, matches: SQLWrapper): Promise<{ total: number; exact: boolean }> {
  const res = await db.execute(sql`select count(*)::int as n from (${matches} limit ${sql.raw(String(COUNT_CAP + 1))}) c`);
  const n = Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  return { total: Math.min(n, COUNT_CAP), exact: n <= COUNT_CAP };
}

/**
 * A page's rows and its capped total. The page is read first: when it is the list's last page
 * (fewer rows than the limit, not after a cursor, and not past the end) it tells the total by
 * itself, as a narrow search's or a small project's first page does, and nothing is counted.
 */
export async function pageAndTotal<R>(
  db: Executor,
  f: { page: number; limit: number; after?: unknown },
  rows: PromiseLike<R[]>,
  matches: SQLWrapper,
): Promise<[R[], { total: number; exact: boolean }]> {
  const page = await rows;
  const offset = (f.page - 1) * f.limit;
  if (f.after === undefined && page.length < f.limit && (page.length > 0 || offset === 0)) {
    const n = offset + page.length;
    return [page, { total: Math.min(n, COUNT_CAP), exact: n <= COUNT_CAP }];
  }
  return [page, await cappedTotal(db, matches)];
}

/**
 * A page's rows read by their ids: `ids` picks the page (the list's filter, order, limit and
 * offset over its own table), then `rows` reads and joins only those. A column computed per row
 * (a count, a linked row) in the page's own statement is computed for every row an offset skips
 * too; as a join of that statement with its page, the planner may walk the whole table in the
 * outer order instead (0.8 s at 500,000 cards). Two statements, each one cheap.
 */
export async function pageByIds<R>(ids: PromiseLike<{ id: number }[]>, rows: (ids: number[]) => PromiseLike<R[]>): Promise<R[]> {
  const chosen = (await ids).map((r) => r.id);
  return chosen.length ? rows(chosen) : [];
}
