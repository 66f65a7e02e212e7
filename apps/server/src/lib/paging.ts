import { sql, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';

/**
 * Lists count their matches up to this many; past it a list answers `total: COUNT_CAP,
 * exact: false` and the console shows "10,000+". The pager still reaches every page up to the
 * cap; beyond it a filter or a sort finds the rows (nobody pages through 10,000 rows).
 */
export const COUNT_CAP = 10_000;

/** How long a count that reached the cap is taken as still reaching it. */
export const CAPPED_MEMO_MS = 5_000;
const MEMO_SIZE = 1_000;
/** The key under which a memo keeps the generation it belongs to (no SQL text is empty). */
const GENERATION = '';
const dialect = new PgDialect();
/** Per database: counts (by their SQL and parameters) that reached the cap, and until when that is believed. */
const cappedByDb = new WeakMap<object, Map<string, number>>();

/**
 * Forgets every remembered capped count. Called after each change made through the API
 * (plugins/audit.ts), so a list read after a delete or a move counts again at once.
 */
export function forgetCappedTotals(): void {
  generation++;
}
let generation = 0;

/**
 * The total of a list, counted up to the cap only: `select count(*) from (… limit cap + 1)`
 * stops scanning at the cap, so an unfiltered list of 10 million log rows, or a text search that
 * matches half the fleet, costs 10,001 index entries instead of millions. `matches` is the
 * list's select (any single column, with its joins and where; no order, limit or offset).
 *
 * A count that reached the cap is remembered for `CAPPED_MEMO_MS`: the same list (same filters,
 * same caller's scope) asked again meanwhile answers "10,000+" without counting. Fifty users
 * paging the fleet's default view then cost one count every 5 s instead of one per request.
 * Only capped counts are remembered: "10,000+" stays true through anything but a change that
 * takes away thousands of matches, and every change made through the API forgets them all;
 * an exact count, which a single new device changes, is always counted.
 */
export async function cappedTotal(db: Executor, matches: SQLWrapper): Promise<{ total: number; exact: boolean }> {
  const query = sql`select count(*)::int as n from (${matches} limit ${COUNT_CAP + 1}) c`;
  const q = dialect.sqlToQuery(query);
  const key = `${q.sql}\u0000${JSON.stringify(q.params)}`;
  const gen = generation;
  let capped = cappedByDb.get(db);
  if (!capped || capped.get(GENERATION) !== gen) {
    capped = new Map([[GENERATION, gen]]);
    cappedByDb.set(db, capped);
  }
  const now = Date.now();
  const until = capped.get(key);
  if (until !== undefined) {
    if (until > now) return { total: COUNT_CAP, exact: false };
    capped.delete(key);
  }
  const res = await db.execute(query);
  const n = Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  // Not remembered if a change was made while counting: the count may predate it.
  if (n > COUNT_CAP && generation === gen) {
    if (capped.size > MEMO_SIZE) capped.delete([...capped.keys()][1]!);
    capped.set(key, now + CAPPED_MEMO_MS);
  }
  return { total: Math.min(n, COUNT_CAP), exact: n <= COUNT_CAP };
}
