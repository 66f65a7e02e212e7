import { ErrorCode, httpStatusFor, type ErrorData } from '@iot/contract';

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

export const notFound = (what = 'Resource') =>
  new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(ErrorCode.FORBIDDEN, message);
export const conflict = (message: string, field?: string) =>
  new AppError(ErrorCode.CONFLICT, message, field ? { field } : null);
export const invalid = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION, `${field}: ${message}`, { field });
