import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';
import { tokenFromHeaders } from './sessions.ts';

/** The header the console sends with every call (web/src/api/client.ts). */
export const CONSOLE_HEADER = 'x-requested-with';
export const CONSOLE_HEADER_VALUE = 'mailroom';

export const CSRF_MESSAGE =
  'Cross-site request refused: send the X-Requested-With: mailroom header or an Authorization bearer key';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Origin` names this very server (scheme, host and port as the request reached it). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return false;
  return origin.toLowerCase() === `${request.protocol}://${request.host}`.toLowerCase();
}

/**
 * A browser sends the session cookie with any request to us, a forged cross-site form or
 * `text/plain` fetch included (SameSite does not cover sibling subdomains). A state-changing call
 * that authenticates by cookie alone must therefore prove it comes from the console: the
 * console's custom header (which a cross-site request cannot set without a CORS preflight we never
 * grant) or an `Origin` equal to ours. Calls with a bearer key carry no ambient authority and are
 * not affected. Installed after the auth guard: a forged or expired cookie is a 401 first.
 */
export function installCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const auth = request.headers.authorization;
    if (auth && /^Bearer\s/i.test(auth)) return done();
    // Only a session key from the cookie (there is no bearer) carries the browser's ambient authority.
    if (!tokenFromHeaders({ cookie: request.headers.cookie })) return done();
    const marker = request.headers[CONSOLE_HEADER];
    if (typeof marker === 'string' && marker.toLowerCase() === CONSOLE_HEADER_VALUE) return done();
    if (sameOrigin(request)) return done();
    done(forbidden(CSRF_MESSAGE));
  });
}
