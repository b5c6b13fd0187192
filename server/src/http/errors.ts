import { ERROR_CODES, type ErrorResponse, type FieldError } from '@mailroom/contract/errors';

/** An error with a status and a code that the error handler turns into the one answer shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly retryable = false,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details: unknown = null) =>
  new AppError(400, ERROR_CODES.BAD_REQUEST, message, details);

/** A validation failure naming the field(s). */
export const fieldError = (field: string, message: string, more: FieldError[] = []) =>
  new AppError(400, ERROR_CODES.VALIDATION, message, [{ field, message }, ...more]);

export const unauthorized = (message = 'Authentication required') =>
  new AppError(401, ERROR_CODES.UNAUTHORIZED, message);

export const forbidden = (message = 'Access denied') => new AppError(403, ERROR_CODES.FORBIDDEN, message);

export const notFound = (message = 'The requested resource was not found.') =>
  new AppError(404, ERROR_CODES.NOT_FOUND, message);

export const conflict = (message: string, details: unknown = null) =>
  new AppError(409, ERROR_CODES.CONFLICT, message, details);

export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Try again later.') =>
  new AppError(429, ERROR_CODES.RATE_LIMITED, message, { retryAfter: retryAfterSeconds }, true, {
    'retry-after': String(retryAfterSeconds),
  });

/** A rendered config file was rejected by its checker; the last good file stays in place. */
export const checkFailed = (message: string, output: string) =>
  new AppError(422, ERROR_CODES.CHECK_FAILED, message, { output });

export function errorBody(
  code: string,
  message: string,
  details: unknown,
  retryable: boolean,
): ErrorResponse {
  return { code, message, details: details ?? null, timestamp: new Date().toISOString(), retryable };
}
