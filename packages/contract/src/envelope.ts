import { z } from 'zod';
import { SUCCESS } from './codes.js';

/** Details an error may carry in `data`. */
export const errorDataSchema = z
  .object({
    field: z.string().optional(),
    retryAfter: z.number().optional(),
    /** Why, as a key of REFUSALS (refusals.ts); the console translates it. */
    reason: z.string().optional(),
    /** The values the reason's text refers to. */
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  })
  .nullable();
export type ErrorData = z.infer<typeof errorDataSchema>;

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** Schema of a success envelope around `data`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(SUCCESS), message: z.string(), data });
}

/** Schema of an error envelope (used for OpenAPI). */
export const errorEnvelopeSchema = z.object({
  code: z.number().int(),
  message: z.string(),
  data: errorDataSchema,
});

/** Largest value of a PostgreSQL `integer` (int4): every id and counter column. */
export const INT4_MAX = 2_147_483_647;
/** A database id in a body (a JSON number), bounded to int4 so PostgreSQL never overflows. */
export const idNumberSchema = z.number().int().positive().max(INT4_MAX);
/** A database id in a query string (or a body), coerced from text and bounded to int4. */
export const idSchema = z.coerce.number().int().positive().max(INT4_MAX);
/** A non-negative int4 from a query string (0 often means "none" / "top level"). */
export const int4QuerySchema = z.coerce.number().int().min(0).max(INT4_MAX);

/**
 * The instants a time or date in a request may name: from 1970-01-01 to the end of 9998, UTC.
 * PostgreSQL reads no year 0000 and JavaScript writes a year before 1 or after 9999 as
 * `-000001-…` / `+010000-…`, which PostgreSQL refuses too: such a value passed the format and
 * failed in the database (a 500). No device, log or card of the console predates the Unix epoch;
 * the year short of 9999 keeps an offset (`9999-12-31T23:59:59-05:00` is in 10000 UTC) and the
 * server's own arithmetic past a range's end (a week or month bucket, the next day) in four-digit
 * years. Refused values name their field like any validation error.
 */
export const TIME_MIN_MS = Date.UTC(1970, 0, 1);
export const TIME_MAX_MS = Date.UTC(9999, 0, 1) - 1;
const TIME_RANGE = 'a time from 1970 to 9998';
const inTimeRange = (ms: number) => ms >= TIME_MIN_MS && ms <= TIME_MAX_MS;
/** An ISO 8601 date-time with an offset (`Z` or `+08:00`), within TIME_MIN_MS … TIME_MAX_MS. */
export const isoDateTimeSchema = z.iso
  .datetime({ offset: true, abort: true })
  .refine((v) => inTimeRange(Date.parse(v)), TIME_RANGE);
/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 does not), in the years above. */
export const calendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'a date YYYY-MM-DD', abort: true })
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, { message: 'no such date', abort: true })
  .refine((v) => inTimeRange(Date.parse(`${v}T00:00:00Z`)), 'a date from 1970 to 9998');

/** Server-side paging: every list takes these and answers a `Page`. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * Keyset paging, for API clients that read a long list to its end (the console's pager uses
 * `page`): a page of a list that offers it answers `next` while more rows follow, and the same
 * query with `after=<next>` answers the rows after that page — as fast at the millionth row as at
 * the first, where `page` skips every row before it. With `after`, `page` is not used. A cursor
 * is opaque to clients; it holds the sort it was made for, and another sort or order refuses it.
 */
export interface ListCursor {
  sort: string;
  order: 'asc' | 'desc';
  /** The last row's sort value as text (null for a row without one). */
  value: string | null;
  id: number;
}

/** Globals of Node (18 and later) and browsers alike; the contract compiles without DOM or Node types. */
const web = globalThis as unknown as {
  btoa(data: string): string;
  atob(data: string): string;
  TextEncoder: new () => { encode(input: string): Uint8Array };
  TextDecoder: new (label: string, options: { fatal: boolean }) => { decode(input: Uint8Array): string };
};

function toBase64Url(text: string): string {
  let bin = '';
  for (const b of new web.TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return web.btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const bin = web.atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new web.TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c: string) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

export function encodeListCursor(c: ListCursor): string {
  return toBase64Url(JSON.stringify([c.sort, c.order, c.value, c.id]));
}

export function decodeListCursor(text: string): ListCursor | null {
  const json = fromBase64Url(text);
  if (json === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(v) || v.length !== 4) return null;
  const [sort, order, value, id] = v as unknown[];
  if (typeof sort !== 'string' || (order !== 'asc' && order !== 'desc')) return null;
  if (value !== null && (typeof value !== 'string' || value.length > 256)) return null;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  return { sort, order, value, id };
}

/** `after`: the `next` of the previous page, decoded (a malformed one is refused by name). */
export const afterQuerySchema = z
  .string()
  .max(512)
  .transform((text, ctx) => {
    const cursor = decodeListCursor(text);
    if (!cursor) {
      ctx.addIssue({ code: 'custom', message: 'not a cursor: pass the `next` of a page of this list' });
      return z.NEVER;
    }
    return cursor;
  })
  .optional();

/**
 * A page of a list. Lists that can grow without bound (devices, logs, alarms, users, projects)
 * count their matches up to a cap: past it `total` is the cap and `exact` is false, shown as
 * "10,000+". Absent `exact` means the total is exact. `next`: see `ListCursor` (lists that take
 * `after` only).
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    total: z.number().int(),
    exact: z.boolean().optional(),
    next: z.string().optional(),
    items: z.array(item),
  });
}
export interface Page<T> {
  total: number;
  exact?: boolean;
  next?: string;
  items: T[];
}
