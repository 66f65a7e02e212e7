import { sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';
import { runPage, runPrepared, type Prepared } from './sql.js';

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
 * A list's matches built with placeholders (`placeholders()`): `shape` names the list and every
 * thing that changes its SQL, `values` the placeholders' values, `matches` builds the select
 * (called only when its count is first prepared).
 */
export interface ShapedMatches {
  shape: string;
  values: Record<string, unknown>;
  matches: () => SQLWrapper;
}

/** A list's matches as a subquery `c` that stops at one past the cap: what every total counts. */
function upToCap(matches: SQLWrapper): SQL {
  return sql`(${matches} limit ${sql.raw(String(COUNT_CAP + 1))}) c`;
}

/** Per database: the memo of capped counts, emptied when a change through the API was made. */
function cappedMemo(db: object): Map<string, number> {
  let capped = cappedByDb.get(db);
  if (!capped || capped.get(GENERATION) !== generation) {
    capped = new Map([[GENERATION, generation]]);
    cappedByDb.set(db, capped);
  }
  return capped;
}

/** Whether the list under `key` reached the cap less than `CAPPED_MEMO_MS` ago. */
function cappedRemembered(db: object, key: string): boolean {
  const capped = cappedMemo(db);
  const until = capped.get(key);
  if (until === undefined) return false;
  if (until > Date.now()) return true;
  capped.delete(key);
  return false;
}

/** Remembers a count `n` taken since generation `gen` if it reached the cap. */
function rememberCapped(db: object, key: string, n: number, gen: number): void {
  // Not remembered if a change was made while counting: the count may predate it.
  if (n <= COUNT_CAP || generation !== gen) return;
  const capped = cappedMemo(db);
  if (capped.size > MEMO_SIZE) capped.delete([...capped.keys()][1]!);
  capped.set(key, Date.now() + CAPPED_MEMO_MS);
}

/** A list's filter as a key: its shape and its values (the caller's scope among them). */
function shapedKey(shaped: { shape: string; values: Record<string, unknown> }): string {
  return `${shaped.shape}\u0000${JSON.stringify(shaped.values)}`;
}

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
export async function cappedTotal(db: Executor, matches: SQLWrapper | ShapedMatches): Promise<{ total: number; exact: boolean }> {
  let key: string;
  let count: () => Promise<number>;
  if ('shape' in matches) {
    // Keyed by the list's shape and values: a remembered count needs no SQL built at all.
    key = shapedKey(matches);
    count = async () => {
      const [row] = await runPrepared(db, `count\u0000${matches.shape}`, matches.values, (name) =>
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(upToCap(matches.matches()))
          .prepare(name),
      );
      return row?.n ?? 0;
    };
  } else {
    const query = sql`select count(*)::int as n from ${upToCap(matches)}`;
    const q = dialect.sqlToQuery(query);
    key = `${q.sql}\u0000${JSON.stringify(q.params)}`;
    count = async () => {
      const res = await db.execute(query);
      return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    };
  }
  if (cappedRemembered(db, key)) return { total: COUNT_CAP, exact: false };
  const gen = generation;
  const n = await count();
  rememberCapped(db, key, n, gen);
  return totalOf(n);
}

/**
 * The families of lists with a counter in `list_versions`: the devices (migration 0025; the
 * project list too, whose matches the same counter covers: 0033), the alarms (0028), whose lists
 * also depend on their devices (scope, project, type, SN, name), the login logs (0031), whose
 * scoped lists depend on their users' paths, and the operation logs (0034: their deep pages'
 * anchors, lib/keyset.ts; their totals stay `cappedTotal`'s).
 */
export type ListFamily = 'devices' | 'alarms' | 'login_logs' | 'operation_logs';

interface VersionedCount {
  version: number;
  n: number;
}
/** Per database: totals (by family and filter key) with the family's counter they were counted at. */
const versionedByDb = new WeakMap<object, Map<string, VersionedCount>>();

function totalOf(n: number): { total: number; exact: boolean } {
  return { total: Math.min(n, COUNT_CAP), exact: n <= COUNT_CAP };
}

/**
 * The family's counter as a scalar subquery: put it in a list's select to read it with the page.
 * The alarms' is the sum of the alarms' and the devices' counters: both only ever rise, so the sum
 * moves whenever either does.
 */
export function listVersion(family: ListFamily): SQL<number> {
  return family === 'alarms'
    ? sql<number>`(select sum(version)::float8 from list_versions where name in ('alarms', 'devices'))`
    : sql<number>`(select version::float8 from list_versions where name = ${family})`;
}

/**
 * A page and its total, for a list whose matches change only with its family's counter
 * (`list_versions`, raised by triggers in the same transaction as every such change, whichever
 * process or script makes it). The total is counted in one statement with the counter, so the
 * pair is one snapshot; asked again while the counter has not moved, the list answers the
 * remembered total — exact totals too, which stay exact: any change that could alter them moves
 * the counter. A user paging through an agent's 9,000 devices, or fifty users on one view, count
 * once instead of per request.
 *
 * The caller decides that its filter depends only on what the counter covers (for devices: not
 * online or warning level, which devices change all the time; those go to `cappedTotal`).
 * Remembered totals are keyed by the list's shape and placeholder values, as `cappedTotal`'s, so
 * a hit builds no count SQL; `matches` (its values in the SQL: the count is run as text) is built
 * only to count.
 *
 * `read` gives the page's rows with `listVersion(family)` in their select: with a total
 * remembered, the page is read first and its counter compared (no other query while it has not
 * moved); else the page and the count run side by side.
 */
export async function versionedPage<R extends { listVersion: number | null }>(
  db: Executor,
  family: ListFamily,
  shaped: { shape: string; values: Record<string, unknown> },
  matches: () => SQLWrapper,
  read: () => Promise<R[]>,
): Promise<[R[], { total: number; exact: boolean }]> {
  const key = `${family}\u0000${shapedKey(shaped)}`;
  let memo = versionedByDb.get(db);
  if (!memo) {
    memo = new Map();
    versionedByDb.set(db, memo);
  }
  const remembered = memo;
  const at = (version: number | null | undefined) => {
    const known = remembered.get(key);
    if (!known || version === undefined || version === null || Number(version) !== known.version) return undefined;
    // Most recently used last: the oldest entry is the first to go.
    remembered.delete(key);
    remembered.set(key, known);
    return totalOf(known.n);
  };
  const counted = async () => {
    const count = sql`select count(*)::int from ${upToCap(matches())}`;
    const res = await db.execute(sql`select ${listVersion(family)} as v, (${count}) as n`);
    const row = (res as unknown as { rows: { v: number | null; n: number }[] }).rows[0];
    const n = Number(row?.n ?? 0);
    if (row?.v !== null && row?.v !== undefined) {
      remembered.delete(key);
      if (remembered.size >= MEMO_SIZE) remembered.delete(remembered.keys().next().value!);
      remembered.set(key, { version: Number(row.v), n });
    }
    return totalOf(n);
  };
  if (!remembered.has(key)) return Promise.all([read(), counted()]);
  const rows = await read();
  // No row to carry the counter (an empty page): read it alone.
  const version = rows.length > 0 ? rows[0]!.listVersion : await readVersion(db, family);
  return [rows, at(version) ?? (await counted())];
}

/**
 * A total counted inside a page's statement: `column()` is the select's `total` (a scalar
 * subquery PostgreSQL runs once; null when the list is remembered as capped, `capped`, which the
 * statement's key must name), `of(rows)` the total from the rows read. One round trip and one
 * plan per request instead of two. A page past the end, which has no row to carry it, counts alone.
 */
export function countedInPage(
  db: Executor,
  shaped: { shape: string; values: Record<string, unknown> },
  matches: () => SQLWrapper,
): {
  capped: boolean;
  column: () => SQL<number | null>;
  of: (rows: readonly { total: number | null }[]) => Promise<{ total: number; exact: boolean }>;
} {
  const key = shapedKey(shaped);
  const capped = cappedRemembered(db, key);
  const gen = generation;
  return {
    capped,
    column: () => (capped ? sql<null>`null::int` : sql<number>`(select count(*)::int from ${upToCap(matches())})`),
    async of(rows) {
      if (capped) return { total: COUNT_CAP, exact: false };
      if (rows.length === 0) return cappedTotal(db, { ...shaped, matches });
      const n = Number(rows[0]!.total);
      rememberCapped(db, key, n, gen);
      return totalOf(n);
    },
  };
}

/**
 * One page by offset (`f.page`, `f.limit`) of a list prepared once per shape and sort
 * (`runPage`, under `key`): `page` builds its ordered query with the limit and offset given.
 */
export function offsetPage<R>(
  db: Executor,
  key: string,
  f: { sort: string; order: string; page: number; limit: number },
  values: Record<string, unknown>,
  page: (limit: Placeholder, offset: Placeholder) => { prepare(name: string): Prepared<R[]> },
): Promise<R[]> {
  return runPage(
    db,
    `${key}\u0000${f.sort}\u0000${f.order}`,
    values,
    { limit: f.limit, offset: (f.page - 1) * f.limit, pageSize: f.limit, extra: 0, unfiltered: Object.keys(values).length === 0, bound: ['limit', 'offset'] },
    page,
  );
}

/**
 * A page by offset and its capped total, prepared once per shape (`runPrepared`): `shaped` is
 * the list's shape and placeholder values, `page` builds its ordered query with the limit and
 * offset given (placeholders) and `total` in its select, `matches` its count's select. The total
 * is counted inside the page's statement (`countedInPage`): a third of what the user list cost
 * PostgreSQL. (The project list remembers its total against the devices' counter instead.)
 */
export async function shapedPage<R>(
  db: Executor,
  f: { sort: string; order: string; page: number; limit: number },
  shaped: { shape: string; values: Record<string, unknown> },
  page: (limit: Placeholder, offset: Placeholder, total: SQL<number | null>) => { prepare(name: string): Prepared<(R & { total: number | null })[]> },
  matches: () => SQLWrapper,
): Promise<[R[], { total: number; exact: boolean }]> {
  const counted = countedInPage(db, shaped, matches);
  const rows = await offsetPage(db, `${shaped.shape}\u0000${counted.capped}`, f, shaped.values, (limit, offset) =>
    page(limit, offset, counted.column()),
  );
  return [rows, await counted.of(rows)];
}

/**
 * What a list's filter resolves to through other tables — the projects a scoped caller sees (its
 * own and those shared with its users), the devices an alarm list's device text names — as
 * ids, resolved once and remembered with the list family's counter, which moves with every
 * change to them (projects, their owners and members, users' paths; devices' SN, name, IMEI,
 * SIM). The page is read with the ids bound (`read`), instead of resolving them inside its
 * statement per request: the scope's project lookup alone was a third of an agent's device page
 * (planning and running a subquery over every project). The page's rows carry the counter
 * (`listVersion`): if it is not the one the ids were resolved at, they are resolved again and
 * the page read again. Each resolution is a select of one id column (`ids`, values in its SQL),
 * under the caller's `key` (which must name everything its SQL depends on).
 */
export interface Resolution {
  key: string;
  ids: () => SQLWrapper;
}
interface ResolvedIds {
  version: number;
  ids: number[];
}
const resolvedByDb = new WeakMap<object, Map<string, ResolvedIds>>();

export async function withResolved<R extends { listVersion: number | null }>(
  db: Executor,
  family: ListFamily,
  resolutions: Resolution[],
  read: (ids: number[][]) => Promise<R[]>,
): Promise<R[]> {
  if (resolutions.length === 0) return read([]);
  let memo = resolvedByDb.get(db);
  if (!memo) {
    memo = new Map();
    resolvedByDb.set(db, memo);
  }
  const remembered = memo;
  const keys = resolutions.map((r) => `${family}\u0000${r.key}`);
  const known = keys.map((k) => remembered.get(k));
  const version = known[0]?.version;
  if (version !== undefined && known.every((k) => k?.version === version)) {
    const rows = await read(known.map((k) => k!.ids));
    const now = rows.length > 0 ? rows[0]!.listVersion : await readVersion(db, family);
    if (now !== null && now !== undefined && Number(now) === version) return rows;
  }
  const columns = resolutions.map((r, i) => sql`array(${r.ids()}) as ${sql.identifier(`r${i}`)}`);
  const res = await db.execute(sql`select ${listVersion(family)} as v, ${sql.join(columns, sql`, `)}`);
  const row = (res as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
  const ids = resolutions.map((_, i) => toIds(row[`r${i}`]));
  if (row.v !== null && row.v !== undefined) {
    keys.forEach((k, i) => {
      remembered.delete(k);
      if (remembered.size >= MEMO_SIZE) remembered.delete(remembered.keys().next().value!);
      remembered.set(k, { version: Number(row.v), ids: ids[i]! });
    });
  }
  return read(ids);
}

/** The family's counter alone (a page with no row to carry it). */
async function readVersion(db: Executor, family: ListFamily): Promise<number | null | undefined> {
  const res = await db.execute(sql`select ${listVersion(family)} as v`);
  return (res as unknown as { rows: { v: number | null }[] }).rows[0]?.v;
}

/** An id array as the driver gives it: a JS array (node-postgres, PGlite) or its text `{1,2}`. */
function toIds(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  return [];
}

/** Ids as one bound array (the same statement for any number of them). */
export function idArray(ids: number[]): string {
  return `{${ids.join(',')}}`;
}
