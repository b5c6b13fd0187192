import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SslMetricsAnswer } from '@mailroom/contract/web/ssl-metrics';
import { figuresLogPath } from '../../src/features/web/settings/apache-conf.renderer.ts';
import { readWebSettings } from '../../src/features/web/settings/web-settings.repository.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Issue 19, Enable SSL Metrics / SSL Metrics Interval: the access log lines Apache writes with the
 * tls field (format proved against a real Apache in
 * server/test/integration/web-apache-ssl-metrics.test.ts) are rolled up by the roll-up itself
 * (the route reads the log first), and the route answers the last interval in whole minutes.
 */
describe.each(dialects())('SSL metrics on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  const save = async (patch: object) => {
    const cur = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{
      settings: object;
      version: number;
    }>();
    const res = await t.call({
      method: 'POST',
      url: '/api/ssl/settings',
      payload: { settings: { ...cur.settings, ...patch }, version: cur.version },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const metrics = async () => {
    const res = await t.call({ method: 'GET', url: '/api/web/ssl-metrics' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<SslMetricsAnswer>();
  };

  it('sums HTTPS requests, handshakes and resumed sessions per protocol and cipher over the window; off shows none', async () => {
    await save({ enableSslMetrics: true, sslMetricsInterval: 300 });
    const now = Math.floor(Date.now() / 1000);
    const line = (tls: string | null, secs: number) =>
      `${tls ? `${tls} ` : ''}a.example.com 127.0.0.1 ${secs} 200 5 10\n`;
    const v12 = 'TLSv1.2/ECDHE-RSA-AES256-GCM-SHA384';
    const v13 = 'TLSv1.3/TLS_AES_256_GCM_SHA384';
    const log = t.deps.host.path(figuresLogPath(await readWebSettings(t.deps.database.db)));
    mkdirSync(path.dirname(log), { recursive: true });
    appendFileSync(
      log,
      [
        // One TLS 1.2 connection with three requests, two minutes ago.
        line(`tls:${v12}/0/Initial`, now - 120),
        line(`tls:${v12}/1/Initial`, now - 120),
        line(`tls:${v12}/2/Initial`, now - 119),
        // Two TLS 1.3 handshakes, one resumed, now.
        line(`tls:${v13}/0/Initial`, now),
        line(`tls:${v13}/0/Resumed`, now),
        // An hour ago: outside the window.
        line(`tls:${v13}/0/Initial`, now - 3600),
        // Plain HTTP, and a line written before SSL metrics were on.
        line('tls:-/-/0/-', now),
        line(null, now),
      ].join(''),
    );

    const on = await metrics();
    expect(on.enabled).toBe(true);
    expect(on.intervalSeconds).toBe(300);
    const from = Date.parse(on.from!);
    expect(from % 60_000).toBe(0);
    expect(from).toBeLessThanOrEqual((now - 300) * 1000);
    expect(from).toBeGreaterThan((now - 360) * 1000);
    expect(on.totals).toEqual({ requests: 5, handshakes: 3, resumed: 1 });
    expect(on.protocols).toEqual([
      { protocol: 'TLSv1.2', requests: 3, handshakes: 1, resumed: 0 },
      { protocol: 'TLSv1.3', requests: 2, handshakes: 2, resumed: 1 },
    ]);
    expect(on.ciphers).toEqual([
      { protocol: 'TLSv1.2', cipher: 'ECDHE-RSA-AES256-GCM-SHA384', requests: 3 },
      { protocol: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', requests: 2 },
    ]);
    // Read once: a second call adds nothing.
    expect((await metrics()).totals).toEqual({ requests: 5, handshakes: 3, resumed: 1 });

    // A one-minute interval: the TLS 1.2 connection of two minutes ago is outside it.
    await save({ sslMetricsInterval: 60 });
    const short = await metrics();
    expect(short.totals).toEqual({ requests: 2, handshakes: 2, resumed: 1 });
    expect(short.protocols.map((p) => p.protocol)).toEqual(['TLSv1.3']);

    // Off: no figures, though the minutes are kept.
    await save({ enableSslMetrics: false });
    expect(await metrics()).toEqual({
      enabled: false,
      intervalSeconds: 0,
      from: null,
      to: null,
      totals: { requests: 0, handshakes: 0, resumed: 0 },
      protocols: [],
      ciphers: [],
    });
    const kept = await t.deps.database.db.selectFrom('web_tls_minutes').selectAll().execute();
    expect(kept.reduce((n, r) => n + Number(r.requests), 0)).toBe(6);
  });
});
