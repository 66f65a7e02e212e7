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
