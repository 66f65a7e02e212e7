/** The envelope's codes (zod-free: the console reads them at run time). */

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
  /**
   * The database stopped the statement at its time limit (statement_timeout): the request asked
   * for more than the server will read at once; `data.reason` is `queryTimeout`.
   */
  TIMED_OUT: 50300,
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
  [ErrorCode.TIMED_OUT]: 503,
};

/** The HTTP status that goes with an error code. */
export function httpStatusFor(code: number): number {
  return STATUS[code as ErrorCode] ?? 500;
}
