/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The fields of a partial update that were given a value (`undefined` = not sent, keep the stored
 * one), or undefined when there is none: an UPDATE needs at least one column to set.
 */
export function sentValues<T extends object>(set: T): Partial<T> | undefined {
  const entries = Object.entries(set).filter(([, v]) => v !== undefined);
  return entries.length > 0 ? (Object.fromEntries(entries) as Partial<T>) : undefined;
}
