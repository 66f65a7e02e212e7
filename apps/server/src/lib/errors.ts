import {
  ErrorCode,
  httpStatusFor,
  refusalMessage,
  type ErrorData,
  type RefusalParams,
  type RefusalReason,
} from '@iot/contract';

/** An error the caller can act on: becomes an envelope with the code's HTTP status. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: ErrorData = null,
  ) {
    super(message);
    this.statusCode = httpStatusFor(code);
  }
}

/**
 * A refusal with a reason code of the contract's REFUSALS: the envelope's message is the English
 * text, `data` carries reason, params and (when one field is to blame) the field.
 */
export function refuse(
  code: ErrorCode,
  reason: RefusalReason,
  opts: { params?: RefusalParams; field?: string } = {},
): AppError {
  const { params, field } = opts;
  const text = refusalMessage(reason, params);
  return new AppError(code, field && code === ErrorCode.VALIDATION ? `${field}: ${text}` : text, {
    ...(field ? { field } : {}),
    reason,
    ...(params ? { params } : {}),
  });
}

export const notFound = (reason: RefusalReason, params?: RefusalParams) =>
  refuse(ErrorCode.NOT_FOUND, reason, { params });
export const forbidden = (reason: RefusalReason, params?: RefusalParams) =>
  refuse(ErrorCode.FORBIDDEN, reason, { params });
export const conflict = (reason: RefusalReason, opts: { params?: RefusalParams; field?: string } = {}) =>
  refuse(ErrorCode.CONFLICT, reason, opts);
export const invalid = (field: string, reason: RefusalReason, params?: RefusalParams) =>
  refuse(ErrorCode.VALIDATION, reason, { field, params });
