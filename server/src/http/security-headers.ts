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

const isApiUrl = (url: string) =>
  url.startsWith('/api') || url.startsWith('/auth/') || url.startsWith('/index.php');

/**
 * CSP without inline script (Mantine needs inline styles), no framing, nosniff. HSTS only when
 * the request itself came over TLS (directly or, with MAILROOM_TRUST_PROXY, through the proxy).
 * The header set is built once with helmet rather than per request (@fastify/helmet rebuilds it
 * on every request, a measurable share of a small read).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headers);
    // API answers (the sign-in key, mailbox lists…) never go into a browser or proxy cache. A
    // route may still choose otherwise (e.g. `no-cache` with an ETag) by setting its own header.
    if (isApiUrl(request.url)) void reply.header('cache-control', 'no-store');
    if (request.protocol === 'https') {
      void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
    done();
  });
}
