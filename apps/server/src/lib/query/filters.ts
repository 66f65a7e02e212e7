import { like, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { devices } from '../../db/schema/index.js';

/** An instant as a bound value: its ISO text cast to timestamptz (the same on PostgreSQL and PGlite). */
export function boundTime(at: Date | string): SQL {
  return sql`${new Date(at).toISOString()}::timestamptz`;
}

/**
 * Devices whose name, SN, IMEI or SIM number contains `pattern` (a LIKE pattern, already escaped):
 * the one trigram index on `devices.search`, which holds the four in lower case (migration 0018).
 * Every text search of devices goes through it (the device list, the typeahead, the alarm list's
 * device filter); a narrower condition (an SN prefix) goes beside it as a recheck.
 */
export const deviceTextLike = (pattern: string | SQLWrapper) =>
  like(devices.search, typeof pattern === 'string' ? pattern.toLowerCase() : pattern);
