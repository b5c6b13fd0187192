import { ERROR_CODES } from '@mailroom/contract/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';

/** Longest path segment the router takes: a 254-character address, %-encoded, fits easily. */
export const MAX_PARAM_LENGTH = 2048;

/**
 * Errors the router raises before any route or hook runs (a path segment longer than
 * MAX_PARAM_LENGTH, a bad %-escape): the documented error shape, not Fastify's own.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const code = error.code;
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply
      .status(414)
      .header('cache-control', 'no-store')
      .send(errorBody(ERROR_CODES.BAD_REQUEST, 'A part of the URL path is too long', null, false));
    return;
  }
  if (code === 'FST_ERR_BAD_URL') {
    void reply
      .status(400)
      .header('cache-control', 'no-store')
      .send(errorBody(ERROR_CODES.BAD_REQUEST, 'The URL path is not validly encoded', null, false));
    return;
  }
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  void reply
    .status(status)
    .send(
      errorBody(
        status >= 500 ? ERROR_CODES.INTERNAL : ERROR_CODES.BAD_REQUEST,
        status >= 500 ? 'Internal server error' : error.message,
        null,
        status >= 500,
      ),
    );
}
