import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  strictTransportSecurity: false,
  // Old browsers ignore frame-ancestors; tell them the same thing.
  xFrameOptions: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
};

/** Helmet's headers for OPTIONS, computed once: they never vary by request. */
export function securityHeaders(options: HelmetOptions = OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return headers;
}

/** An API path: `/api` and below, `/auth/…`, `/index.php`. Not a page such as /api-monitoring. */
export const isApiUrl = (url: string) =>
  url === '/api' ||
  url.startsWith('/api/') ||
  url.startsWith('/api?') ||
  url.startsWith('/auth/') ||
  url.startsWith('/index.php');

/**
 * What an API answer (JSON, CSV, event streams: never a document) carries: OWASP's REST Security
 * Cheat Sheet set. A browser applies the rest of helmet's set (script sources, opener and origin
 * isolation, prefetch, legacy IE and Flash switches) only to documents, so on an answer they are
 * bytes every client parses for nothing; `default-src 'none'` is stricter than the page's policy.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Pages: CSP without inline script (Mantine needs inline styles), no framing, nosniff. API
 * answers: API_HEADERS; they never go into a browser or proxy cache (the sign-in key, mailbox
 * lists…), though a route may still choose otherwise (e.g. `no-cache` with an ETag) by setting
 * its own header. HSTS only when the request itself came over TLS (directly or, with
 * MAILROOM_TRUST_PROXY, through the proxy). Both sets are built once rather than per request
 * (@fastify/helmet rebuilds them on every request, a measurable share of a small read).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  const pageHeaders = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(isApiUrl(request.url) ? API_HEADERS : pageHeaders);
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    done();
  });
}
