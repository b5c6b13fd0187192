import type { FastifyInstance } from 'fastify';
import { fieldError } from './errors.ts';

/** The dotted path of the first key or string value holding U+0000, or null. */
function nulPath(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here;
    const found = nulPath(v, here, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 (it fails the query), and no field of ours means it: refuse
 * it up front as a 400 naming the field, on both databases alike.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const parts = { params: request.params, query: request.query, body: request.body };
    for (const [part, value] of Object.entries(parts)) {
      const field = nulPath(value, '', 0);
      if (field !== null) {
        done(fieldError(field || part, 'Text must not contain NUL characters'));
        return;
      }
    }
    done();
  });
}
