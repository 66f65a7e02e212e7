/** Escapes LIKE wildcards so user input matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Removes NUL bytes, which PostgreSQL text cannot hold (logs keep what they can of bad input). */
export function stripNul(s: string): string {
  return s.includes('\u0000') ? s.replaceAll('\u0000', '') : s;
}
