import { z } from 'zod';
import { defineRoute } from '../route.ts';

/**
 * SSL health checks (issue 19, SSL settings Enable SSL Health Checks / SSL Health Check Interval):
 * at the interval, a real TLS handshake with SNI against every served HTTPS host name on Apache's
 * HTTPS port. The last result of each name.
 */
export const SslHealthCheck = z.object({
  hostName: z.string(),
  /** The virtual host the name belongs to. */
  domain: z.string(),
  port: z.number(),
  checkedAt: z.string(),
  ok: z.boolean(),
  /** SHA-256 fingerprint of the certificate Apache served (AB:CD:…). */
  fingerprint: z.string().nullable(),
  /** The certificate chosen for the host (null: the SSL settings' default certificate). */
  expectedFingerprint: z.string().nullable(),
  /** The served certificate is not the chosen one. */
  mismatch: z.boolean(),
  notAfter: z.string().nullable(),
  daysLeft: z.number().nullable(),
  /** TLS version negotiated (TLSv1.3…). */
  protocol: z.string().nullable(),
  /** Why the handshake failed. */
  error: z.string().nullable(),
});
export type SslHealthCheck = z.infer<typeof SslHealthCheck>;

export const SslHealthAnswer = z.object({
  /** Enable SSL Health Checks and its interval (seconds), as the SSL settings say. */
  enabled: z.boolean(),
  intervalSeconds: z.number(),
  checks: z.array(SslHealthCheck),
});
export type SslHealthAnswer = z.infer<typeof SslHealthAnswer>;

export const webSslHealthRoutes = {
  sslHealth: defineRoute({
    method: 'GET',
    path: 'web/ssl-health',
    summary:
      'The last SSL health check of every served HTTPS host name: served certificate, days left, protocol, failure',
    tags: ['web', 'ssl'],
    response: SslHealthAnswer,
  }),
};
