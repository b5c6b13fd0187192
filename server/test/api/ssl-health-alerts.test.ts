import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMetrics } from '../fake-metrics.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Issue 19, Enable SSL Alerts / SSL Alert Threshold: the last round of SSL health checks raises
 * system alerts (expiry within the threshold, a wrong certificate, a failed handshake), resolved
 * when the condition is over. The handshakes themselves are proved against a real Apache in
 * server/test/integration/web-apache-ssl-default.test.ts; here a round's results are written as
 * the round writes them.
 */
describe.each(dialects())('SSL alerts from the health checks on %s', (dialect) => {
  let t: TestContext;
  const metrics = new FakeMetrics();
  beforeAll(async () => {
    t = await startTestApp(dialect, { metrics });
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
  /** The alert titled so, raised and open (present) or resolved (a resolved one stays listed until acknowledged). */
  const active = async (title: string, present = true) => {
    for (let i = 0; i < 100; i++) {
      metrics.emit({});
      await new Promise((r) => setTimeout(r, 50));
      const { alerts } = (await t.call({ method: 'GET', url: '/api/system/alerts' })).json<{
        alerts: { title: string; severity: string; message: string; resolvedAt: string | null }[];
      }>();
      const a = alerts.find((x) => x.title === title);
      if (a && (a.resolvedAt === null) === present) return a;
    }
    throw new Error(`${title}: ${present ? 'never raised' : 'never resolved'}`);
  };

  it('raises a warning for expiry within the threshold and a wrong certificate, a critical alert for a failed handshake; they resolve when over', async () => {
    // A long interval: no round of this process replaces the results below during the test.
    await save({
      enableSslHealthChecks: true,
      sslHealthCheckInterval: 86_400,
      enableSslAlerts: true,
      sslAlertThreshold: 30,
    });
    const now = new Date();
    const row = (host: string, patch: object) => ({
      host_name: host,
      domain: host,
      port: 443,
      checked_at: now.toISOString(),
      ok: 1,
      fingerprint: 'AA:01',
      expected_fingerprint: 'AA:01',
      not_after: new Date(now.getTime() + 200 * 86_400_000).toISOString(),
      days_left: 200,
      protocol: 'TLSv1.3',
      error: null,
      ...patch,
    });
    await t.deps.database.db
      .insertInto('web_ssl_health')
      .values([
        row('soon.example.com', {
          days_left: 12,
          not_after: new Date(now.getTime() + 12.5 * 86_400_000).toISOString(),
        }),
        row('wrong.example.com', { fingerprint: 'BB:02' }),
        row('down.example.com', {
          ok: 0,
          fingerprint: null,
          not_after: null,
          days_left: null,
          protocol: null,
          error: 'connect ECONNREFUSED 127.0.0.1:443',
        }),
        row('fine.example.com', {}),
      ])
      .execute();
    const health = (await t.call({ method: 'GET', url: '/api/web/ssl-health' })).json<{
      enabled: boolean;
      intervalSeconds: number;
      checks: { hostName: string; mismatch: boolean; ok: boolean; daysLeft: number | null }[];
    }>();
    expect(health).toMatchObject({ enabled: true, intervalSeconds: 86_400 });
    expect(health.checks.map((c) => [c.hostName, c.ok, c.mismatch, c.daysLeft])).toEqual([
      ['down.example.com', false, false, null],
      ['fine.example.com', true, false, 200],
      ['soon.example.com', true, false, 12],
      ['wrong.example.com', true, true, 200],
    ]);
    const soon = await active('Served certificate expiring: soon.example.com');
    expect(soon).toMatchObject({ severity: 'warning' });
    expect(soon.message).toContain('expires in 12 days');
    expect(await active('Wrong certificate served: wrong.example.com')).toMatchObject({
      severity: 'warning',
    });
    const down = await active('SSL handshake failed: down.example.com');
    expect(down).toMatchObject({ severity: 'critical' });
    expect(down.message).toContain('ECONNREFUSED');
    // The threshold lowered under the days left: that alert resolves; Enable SSL Alerts off: all do.
    await save({ sslAlertThreshold: 10 });
    await active('Served certificate expiring: soon.example.com', false);
    expect((await active('SSL handshake failed: down.example.com')).resolvedAt).toBeNull();
    await save({ enableSslAlerts: false });
    await active('SSL handshake failed: down.example.com', false);
    await active('Wrong certificate served: wrong.example.com', false);
  });
});
