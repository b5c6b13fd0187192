import { ERROR_CODES, type FieldError } from '@mailroom/contract/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError, errorBody } from './errors.ts';

function zodDetails(err: ZodError, prefix = ''): FieldError[] {
  return firstPerField(
    err.issues.map((i) => ({ field: prefix + i.path.map(String).join('.'), message: i.message })),
  );
}

/** One message per field, the first that failed: a blank email is "required", not also "invalid". */
function firstPerField(details: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return details.filter((d) => !seen.has(d.field) && seen.add(d.field));
}

const CODE_BY_STATUS: Record<number, string> = {
  401: ERROR_CODES.UNAUTHORIZED,
  403: ERROR_CODES.FORBIDDEN,
  404: ERROR_CODES.NOT_FOUND,
  409: ERROR_CODES.CONFLICT,
};

/** A unique-constraint violation from SQLite or PostgreSQL. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Every error leaves as `{code, message, details, timestamp, retryable}`; bad input is never a 500. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      void reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send(errorBody(error.code, error.message, error.details, error.retryable));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const details = firstPerField(
        error.validation.map((v) => ({
          field: (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || where,
          message: v.message ?? 'Invalid value',
        })),
      );
      return reply
        .status(400)
        .send(errorBody(ERROR_CODES.VALIDATION, details[0]?.message ?? 'Invalid request', details, false));
    }
    if (error instanceof ZodError) {
      const details = zodDetails(error);
      return reply
        .status(400)
        .send(errorBody(ERROR_CODES.VALIDATION, details[0]?.message ?? 'Invalid request', details, false));
    }
    if (isUniqueViolation(error)) {
      // Two writers raced past a service's own existence check; the database kept the first.
      return reply
        .status(409)
        .send(errorBody(ERROR_CODES.CONFLICT, 'A record with the same value already exists', null, true));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send(errorBody(ERROR_CODES.INTERNAL, 'Internal server error', null, true));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send(errorBody(ERROR_CODES.RATE_LIMITED, error.message, null, true));
    }
    if (status === 413) {
      return reply
        .status(413)
        .send(errorBody(ERROR_CODES.PAYLOAD_TOO_LARGE, 'The request body is too large', null, false));
    }
    if (status >= 400 && status < 500) {
      const code = CODE_BY_STATUS[status] ?? ERROR_CODES.BAD_REQUEST;
      return reply.status(status).send(errorBody(code, error.message, null, false));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(ERROR_CODES.INTERNAL, 'Internal server error', null, true));
  });
}
