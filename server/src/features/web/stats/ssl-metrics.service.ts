import type { SslMetricsAnswer } from '@mailroom/contract/web/ssl-metrics';
import type { WebContext } from '../stack/web.context.ts';
import { rollUpAccessLog } from './log-rollup.service.ts';
import { tlsSince } from './web-tls.repository.ts';

const NONE = { requests: 0, handshakes: 0, resumed: 0 };

/**
 * Enable SSL Metrics / SSL Metrics Interval: the HTTPS requests of Apache's access log over the last
 * interval, rounded up to whole minutes (the roll-up is per minute): from the start of the minute
 * holding `now - interval` to now. Off: no figures (none stale shown as current).
 */
export async function sslMetricsAnswer(ctx: WebContext, now = Date.now()): Promise<SslMetricsAnswer> {
  const extras = ctx.tlsPolicy ? (await ctx.tlsPolicy(ctx.db)).extras : undefined;
  const interval = extras?.metricsInterval ?? null;
  if (interval === null)
    return {
      enabled: false,
      intervalSeconds: 0,
      from: null,
      to: null,
      totals: { ...NONE },
      protocols: [],
      ciphers: [],
    };
  // The lines Apache wrote since the last roll-up count too.
  await rollUpAccessLog(ctx.deps).catch(() => undefined);
  const fromMinute = Math.floor((now / 1000 - interval) / 60);
  const rows = await tlsSince(ctx.db, fromMinute);
  const totals = { ...NONE };
  const protocols = new Map<
    string,
    { protocol: string; requests: number; handshakes: number; resumed: number }
  >();
  for (const r of rows) {
    totals.requests += r.requests;
    totals.handshakes += r.handshakes;
    totals.resumed += r.resumed;
    let p = protocols.get(r.protocol);
    if (!p) protocols.set(r.protocol, (p = { protocol: r.protocol, ...NONE }));
    p.requests += r.requests;
    p.handshakes += r.handshakes;
    p.resumed += r.resumed;
  }
  return {
    enabled: true,
    intervalSeconds: interval,
    from: new Date(fromMinute * 60_000).toISOString(),
    to: new Date(now).toISOString(),
    totals,
    protocols: [...protocols.values()].sort(
      (a, b) => b.requests - a.requests || a.protocol.localeCompare(b.protocol),
    ),
    ciphers: rows.map((r) => ({ protocol: r.protocol, cipher: r.cipher, requests: r.requests })),
  };
}
