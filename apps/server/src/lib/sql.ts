import { createHash } from 'node:crypto';
import { Column, fillPlaceholders, is, noopDecoder, SQL, sql, Subquery, type DriverValueDecoder, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { customPlanPool } from '../db/client.js';
import { wellFormed } from './hostile.js';

/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Removes NUL bytes, which PostgreSQL text cannot hold, and replaces lone UTF-16 surrogates with
 * U+FFFD, which jsonb (and any JSON parameter) refuses: logs keep what they can of bad input, and
 * one such string cannot fail the statement it is written with.
 */
export function stripNul(s: string): string {
  return wellFormed(s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);
}

/** `stripNul` over every string and key of a JSON value (for jsonb columns fed from the network). */
export function stripNulDeep<T>(value: T): T {
  if (typeof value === 'string') return stripNul(value) as T;
  if (Array.isArray(value)) return value.map((v) => stripNulDeep(v)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripNul(k), stripNulDeep(v)])) as T;
  }
  return value;
}

/**
 * The fields of a partial update that were given a value (`undefined` = not sent, keep the stored
 * one), or undefined when there is none: an UPDATE needs at least one column to set.
 */
export function sentValues<T extends object>(set: T): Partial<T> | undefined {
  const entries = Object.entries(set).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : undefined;
}

/**
 * How a condition takes a value: as it is (`asValue`), or as a named placeholder whose value is
 * recorded (`placeholders()`), so that a query built once per shape is run with new values.
 */
export type Bind = <T>(name: string, value: T) => T | SQLWrapper;

export const asValue: Bind = (_name, value) => value;

/**
 * A `Bind` that puts placeholders in the query and keeps their values for `execute`. `shape`:
 * the placeholders' names and the `extra` given (whatever else changes the SQL: a condition
 * without a value, the sort), as a key for `runPrepared`.
 */
export function placeholders(): { bind: Bind; values: Record<string, unknown>; shape: (...extra: unknown[]) => string } {
  const values: Record<string, unknown> = {};
  return {
    values,
    bind: (name, value) => {
      values[name] = value;
      return sql.placeholder(name);
    },
    shape: (...extra) => JSON.stringify([Object.keys(values), ...extra]),
  };
}

/** A prepared statement (drizzle's `.prepare()`), run with its placeholders' values. */
export interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** Per database: statements prepared once per key. */
const preparedByDb = new WeakMap<object, Map<string, Prepared<unknown>>>();
const PREPARED_MAX = 1_000;

/**
 * Page sizes whose first page or run (`limit` = size + 1) may be a named statement
 * (`genericPageSize`): those the console's pager offers (web `use-server-table.ts PAGE_SIZES`);
 * another size is prepared unnamed.
 */
const GENERIC_PAGE_SIZES = new Set([10, 20, 50, 100]);
/**
 * How many named statements a process makes at most: each is kept by every pooled connection
 * that ran it (node-postgres never closes one), so their number is what bounds the memory they
 * hold in PostgreSQL. Past it, shapes are prepared unnamed. `DATABASE_NAMED_STATEMENTS` sets it.
 */
let namedMax = 200;
const named = new Map<string, string>();

/** At most `n` named statements from now on (`DATABASE_NAMED_STATEMENTS`; 0: none). */
export function limitNamedStatements(n: number): void {
  namedMax = n;
}

/**
 * Whether a list of this page size reads its first page (or first run after a cursor) with a
 * named statement, its limit written in (`literal`) rather than bound, when no filter value is a
 * placeholder (`runPrepared`'s `generic`). PostgreSQL costs a generic plan's `LIMIT $1` as if it
 * kept a tenth of the rows, so with the limit bound it never chose the generic plan; written in,
 * it does (the device page: 0.36 ms of PostgreSQL CPU per execution instead of 0.70). Other page
 * sizes stay unnamed, so their number bounds the named statements.
 */
function genericPageSize(pageSize: number): boolean {
  return GENERIC_PAGE_SIZES.has(pageSize);
}

/**
 * A number written into the SQL where drizzle takes a placeholder (`limit`, `offset`): drizzle
 * writes an SQL object as it is, a number as a bound value.
 */
function literal(n: number): Placeholder {
  return sql.raw(String(Math.trunc(n))) as unknown as Placeholder;
}

/** The name of the statement prepared for `key`, or '' (unnamed) past `namedMax`. */
function statementName(key: string): string {
  let name = named.get(key);
  if (name === undefined) {
    if (named.size >= namedMax) return '';
    name = `l${createHash('sha1').update(key).digest('hex').slice(0, 24)}`;
    named.set(key, name);
  }
  return name;
}

/**
 * Runs the statement prepared for `key` (per database), preparing it the first time: building a
 * list's SQL with drizzle cost more CPU than PostgreSQL spent answering it, so a list asked again
 * with the same kind of filters and sort only binds new values. `key` must name everything that
 * changes the SQL (`placeholders().shape`), and a family prefix when lists share a database.
 *
 * `prepare(name)` prepares it with drizzle's `.prepare(name)`, named after the key: each pooled
 * connection parses it once. With `generic`, it runs in the main pool, where PostgreSQL keeps a
 * generic plan after five executions if that costs no more than the plans made for the values
 * (`plan_cache_mode = auto`). Without, it runs in the database's custom-plan pool
 * (db/client.ts `customPlanPool`), where every execution is planned for its values: a filtered
 * page no longer sends and parses its SQL per request (PostgreSQL 1.3 → 0.9 ms, Node 0.83 →
 * 0.64 ms for a text search on the bench database). Where there is no such pool (PGlite, a
 * transaction), for a query drizzle maps itself (not `flatRows`'), or past `namedMax` names, the
 * statement is unnamed: parsed and planned at each execution.
 *
 * A caller asks for `generic` only where no filter value is a placeholder (the unfiltered lists,
 * a cursor's position), or where one index bounds the rows by a filter's value and gives them in
 * the list's order whatever the value (a project's devices by creation:
 * `ShapedList.anyValuePlan`): a generic plan knows no value, and for a skewed filter (a type of
 * 50,000 devices beside one of 3) the plan made for the average one would be slow for the
 * others. Named statements and the custom-plan pool's session setting need a direct connection
 * (behind PgBouncer in transaction mode: `DATABASE_NAMED_STATEMENTS=0`, docs/OPERATIONS.md).
 */
export function runPrepared<R>(
  db: object,
  key: string,
  values: Record<string, unknown>,
  prepare: (name: string) => Prepared<R>,
  generic = false,
): Promise<R> {
  let cache = preparedByDb.get(db);
  if (!cache || cache.size >= PREPARED_MAX) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  let statement = cache.get(key) as Prepared<R> | undefined;
  if (!statement) {
    statement = prepareOnce(db, key, prepare, generic);
    cache.set(key, statement as Prepared<unknown>);
  }
  return statement.execute(values);
}

/** `runPrepared`'s statement for `key`: named in the pool its plans need, or unnamed. */
function prepareOnce<R>(db: object, key: string, prepare: (name: string) => Prepared<R>, generic: boolean): Prepared<R> {
  if (generic) return flatRows(prepare(statementName(key)));
  const pool = customPlanPool(db);
  const name = pool ? statementName(key) : '';
  if (pool && name) {
    const custom = flatRows(prepare(name), pool);
    if (custom !== undefined) return custom;
  }
  return flatRows(prepare(''));
}

/**
 * Runs a list page prepared for `key` with `values`: its limit and offset bound as the
 * placeholders named in `bound`; or, for a first page (`offset` 0, `limit` = `pageSize` + `extra`,
 * the one more row a keyset page reads) of a list with no filter value or one plan for every
 * value (`unfiltered`; a cursor's position may be among `values`) at a size the pager offers, as
 * a named statement with both written in (`generic`). `build` gets the limit and the offset to use.
 */
export function runPage<R>(
  db: object,
  key: string,
  values: Record<string, unknown>,
  page: { limit: number; offset: number; pageSize: number; extra: number; unfiltered: boolean; bound: [limit: string, offset: string] },
  build: (limit: Placeholder, offset: Placeholder) => { prepare(name: string): Prepared<R> },
): Promise<R> {
  if (page.unfiltered && page.offset === 0 && page.limit === page.pageSize + page.extra && genericPageSize(page.pageSize)) {
    return runPrepared(db, `${key}\u0000limit ${page.limit}`, values, (name) => build(literal(page.limit), literal(0)).prepare(name), true);
  }
  const [limitName, offsetName] = page.bound;
  return runPrepared(db, key, { ...values, [limitName]: page.limit, [offsetName]: page.offset }, (name) =>
    build(sql.placeholder(limitName), sql.placeholder(offsetName)).prepare(name),
  );
}

/** What `flatRows` reads of drizzle's node-postgres prepared query (drizzle-orm 0.45). */
interface NodePgPrepared {
  client: { query(config: object, params: unknown[]): Promise<{ rows: unknown[][] }> };
  queryConfig: { rowMode?: string };
  params: unknown[];
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
}

/**
 * A prepared list query on node-postgres whose select is flat (one key per column, no nested
 * objects) run with a row mapper made once: drizzle's maps each value of each row through three
 * `is()` class checks and a path walk (a device page is 21 × 39 values), a tenth of the Node CPU
 * of a list request in the profile (issue #14). The values are decoded by the same decoders
 * (the columns' `mapFromDriverValue`, or the SQL expression's), so the rows are the same;
 * anything else (PGlite, a nested select, a custom mapper) keeps drizzle's own `execute`.
 */
export function flatRows<R>(prepared: Prepared<R>): Prepared<R>;
/** The same, run in `pool` instead of drizzle's client; undefined if its rows are not flat. */
export function flatRows<R>(prepared: Prepared<R>, pool: NodePgPrepared['client']): Prepared<R> | undefined;
export function flatRows<R>(prepared: Prepared<R>, pool?: NodePgPrepared['client']): Prepared<R> | undefined {
  const asIs = pool ? undefined : prepared;
  if (!is(prepared, NodePgPreparedQuery)) return asIs;
  const p = prepared as unknown as NodePgPrepared;
  const fields = p.fields;
  if (!fields || p.customResultMapper || p.queryConfig.rowMode !== 'array' || fields.some((f) => f.path.length !== 1)) {
    return asIs;
  }
  const client = pool ?? p.client;
  const keys = fields.map((f) => f.path[0]!);
  type Decoded = { decoder: DriverValueDecoder<unknown, unknown> };
  const decoders = fields.map(({ field }) => {
    // As drizzle's mapResultRow picks it: the column, or the decoder of its SQL.
    const decoder = is(field, Column)
      ? field
      : is(field, SQL)
        ? (field as unknown as Decoded).decoder
        : is(field, Subquery)
          ? (field as unknown as { _: { sql: Decoded } })._.sql.decoder
          : (field as { sql: Decoded }).sql.decoder;
    return decoder === noopDecoder ? undefined : decoder;
  });
  const n = keys.length;
  return {
    async execute(values = {}) {
      const res = await client.query(p.queryConfig, fillPlaceholders(p.params, values));
      return res.rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const v = row[i];
          const decoder = decoders[i];
          out[keys[i]!] = v === null || decoder === undefined ? v : decoder.mapFromDriverValue(v);
        }
        return out;
      }) as R;
    },
  };
}

/**
 * A value of a small closed set (a state, a level) written into the SQL instead of bound. The
 * list names it in its shape (`placeholders().shape(…, value)`), so each value has a statement of
 * its own, planned for that value, and a list with no other filter value stays eligible for a
 * generic plan (`runPrepared`). Only lowercase words and integers: anything else throws.
 */
export function closedValue(value: string | number): SQL {
  if (typeof value === 'number' ? !Number.isSafeInteger(value) : !/^[a-z_]{1,32}$/.test(value)) {
    throw new Error(`not a closed-set value: ${String(value)}`);
  }
  return sql.raw(typeof value === 'number' ? String(value) : `'${value}'`);
}

/** An instant as a bound value: its ISO text cast to timestamptz (the same on PostgreSQL and PGlite). */
export function boundTime(bind: Bind, name: string, at: Date | string): SQL {
  return sql`${bind(name, new Date(at).toISOString())}::timestamptz`;
}
