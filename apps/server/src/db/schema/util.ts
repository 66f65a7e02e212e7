import { sql } from 'drizzle-orm';

/** A CHECK condition `col in (…)` from an enum tuple of the contract. */
export const inList = (col: string, values: readonly string[]) =>
  sql.raw(`${col} in (${values.map((v) => `'${v}'`).join(', ')})`);
