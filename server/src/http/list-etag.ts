import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { listVersions } from './list-version.repository.ts';

/** The list routes (Fastify patterns) and the change counters their answers depend on. */
export const LIST_ROUTE_COUNTERS: Record<string, string[]> = {
  '/api/mail/users': ['mailboxes'],
  '/api/mail/aliases': ['mail_aliases'],
  '/api/dns/records': ['dns_records', 'dns_zones'],
  '/api/dns/records/:zone': ['dns_records', 'dns_zones'],
  '/api/dns/zones': ['dns_zones'],
  '/api/ssl/certificates': ['ssl_certificates'],
};

/**
 * Lists whose answers also move with the clock (a certificate's days left and status): their tag
 * changes every step as well, so a revalidated answer is at most one step old.
 */
export const LIST_ROUTE_TIME_STEP_MS: Record<string, number> = {
  '/api/ssl/certificates': 60_000,
};

/**
 * The validator of a list answer: the database's epoch and the counters the triggers raise on
 * every change of the listed tables, plus the request's path and query (each page, sort or filter
 * has its own tag). Reading it costs one indexed query of a few rows, whatever the list's size.
 */
export async function listEtag(
  db: Kysely<Database>,
  counters: string[],
  url: string,
  timeStepMs?: number,
): Promise<string> {
  const rows = await listVersions(db, ['epoch', ...counters]);
  const v = new Map(rows.map((r) => [r.name, Number(r.version)]));
  const clock = timeStepMs ? [Math.floor(Date.now() / timeStepMs)] : [];
  const state = [...['epoch', ...counters].map((n) => v.get(n) ?? 0), ...clock]
    .map((n) => n.toString(36))
    .join('.');
  const query = createHash('sha256').update(url).digest('base64url').slice(0, 16);
  return `W/"${state}-${query}"`;
}

/** RFC 9110 weak comparison of If-None-Match against our tag (`*` matches any). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/**
 * Conditional GETs on the list routes: every answer carries an ETag, and a request whose
 * If-None-Match still matches is answered 304 without reading the list. The tag is read before the
 * list, so a change committed in between can only make the next request miss, never serve stale
 * rows. Runs after the auth guard and query validation (preHandler).
 */
export function installListEtags(app: FastifyInstance, db: Kysely<Database>): void {
  // The tag goes on successful answers only: an error (a 404 zone, a 400 cursor) must not be
  // revalidated into a 304 later.
  const tags = new WeakMap<FastifyRequest, string>();
  app.decorateRequest('listEtag', null);
  app.addHook('onSend', (request, reply, payload, done) => {
    const etag = tags.get(request);
    if (etag !== undefined && reply.statusCode === 200) void reply.header('etag', etag);
    done(null, payload);
  });
  // Callback style: the other routes pass through without a promise.
  app.addHook('preHandler', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const counters =
      request.method === 'GET' || request.method === 'HEAD'
        ? LIST_ROUTE_COUNTERS[request.routeOptions.url ?? '']
        : undefined;
    if (!counters) {
      done();
      return;
    }
    const route = request.routeOptions.url ?? '';
    listEtag(db, counters, request.url, LIST_ROUTE_TIME_STEP_MS[route]).then(
      (etag) => {
        if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
          void reply.code(304).header('etag', etag).send();
          return;
        }
        tags.set(request, etag);
        request.listEtag = etag;
        done();
      },
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
    );
  });
}
