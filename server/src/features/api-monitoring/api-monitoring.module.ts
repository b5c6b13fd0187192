import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import type { KeyAuth } from '../../http/auth-guard.ts';
import { tooManyRequests } from '../../http/errors.ts';
import { tokenFromHeaders } from '../../http/sessions.ts';
import { LIST_ROUTE_COUNTERS } from '../../http/list-etag.ts';
import { RATE_LIMIT_MESSAGE } from '../../http/rate-limit.ts';
import { addressAllowed, authenticateKey, isApiKeyToken, noteCall, principalOf } from './api-key.service.ts';
import { purgeStats, totalRows } from './api-stats.repository.ts';
import { type ApiSettings, readApiSettings } from './api-settings.repository.ts';
import { BUCKET_COLUMNS, LATENCY_BOUNDS_MS } from './latency-histogram.service.ts';
import { purgeBuckets } from './rate-bucket.repository.ts';
import { exemptFromLimit, PrincipalRateLimiter } from './rate-limit.service.ts';
import { FLUSH_INTERVAL_MS, RequestRecorder } from './request-recorder.service.ts';
import { CACHED_HEADERS, cacheKey, ResponseCache } from './response-cache.service.ts';

/** How often each process reads the settings (limits and cache changes reach it within this). */
export const SETTINGS_POLL_MS = 2000;
const PURGE_EVERY_MS = 10 * 60_000;

export interface ApiMonitor {
  readonly settings: ApiSettings;
  /** Adds what this process counted to the shared roll-ups now. */
  flush(): Promise<void>;
  /** Takes new settings at once in this process (the others read them within SETTINGS_POLL_MS). */
  apply(settings: ApiSettings): void;
  /** Empties this process's cache (Clear; the others follow the generation). */
  clearCache(): void;
  /** The request counters and durations of every worker and instance, in Prometheus text. */
  prometheusText(): Promise<string>;
  /** API keys for the auth guard. */
  readonly keyAuth: KeyAuth;
  /** Whether this request may read /metrics (open, an allowed address, or a key with the metrics area). */
  metricsAllowed(request: FastifyRequest): Promise<boolean>;
  /** The editable per-principal limit, after the auth guard found the session. */
  installAfterAuth(): void;
  /** The response cache, after the list validators (http/list-etag.ts). */
  installCache(): void;
}

/** A request is one of the page's figures unless it is the page's own polling, the events stream, /metrics or a static file. */
function countedOnPage(request: FastifyRequest, route: string): boolean {
  const path = route === 'unmatched' ? (request.url.split('?')[0] ?? '') : route;
  if (!(path === '/api' || path.startsWith('/api/') || path.startsWith('/auth/'))) return false;
  if (route === '/api/events') return false;
  if (request.method === 'GET' && route.startsWith('/api/api-monitoring/')) return false;
  // The console's background refreshes (e.g. the maintenance banner) say so.
  return request.headers['x-mailroom-poll'] === undefined;
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * API monitoring's wiring: counts every request into the shared roll-ups, reads the editable
 * settings every few seconds, enforces the per-principal rate limit and runs the response cache.
 */
export async function installApiMonitoring(app: FastifyInstance, deps: AppDeps): Promise<ApiMonitor> {
  const db = deps.database.db;
  let settings = await readApiSettings(db);
  const node = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  let recorder: RequestRecorder | null = null;
  const cache = new ResponseCache(settings.cacheMaxSize, settings.cacheTtlSeconds, (n) =>
    recorder?.evicted(n),
  );
  recorder = new RequestRecorder(db, node, () => cache.size);
  const rec = recorder;
  const limiter = new PrincipalRateLimiter(db, () => settings);

  // /metrics reads its key outside the auth guard: the scrape is still that key's call.
  const metricsKey = new WeakMap<FastifyRequest, number>();
  app.decorateRequest('apiCache', null);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    rec.record({
      method: request.method,
      route,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      api: countedOnPage(request, route),
      cache: request.apiCache,
      keyId: request.admin?.apiKey?.id ?? metricsKey.get(request) ?? null,
    });
    done();
  });

  const apply = (next: ApiSettings) => {
    const prev = settings;
    // A poll that read the row before a change this process just made must not undo it.
    if (next.updatedAt < prev.updatedAt) return;
    settings = next;
    if (
      prev.rateEnabled !== next.rateEnabled ||
      prev.ratePerMinute !== next.ratePerMinute ||
      prev.ratePerHour !== next.ratePerHour
    )
      limiter.reset();
    cache.configure(next.cacheMaxSize, next.cacheTtlSeconds);
    if (prev.cacheGeneration !== next.cacheGeneration || !next.cacheEnabled) cache.clear();
  };

  const flush = () => rec.flush();
  const flushTimer = setInterval(() => {
    flush().catch((err: unknown) => app.log.warn({ err }, 'API statistics flush failed'));
  }, FLUSH_INTERVAL_MS);
  flushTimer.unref();
  const pollTimer = setInterval(() => {
    readApiSettings(db).then(apply, (err: unknown) => app.log.warn({ err }, 'API settings read failed'));
  }, SETTINGS_POLL_MS);
  pollTimer.unref();
  const purge = () => {
    const now = Date.now();
    Promise.all([
      purgeStats(db, Math.floor(now / 60_000) - 25 * 60, now - 86_400_000),
      purgeBuckets(db, now),
    ]).catch((err: unknown) => app.log.warn({ err }, 'API statistics purge failed'));
  };
  const purgeTimer = setInterval(purge, PURGE_EVERY_MS);
  purgeTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(flushTimer);
    clearInterval(pollTimer);
    clearInterval(purgeTimer);
    await flush().catch((err: unknown) => app.log.warn({ err }, 'API statistics flush failed'));
  });

  return {
    get settings() {
      return settings;
    },
    flush,
    apply,
    clearCache: () => cache.clear(),
    keyAuth: {
      isKey: isApiKeyToken,
      authenticate: (token, r) => authenticateKey(db, token, r),
      noteCall: (id, ip, status) => noteCall(db, id, ip, status),
    },
    async metricsAllowed(request) {
      if (!settings.metricsProtected) return true;
      if (settings.metricsAllowed.length && addressAllowed(request.ip, settings.metricsAllowed)) return true;
      const token = tokenFromHeaders({ authorization: request.headers.authorization });
      if (!token || !isApiKeyToken(token)) return false;
      const { admin, error } = await authenticateKey(db, token, {
        ip: request.ip,
        method: 'GET',
        route: '/metrics',
      });
      if (admin?.apiKey) {
        metricsKey.set(request, admin.apiKey.id);
        await noteCall(db, admin.apiKey.id, request.ip, error ? 401 : 200);
      }
      return error === null && admin !== null;
    },
    async prometheusText() {
      await flush();
      const rows = await totalRows(db);
      const out: string[] = [
        '# HELP mailroom_http_requests_total HTTP requests by method, route and status (every worker and instance)',
        '# TYPE mailroom_http_requests_total counter',
      ];
      const labels = (r: { method: string; route: string; status: number }) =>
        `method="${escapeLabel(r.method)}",route="${escapeLabel(r.route)}",status="${r.status}"`;
      for (const r of rows) out.push(`mailroom_http_requests_total{${labels(r)}} ${r.count}`);
      out.push(
        '# HELP mailroom_http_request_duration_seconds HTTP request duration by method, route and status (every worker and instance)',
        '# TYPE mailroom_http_request_duration_seconds histogram',
      );
      for (const r of rows) {
        let cumulative = 0;
        LATENCY_BOUNDS_MS.forEach((bound, i) => {
          cumulative += r.buckets[i] ?? 0;
          out.push(
            `mailroom_http_request_duration_seconds_bucket{le="${bound / 1000}",${labels(r)}} ${cumulative}`,
          );
        });
        cumulative += r.buckets[BUCKET_COLUMNS.length - 1] ?? 0;
        out.push(`mailroom_http_request_duration_seconds_bucket{le="+Inf",${labels(r)}} ${cumulative}`);
        out.push(`mailroom_http_request_duration_seconds_sum{${labels(r)}} ${r.totalMs / 1000}`);
        out.push(`mailroom_http_request_duration_seconds_count{${labels(r)}} ${r.count}`);
      }
      return out.join('\n') + '\n';
    },
    installAfterAuth() {
      app.addHook(
        'onRequest',
        (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
          const admin = request.admin;
          if (!admin || !settings.rateEnabled || exemptFromLimit(request.routeOptions.url)) return done();
          limiter.check(principalOf(admin)).then(
            (d) => {
              if (!d.admitted) return done(tooManyRequests(d.retryAfter, RATE_LIMIT_MESSAGE(d.retryAfter)));
              void reply.header('x-ratelimit-remaining', String(d.remaining));
              done();
            },
            (err: Error) => {
              // A counting failure must not take the API down: let the request through, say so.
              request.log.warn({ err }, 'rate limit count failed');
              done();
            },
          );
        },
      );
    },
    installCache() {
      const pending = new WeakMap<FastifyRequest, string>();
      app.addHook(
        'preHandler',
        (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
          const route = request.routeOptions.url ?? '';
          const etag = request.listEtag;
          if (request.method !== 'GET' || !LIST_ROUTE_COUNTERS[route] || !request.admin || etag === null)
            return done();
          if (!settings.cacheEnabled) {
            request.apiCache = 'bypass';
            void reply.header('x-cache', 'BYPASS');
            return done();
          }
          const admin = request.admin;
          const key = cacheKey({
            method: request.method,
            url: request.url,
            principal: principalOf(admin),
            scope: `${admin.role}:${admin.domains.join(',')}`,
            accept: request.headers.accept,
          });
          const hit = cache.get(key, etag);
          if (hit) {
            request.apiCache = 'hit';
            void reply.code(200).headers(hit.headers).header('x-cache', 'HIT').send(hit.body);
            return;
          }
          request.apiCache = 'miss';
          pending.set(request, key);
          done();
        },
      );
      app.addHook('onSend', (request, reply, payload, done) => {
        const key = pending.get(request);
        if (key === undefined) return done(null, payload);
        pending.delete(request);
        const etag = request.listEtag;
        // Only a plain 200 answer is kept: never an error, never one that sets a cookie.
        if (
          reply.statusCode !== 200 ||
          reply.hasHeader('set-cookie') ||
          typeof payload !== 'string' ||
          !etag
        ) {
          request.apiCache = 'bypass';
          void reply.header('x-cache', 'BYPASS');
          return done(null, payload);
        }
        void reply.header('x-cache', 'MISS');
        const headers: Record<string, string> = {};
        for (const h of CACHED_HEADERS) {
          const v = reply.getHeader(h);
          if (v !== undefined) headers[h] = String(v);
        }
        cache.set(key, { etag, body: Buffer.from(payload), headers });
        done(null, payload);
      });
    },
  };
}
