import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notFound } from './errors.ts';
import type { SessionAdmin } from './sessions.ts';

/** Console account roles (`admins.role`, migration 0018). */
export const ADMIN_ROLE = 'admin';
export const DOMAIN_ADMIN_ROLE = 'domain-admin';

export const NOT_ALLOWED_MESSAGE = 'Your account is not allowed to use this part of the console.';
export const OUT_OF_SCOPE_MESSAGE = 'You do not manage this domain.';

/** Only a full administrator is unrestricted: any other role value is scoped (deny by default). */
export const isFullAdmin = (admin: SessionAdmin | null): boolean => admin?.role === ADMIN_ROLE;

/**
 * The domains the signed-in account may see, or null for all (administrators). Services filter
 * their lists with it; an empty list means nothing.
 */
export function domainScope(request: FastifyRequest): readonly string[] | null {
  const admin = request.admin;
  if (!admin) return [];
  return isFullAdmin(admin) ? null : admin.domains;
}

/** The domain an address or a domain value names (lower-case). */
export function domainOfValue(value: string): string {
  const v = value.trim().toLowerCase().replace(/\.$/, '');
  const at = v.lastIndexOf('@');
  return at >= 0 ? v.slice(at + 1) : v;
}

export const inScope = (scope: readonly string[] | null, value: string): boolean =>
  scope === null || scope.includes(domainOfValue(value));

/** Throws 404 unless the object's domain is in the caller's scope (its existence stays hidden). */
export function assertInScope(request: FastifyRequest, value: string): void {
  if (!inScope(domainScope(request), value)) throw notFound();
}

/**
 * Route-level access, decided in the auth guard from the route's catalogue entry: routes without
 * an `access` declaration are for administrators only.
 */
export function routeAccessError(request: FastifyRequest, admin: SessionAdmin): Error | null {
  if (isFullAdmin(admin)) return null;
  const access = request.routeOptions.config?.access;
  if (access === 'self' || access === 'domain') return null;
  return forbidden(NOT_ALLOWED_MESSAGE);
}

function valuesAt(request: FastifyRequest, field: string): unknown[] | undefined {
  const list = field.endsWith('[]');
  const [where, name] = (list ? field.slice(0, -2) : field).split('.') as [string, string];
  const from =
    where === 'params'
      ? request.params
      : where === 'query'
        ? request.query
        : where === 'body'
          ? request.body
          : null;
  const v = from && typeof from === 'object' ? (from as Record<string, unknown>)[name] : undefined;
  if (v === undefined || v === null) return undefined;
  return list ? (Array.isArray(v) ? (v as unknown[]) : [v]) : [v];
}

/**
 * After validation: a domain administrator's call on a 'domain' route must name only domains they
 * manage. An object in the path of another domain answers 404 (as if it did not exist); a domain
 * given in the query or body (creating, moving) answers 403.
 */
export function installDomainCheck(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const admin = request.admin;
    const config = request.routeOptions.config;
    if (!admin || isFullAdmin(admin) || config?.access !== 'domain') {
      done();
      return;
    }
    for (const field of config.domainFields ?? []) {
      const values = valuesAt(request, field);
      const inPath = field.startsWith('params.');
      if (values === undefined) {
        done(forbidden(OUT_OF_SCOPE_MESSAGE));
        return;
      }
      for (const v of values) {
        if (typeof v !== 'string' || !admin.domains.includes(domainOfValue(v))) {
          done(inPath ? notFound() : forbidden(OUT_OF_SCOPE_MESSAGE));
          return;
        }
      }
    }
    done();
  });
}
