import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { installDomainCheck, routeAccessError } from './access-scope.ts';
import { recordAudit } from './audit-log.repository.ts';
import { forbidden, unauthorized } from './errors.ts';
import {
  knownSession,
  type SessionAdmin,
  type SessionPolicy,
  tokenFromHeaders,
  touchSession,
} from './sessions.ts';

/**
 * Decided on the matched route pattern, not the raw URL: the router decodes `/%61pi/…` to
 * `/api/…`, so a raw-URL test would let an encoded path past the guard. Unmatched URLs are
 * judged on their decoded path (401 rather than 404, so nothing is revealed).
 */
function isApiRequest(routePattern: string | undefined, rawUrl: string): boolean {
  let p = routePattern;
  if (p === undefined) {
    const raw = rawUrl.split('?')[0] ?? '';
    try {
      p = decodeURIComponent(raw);
    } catch {
      p = raw;
    }
  }
  return p === '/api' || p.startsWith('/api/');
}

/** A mailbox user's session reaches only its own sign-in and account calls (matched route pattern). */
const mailboxMayReach = (route: string | undefined) =>
  route !== undefined && (route.startsWith('/api/auth/') || route.startsWith('/api/account/'));

/**
 * Every /api route needs a live session unless its catalogue entry is public. State-changing
 * calls are written to the audit log as their answer leaves, with its outcome.
 */
/** API keys for automation (features/api-monitoring), wired in app.ts so http/ imports no feature. */
export interface KeyAuth {
  /** Whether the bearer token is an API key (not a session key). */
  isKey(token: string): boolean;
  authenticate(
    token: string,
    request: { ip: string; method: string; route: string | undefined },
  ): Promise<{ admin: SessionAdmin | null; error: Error | null }>;
  /** Each call of a key, as its answer leaves: last use and counts. */
  noteCall(keyId: number, ip: string, status: number): Promise<void>;
}

export function installAuthGuard(
  app: FastifyInstance,
  db: Kysely<Database>,
  policy: SessionPolicy,
  keys?: KeyAuth,
): void {
  app.decorateRequest('admin', null);
  app.decorateRequest('auditTarget', null);
  app.decorateRequest('auditDetails', null);
  app.decorateRequest('auditDone', false);
  app.decorateRequest('auditOutcome', null);

  // Callback-style hooks: most requests need no asynchronous work here, and an async hook costs
  // a promise per request on the hottest path.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isApiRequest(request.routeOptions.url, request.url) || request.routeOptions.config?.public) {
      done();
      return;
    }
    const token = tokenFromHeaders(request.headers);
    if (!token) {
      done(unauthorized());
      return;
    }
    if (keys?.isKey(token)) {
      keys
        .authenticate(token, { ip: request.ip, method: request.method, route: request.routeOptions.url })
        .then(
          ({ admin, error }) => {
            // A known key's refused call is still its call: audited under its name.
            if (admin) request.admin = admin;
            if (error) return done(error);
            const denied = admin ? routeAccessError(request, admin) : unauthorized();
            if (denied) return done(denied);
            done();
          },
          (err: Error) => done(err),
        );
      return;
    }
    const admit = (admin: SessionAdmin | null) => {
      if (!admin) return done(unauthorized());
      // An account that must enrol a second factor first reaches only its own account calls.
      if (admin.scope === 'enrol' && !(request.routeOptions.url ?? '').startsWith('/api/account/'))
        return done(forbidden('Enrol a second factor first.'));
      if (admin.mailboxId !== null && !mailboxMayReach(request.routeOptions.url)) return done(forbidden());
      // Domain administrators reach only routes declared for them (default: administrators only).
      const denied = routeAccessError(request, admin);
      if (denied) return done(denied);
      request.admin = admin;
      done();
    };
    // Most requests: the session as read before, nothing committed anywhere since (no query).
    const known = knownSession(db, policy, token);
    if (known) return admit(known);
    touchSession(db, policy, token).then(admit, (err: Error) => done(err));
  });

  installDomainCheck(app);

  // onSend, not onResponse: the line is written before the caller gets the answer, so a list of
  // recent activity fetched right after an action already shows it.
  app.addHook('onSend', (request, reply, payload, done) => {
    const action = request.routeOptions.config?.audit;
    const key = request.admin?.apiKey;
    if (key && keys && !request.auditDone) {
      // Every call of an API key is audited under the key's name, reads included.
      request.auditDone = true;
      const params = request.params as Record<string, string> | undefined;
      Promise.all([
        recordAudit(db, {
          actor: request.admin!.email,
          action: action ?? `${request.method} ${request.routeOptions.url ?? ''}`,
          target:
            request.auditTarget ??
            (params && Object.keys(params).length ? Object.values(params).join('/') : null),
          ip: request.ip,
          outcome: reply.statusCode < 400 ? 'success' : 'failure',
          details: request.auditDetails ?? (reply.statusCode >= 400 ? { status: reply.statusCode } : null),
        }),
        keys.noteCall(key.id, request.ip, reply.statusCode),
      ])
        .catch((err: unknown) => request.log.error({ err }, 'audit write failed'))
        .finally(() => done(null, payload));
      return;
    }
    if (
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      request.method === 'OPTIONS' ||
      request.auditDone ||
      !request.admin ||
      !action
    ) {
      done(null, payload);
      return;
    }
    request.auditDone = true;
    const params = request.params as Record<string, string> | undefined;
    const target =
      request.auditTarget ?? (params && Object.keys(params).length ? Object.values(params).join('/') : null);
    recordAudit(db, {
      actor: request.admin.email,
      action,
      target,
      ip: request.ip,
      outcome: reply.statusCode < 400 && request.auditOutcome !== 'failure' ? 'success' : 'failure',
      details: request.auditDetails ?? (reply.statusCode >= 400 ? { status: reply.statusCode } : null),
    })
      .catch((err: unknown) => request.log.error({ err }, 'audit write failed'))
      .finally(() => done(null, payload));
  });
}
