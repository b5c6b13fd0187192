import { z } from 'zod';
import { defineRoute } from '../route.ts';

/**
 * SSL metrics (issue 19, SSL settings Enable SSL Metrics / SSL Metrics Interval): Apache's own
 * HTTPS requests over the last SSL Metrics Interval, rounded up to whole minutes (the access log is
 * rolled up per minute): requests, handshakes (first request of a connection), resumed handshakes,
 * per protocol and per cipher.
 */
const Figures = {
  requests: z.number(),
  /** Requests that opened their connection (a TLS handshake). */
  handshakes: z.number(),
  /** Of the handshakes, the resumed sessions. */
  resumed: z.number(),
};

export const SslMetricsAnswer = z.object({
  /** Enable SSL Metrics, as the SSL settings say (off: no figures). */
  enabled: z.boolean(),
  /** SSL Metrics Interval (seconds). */
  intervalSeconds: z.number(),
  /** The window summed: whole minutes covering at least the interval (ISO times; null when off). */
  from: z.string().nullable(),
  to: z.string().nullable(),
  totals: z.object(Figures),
  protocols: z.array(z.object({ protocol: z.string(), ...Figures })),
  ciphers: z.array(z.object({ protocol: z.string(), cipher: z.string(), requests: z.number() })),
});
export type SslMetricsAnswer = z.infer<typeof SslMetricsAnswer>;

export const webSslMetricsRoutes = {
  sslMetrics: defineRoute({
    method: 'GET',
    path: 'web/ssl-metrics',
    summary:
      "HTTPS requests, handshakes and resumed sessions per protocol and cipher over the last SSL Metrics Interval (whole minutes), from Apache's access log",
    tags: ['web', 'ssl'],
    response: SslMetricsAnswer,
  }),
};
