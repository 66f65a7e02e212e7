import { ErrorCode, type RefusalReason } from '@iot/contract';
import { conflict, refuse, type AppError } from './errors.js';

/** SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a statement cancelled: at statement_timeout, or by pg_cancel_backend. */
const QUERY_CANCELED = '57014';

/**
 * The PostgreSQL error behind a failure, if any: pg and PGlite both expose `code` (SQLSTATE) and
 * `constraint`; Drizzle wraps them in a DrizzleQueryError whose `cause` is the original.
 */
function pgErrorOf(err: unknown): { code: string; constraint?: string; detail?: string } | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: (e as { constraint?: string }).constraint, detail: (e as { detail?: string }).detail };
    }
  }
  return undefined;
}

/** The constraint a unique violation hit, or undefined for any other failure. */
export function uniqueViolationOf(err: unknown): string | undefined {
  const pg = pgErrorOf(err);
  return pg?.code === UNIQUE_VIOLATION ? (pg.constraint ?? '') : undefined;
}

/**
 * What each unique constraint means to a caller. A check before the insert answers most
 * duplicates; these answer the ones that slip past it under concurrency.
 */
const UNIQUE_CONSTRAINTS: Record<string, { reason: RefusalReason; field?: string }> = {
  devices_sn_unique: { reason: 'snTaken', field: 'sn' },
  users_username_unique: { reason: 'usernameTaken', field: 'username' },
  device_types_code_unique: { reason: 'typeCodeTaken', field: 'code' },
  roles_identification_unique: { reason: 'identificationTaken', field: 'identification' },
  menus_identification_unique: { reason: 'identificationTaken', field: 'identification' },
  permissions_identification_unique: { reason: 'identificationTaken', field: 'identification' },
  user_emails_user_email_uq: { reason: 'emailTaken', field: 'email' },
  device_type_params_type_sem_uq: { reason: 'duplicateValue', field: 'params' },
  sim_cards_iccid_unique: { reason: 'iccidTaken', field: 'iccid' },
  sim_cards_msisdn_uq: { reason: 'duplicateValue', field: 'msisdn' },
  sim_cards_imsi_uq: { reason: 'duplicateValue', field: 'imsi' },
  card_prices_kind_plan_uq: { reason: 'priceTaken', field: 'plan' },
  stores_code_unique: { reason: 'storeCodeTaken', field: 'code' },
  rentals_open_device_idx: { reason: 'packRented', field: 'deviceId' },
};

/**
 * A unique violation, or the refusal of migration 0066 (a pack in an open rental moved away from
 * its store's owner: check violation `devices_store_open_rental`, its SN in the detail), as the
 * documented 40900 with its reason; undefined for other failures.
 */
export function conflictFromDb(err: unknown): AppError | undefined {
  const pg = pgErrorOf(err);
  if (pg?.code === '23514' && pg.constraint === 'devices_store_open_rental') return conflict('packMovedOut', { params: { sn: pg.detail ?? '' } });
  const constraint = uniqueViolationOf(err);
  if (constraint === undefined) return undefined;
  const known = UNIQUE_CONSTRAINTS[constraint];
  return conflict(known?.reason ?? 'duplicateValue', { field: known?.field });
}

/**
 * A failure that says nothing about the statement itself: a deadlock (40P01) or a serialization
 * failure (40001). PostgreSQL rolled the transaction back; running it again is the documented cure.
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = pgErrorOf(err)?.code;
  return code === '40P01' || code === '40001';
}

/** A foreign key violation (23503): a row still refers to the one being deleted. */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgErrorOf(err)?.code === '23503';
}

/** The SQLSTATE behind a failure (pg or PGlite, through Drizzle's wrapper), if any. */
export function sqlStateOf(err: unknown): string | undefined {
  return pgErrorOf(err)?.code;
}

/**
 * A failure caused by the data a statement was given rather than by the database or the
 * connection: a data exception (class 22: bad text for a type, jsonb refusing a string…), an
 * integrity violation (class 23: a check, a foreign key, a row for no partition) or a program
 * limit (class 54: too large, too complex). The same statement fails again with the same data;
 * without the offending rows it may not.
 */
export function isDataError(err: unknown): boolean {
  const code = pgErrorOf(err)?.code;
  return code !== undefined && /^(22|23|54)/.test(code);
}

/**
 * A statement PostgreSQL stopped at the connections' statement_timeout (or cancelled because its
 * caller left, who reads no answer) as the documented 50300 `queryTimeout`; undefined otherwise.
 */
export function timeoutFromDb(err: unknown): AppError | undefined {
  return pgErrorOf(err)?.code === QUERY_CANCELED ? refuse(ErrorCode.TIMED_OUT, 'queryTimeout') : undefined;
}
