import { ErrorResponse } from '@mailroom/contract/errors';
import { z } from 'zod';

/**
 * The OpenAPI answers of a route that does not answer JSON (a file, a text or event stream): its
 * 200 described in words, the documented error shape otherwise, and the bearer security every
 * non-public route has.
 */
export const rawAnswers = (what: string) => ({
  response: {
    200: z.string().describe(what),
    ...Object.fromEntries([400, 401, 404, 429].map((s) => [s, ErrorResponse])),
  },
  security: [{ bearer: [] }],
});
