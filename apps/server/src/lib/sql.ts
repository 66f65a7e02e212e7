import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Removes NUL bytes, which PostgreSQL text cannot hold (logs keep what they can of bad input). */
export function stripNul(s: string): string {
  return s.includes('\u0000') ? s.replaceAll('\u0000', '') : s;
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
 * Runs the statement prepared for `key` (per database), preparing it the first time: building a
 * list's SQL with drizzle cost more CPU than PostgreSQL spent answering it, so a list asked again
 * with the same kind of filters and sort only binds new values. `key` must name everything that
 * changes the SQL (`placeholders().shape`), and a family prefix when lists share a database.
 * Prepare with `.prepare('')`: an unnamed statement, which PostgreSQL plans at each execution
 * with its values (a named one could settle on a generic plan, bad for skewed filters).
 */
export function runPrepared<R>(db: object, key: string, values: Record<string, unknown>, prepare: () => Prepared<R>): Promise<R> {
  let cache = preparedByDb.get(db);
  if (!cache || cache.size >= PREPARED_MAX) {
    cache = new Map();
    preparedByDb.set(db, cache);
  }
  let statement = cache.get(key) as Prepared<R> | undefined;
  if (!statement) {
    statement = prepare();
    cache.set(key, statement as Prepared<unknown>);
  }
  return statement.execute(values);
}

/** An instant as a bound value: its ISO text cast to timestamptz (the same on PostgreSQL and PGlite). */
export function boundTime(bind: Bind, name: string, at: Date | string): SQL {
  return sql`${bind(name, new Date(at).toISOString())}::timestamptz`;
}
