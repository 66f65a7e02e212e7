import { z } from 'zod';

/** The one success code of the envelope (§7, §9). */
export const SUCCESS = 20000 as const;

/**
 * Every error code the API answers with. The first digits mirror the HTTP class so a code can be
 * read without a table; the three session codes are the spec's own (§8).
 */
export const ErrorCode = {
  /** A field failed validation; `data.field` names it. */
  VALIDATION: 40000,
  /** Captcha missing, wrong, used or expired; `data.field` is `captcha`. */
  CAPTCHA: 40002,
  /** Username or password wrong (the mock code of §7). */
  BAD_CREDENTIALS: 60204,
  /** Token unknown or malformed (§8). */
  TOKEN_ILLEGAL: 50008,
  /** Session revoked: logged out, replaced, password changed, user disabled (§8). */
  TOKEN_REVOKED: 50012,
  /** Session expired (§8). */
  TOKEN_EXPIRED: 50014,
  FORBIDDEN: 40300,
  NOT_FOUND: 40400,
  CONFLICT: 40900,
  RATE_LIMITED: 42900,
  /** Too many failed logins for this username from this address; `data.retryAfter` seconds. */
  ACCOUNT_LOCKED: 42901,
  SERVER_ERROR: 50000,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Session codes that make the console offer a fresh login (§8). */
export const SESSION_CODES: readonly number[] = [
  ErrorCode.TOKEN_ILLEGAL,
  ErrorCode.TOKEN_REVOKED,
  ErrorCode.TOKEN_EXPIRED,
];

const STATUS: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION]: 400,
  [ErrorCode.CAPTCHA]: 400,
  [ErrorCode.BAD_CREDENTIALS]: 401,
  [ErrorCode.TOKEN_ILLEGAL]: 401,
  [ErrorCode.TOKEN_REVOKED]: 401,
  [ErrorCode.TOKEN_EXPIRED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.ACCOUNT_LOCKED]: 429,
  [ErrorCode.SERVER_ERROR]: 500,
};

/** The HTTP status that goes with an error code. */
export function httpStatusFor(code: number): number {
  return STATUS[code as ErrorCode] ?? 500;
}

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

/** Server-side paging: every list takes these and answers a `Page`. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * A page of a list. Lists that can grow without bound (devices, logs, alarms, users, projects)
 * count their matches up to a cap: past it `total` is the cap and `exact` is false, shown as
 * "10,000+". Absent `exact` means the total is exact.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ total: z.number().int(), exact: z.boolean().optional(), items: z.array(item) });
}
export interface Page<T> {
  total: number;
  exact?: boolean;
  items: T[];
}
