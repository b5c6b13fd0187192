import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SystemStats } from '@mailroom/contract/system-metrics';
import { AlertsAnswer } from '@mailroom/contract/system-alerts';
import { SystemSettingsAnswer } from '@mailroom/contract/system-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonState } from '../../src/host/service-control.ts';
import { FakeMetrics } from '../fake-metrics.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { makeCert } from '../ssl-certs.ts';

const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(dialects())('alerts, webhooks, settings and maintenance mode on %s', (dialect) => {
  let t: TestContext;
  const metrics = new FakeMetrics();
  let receiver: http.Server;
  let receiverUrl = '';
  const received: Received[] = [];
  let failFirst = 0;
  let serviceStates: DaemonState[] = [];
  /** The engine's clock: each sample below moves it 30 s, so two minutes pass in a few polls. */
  let now = Date.now();

  /** Samples `p` every (fake) 30 s until `found` answers: the way a condition that holds is seen. */
  async function sampleUntil<T>(p: Partial<SystemStats>, found: () => Promise<T | undefined | null | false>) {
    for (let i = 0; i < 200; i++) {
      metrics.emit(p);
      now += 30_000;
      await sleep(40);
      const v = await found();
      if (v) return v;
    }
    throw new Error('timed out sampling');
  }

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (failFirst > 0) {
          failFirst--;
          res.writeHead(503).end('busy');
        } else res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    process.env.MAILROOM_WEBHOOK_BACKOFF_MS = '20';
    process.env.MAILROOM_WEBHOOK_ATTEMPTS = '4';
    t = await startTestApp(dialect, {
      jobs: FAST,
      metrics,
      // A service control whose states the test sets (the daemons themselves are not the subject here).
      services: async () => ({
        reload: async () => ({ ok: true, attempted: false, output: '' }),
        states: async () => serviceStates,
        close: async () => undefined,
      }),
    });
    t.deps.clock = () => now;
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => receiver.close(r));
    delete process.env.MAILROOM_WEBHOOK_BACKOFF_MS;
    delete process.env.MAILROOM_WEBHOOK_ATTEMPTS;
  });

  const alerts = async (state = 'active') =>
    AlertsAnswer.parse((await t.call({ url: `/api/system/alerts?state=${state}` })).json()).alerts;

  it('raises an alert once per condition, resolves it when over, delivers signed webhooks with retries', async () => {
    const secret = 'a-webhook-secret-of-length';
    const add = await t.call({
      method: 'POST',
      url: '/api/system/webhooks',
      payload: { url: receiverUrl, secret },
    });
    expect(add.statusCode, add.body).toBe(200);
    const hookId = add.json<{ id: number }>().id;
    const bad = await t.call({
      method: 'POST',
      url: '/api/system/webhooks',
      payload: { url: 'ftp://x', secret: 'short' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json<{ details: { field: string }[] }>()
        .details.map((d) => d.field)
        .sort(),
    ).toEqual(['secret', 'url']);

    failFirst = 2; // the receiver fails twice: the delivery is retried
    // One busy sample is no alert; two minutes of it is.
    metrics.emit({ cpuUsage: 97, diskUsage: 50 });
    await sleep(200);
    expect(await alerts()).toEqual([]);
    const raised = await sampleUntil({ cpuUsage: 97, diskUsage: 50 }, async () =>
      (await alerts()).find((a) => a.type === 'cpu'),
    );
    expect(raised).toMatchObject({
      severity: 'critical',
      title: 'High CPU usage',
      resolvedAt: null,
      acknowledged: false,
    });
    expect(raised.message).toContain('97.0%');

    // Further samples with the same condition raise nothing new.
    metrics.emit({ cpuUsage: 98 });
    metrics.emit({ cpuUsage: 99 });
    await new Promise((r) => setTimeout(r, 200));
    expect((await alerts('all')).filter((a) => a.type === 'cpu')).toHaveLength(1);

    // The webhook: signed body, delivered on the third attempt.
    const delivered = await until(async () => {
      const d = (await t.call({ url: `/api/system/webhooks/${hookId}/deliveries` })).json<{
        deliveries: { state: string; attempts: number; event: string }[];
      }>().deliveries;
      return d.find((x) => x.event === 'alert.raised' && x.state === 'delivered');
    }, 'the delivery');
    expect(delivered.attempts).toBe(3);
    const ok = received.filter((r) => r.headers['x-mailroom-event'] === 'alert.raised');
    expect(ok.length).toBe(3);
    for (const r of ok) {
      const expected = `sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`;
      expect(r.headers['x-mailroom-signature']).toBe(expected);
    }
    expect(JSON.parse(ok[0]!.body)).toMatchObject({
      event: 'alert.raised',
      data: { type: 'cpu', severity: 'critical' },
    });

    // Warning and critical alerts reach the notifications bell while open.
    const bell = async () =>
      (await t.call({ url: '/api/notifications' })).json<{
        notifications: { title: string; level: string }[];
      }>().notifications;
    expect((await bell()).find((n) => n.title === 'High CPU usage')).toMatchObject({ level: 'error' });
    expect((await alerts('open')).map((a) => a.id)).toContain(raised.id);

    // Over: resolved (still listed until acknowledged), and a resolved event is sent.
    const resolved = await sampleUntil({ cpuUsage: 12 }, async () =>
      (await alerts()).find((a) => a.id === raised.id && a.resolvedAt),
    );
    expect(resolved.resolvedAt).not.toBeNull();
    // /monitoring's Active Alerts (state=open) no longer lists it; the bell drops it.
    expect((await alerts('open')).map((a) => a.id)).not.toContain(raised.id);
    expect((await bell()).filter((n) => /High CPU usage/.test(n.title))).toEqual([]);
    await until(
      async () => received.find((r) => r.headers['x-mailroom-event'] === 'alert.resolved'),
      'resolved event',
    );

    // Warning, then disk: acknowledge one, then all (audited).
    const warn = await sampleUntil({ cpuUsage: 85, diskUsage: 96 }, async () =>
      (await alerts()).find((a) => a.type === 'cpu' && a.severity === 'warning'),
    );
    await sampleUntil({ cpuUsage: 85, diskUsage: 96 }, async () =>
      (await alerts()).find((a) => a.type === 'disk'),
    );
    let res = await t.call({ method: 'POST', url: `/api/system/alerts/${warn.id}/acknowledge` });
    expect(res.json()).toEqual({ acknowledged: 1 });
    res = await t.call({ method: 'POST', url: `/api/system/alerts/${warn.id}/acknowledge` });
    expect(res.json()).toEqual({ acknowledged: 0 });
    expect((await alerts()).some((a) => a.id === warn.id)).toBe(false);
    const all = (await alerts('all')).find((a) => a.id === warn.id)!;
    expect(all).toMatchObject({ acknowledged: true, acknowledgedBy: 'admin@example.com' });
    res = await t.call({ method: 'POST', url: '/api/system/alerts/acknowledge-all' });
    expect(res.json<{ acknowledged: number }>().acknowledged).toBeGreaterThanOrEqual(2);
    expect(await alerts()).toEqual([]);
    expect((await t.call({ method: 'POST', url: '/api/system/alerts/999999/acknowledge' })).statusCode).toBe(
      404,
    );
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'system.alert.%')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(
      expect.arrayContaining(['system.alert.acknowledge', 'system.alert.acknowledge-all']),
    );
    // A delivery that never succeeds ends failed after its attempts.
    failFirst = 100;
    const test = await t.call({ method: 'POST', url: `/api/system/webhooks/${hookId}/test` });
    const deliveryId = test.json<{ deliveryId: number }>().deliveryId;
    const failed = await until(async () => {
      const d = (await t.call({ url: `/api/system/webhooks/${hookId}/deliveries` })).json<{
        deliveries: { id: number; state: string; attempts: number; lastStatus: number | null }[];
      }>().deliveries;
      return d.find((x) => x.id === deliveryId && x.state === 'failed');
    }, 'the failed delivery');
    expect(failed).toMatchObject({ attempts: 4, lastStatus: 503 });
    failFirst = 0;
  });

  it('raises failed sign-in and service-down alerts from their sources', async () => {
    await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { failedLogins: '2' } },
    });
    for (let i = 0; i < 3; i++)
      await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'admin@example.com', password: 'wrong-password' },
      });
    metrics.emit({ cpuUsage: 5, diskUsage: 5 });
    const a = await until(
      async () => (await alerts()).find((x) => x.type === 'security'),
      'failed sign-in alert',
    );
    expect(a.message).toMatch(/^3 failed sign-ins in the last hour/);

    serviceStates = [
      { name: 'postfix', state: 'failed', pid: null, since: null, detail: 'postfix exited with status 1.' },
      { name: 'named', state: 'unmanaged', pid: null, since: null, detail: 'not run here' },
    ];
    const down = await sampleUntil({ cpuUsage: 5 }, async () =>
      (await alerts()).find((x) => x.type === 'service'),
    );
    expect(down).toMatchObject({
      title: 'Service down: postfix',
      severity: 'critical',
      message: 'postfix exited with status 1.',
    });
    expect((await alerts()).filter((x) => x.type === 'service')).toHaveLength(1);
    serviceStates = [{ name: 'postfix', state: 'running', pid: 1, since: null, detail: '' }];
    await sampleUntil({ cpuUsage: 5 }, async () =>
      (await alerts()).find((x) => x.id === down.id && x.resolvedAt),
    );

    // A daemon Mailroom is starting or restarting on purpose raises nothing, however long.
    serviceStates = [
      { name: 'dovecot', state: 'stopped', pid: null, since: null, detail: 'Starting.', pending: 'starting' },
      {
        name: 'named',
        state: 'stopped',
        pid: null,
        since: null,
        detail: 'Restarting.',
        pending: 'restarting',
      },
    ];
    for (let i = 0; i < 20; i++) {
      metrics.emit({ cpuUsage: 5 });
      now += 30_000;
      await sleep(20);
    }
    await sleep(200);
    expect((await alerts('open')).filter((x) => x.type === 'service')).toEqual([]);
    serviceStates = [];
  });

  it('raises certificate alerts from the SSL area’s certificates: the newest of a domain only, resolved when renewed', async () => {
    const upload = async (c: { pem: string; keyPem: string }, domain: string) => {
      const res = await t.call({
        method: 'POST',
        url: '/api/ssl/certificates/upload',
        payload: {
          domain,
          certificate: c.pem,
          privateKey: c.keyPem,
          certificateType: 'DV',
          keySize: 2048,
          certificateChain: '',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    // Default threshold: 14 days. Two days left is critical; forty is no alert.
    await upload(
      await makeCert({ cn: 'soon.example.com', names: ['soon.example.com'], toDays: 2 }),
      'soon.example.com',
    );
    await upload(
      await makeCert({ cn: 'later.example.com', names: ['later.example.com'], toDays: 40 }),
      'later.example.com',
    );
    const soon = await sampleUntil({ cpuUsage: 5 }, async () =>
      (await alerts()).find((x) => x.type === 'certificate'),
    );
    expect(soon).toMatchObject({ title: 'Certificate expiring: soon.example.com', severity: 'critical' });
    expect(soon.message).toMatch(/^The certificate for soon\.example\.com expires in [12] days? \(/);
    expect((await alerts()).filter((x) => x.type === 'certificate')).toHaveLength(1);
    // A renewed certificate for the same domain (a later expiry) ends it, though the old row stays.
    await upload(
      await makeCert({ cn: 'soon.example.com', names: ['soon.example.com'], toDays: 90 }),
      'soon.example.com',
    );
    await sampleUntil({ cpuUsage: 5 }, async () =>
      (await alerts()).find((x) => x.id === soon.id && x.resolvedAt),
    );
  });

  it('saves the settings modal with the spec’s messages; maintenance mode refuses changes with 503', async () => {
    let res = await t.call({ url: '/api/system/settings' });
    const s = SystemSettingsAnswer.parse(res.json());
    expect(s.form).toEqual({
      systemName: 'Mailroom',
      adminEmail: 'admin@localhost.localdomain',
      timezone: 'UTC',
      maintenanceMode: false,
    });
    expect(s.settings.find((x) => x.id === 'failedLogins')).toMatchObject({ value: '2', modified: true });

    res = await t.call({
      method: 'PUT',
      url: '/api/system/settings',
      payload: { systemName: '', adminEmail: 'nope', timezone: '' },
    });
    expect(res.statusCode).toBe(400);
    const fields = Object.fromEntries(
      res.json<{ details: { field: string; message: string }[] }>().details.map((d) => [d.field, d.message]),
    );
    expect(fields).toEqual({
      systemName: 'System Name is required',
      adminEmail: 'Please enter a valid email address',
      timezone: 'Timezone is required',
    });

    res = await t.call({
      method: 'PUT',
      url: '/api/system/settings',
      payload: {
        systemName: 'Mail One',
        adminEmail: 'ops@example.com',
        timezone: 'Europe/Berlin',
        maintenanceMode: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ form: unknown }>().form).toMatchObject({
      maintenanceMode: true,
      timezone: 'Europe/Berlin',
    });

    // Changes refused with a clear 503; reads keep working.
    res = await t.call({
      method: 'POST',
      url: '/api/mail/domains/add',
      payload: { domain: 'blocked.example' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'MAINTENANCE',
      message: expect.stringContaining('maintenance mode'),
    });
    expect((await t.call({ method: 'POST', url: '/api/system/alerts/acknowledge-all' })).statusCode).toBe(
      503,
    );
    // The same route through the spec's index.php form is refused too.
    res = await t.call({
      method: 'POST',
      url: '/api/index.php?path=mail/domains/add',
      payload: { domain: 'b.example' },
    });
    expect(res.statusCode).toBe(503);
    expect((await t.call({ url: '/api/mail/domains' })).statusCode).toBe(200);
    expect((await t.call({ url: '/api/system/alerts' })).statusCode).toBe(200);
    // Unsigned callers still get 401, not a hint about maintenance.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/mail/domains/add', payload: {} })).statusCode,
    ).toBe(401);

    // The settings call turns it off.
    res = await t.call({
      method: 'PUT',
      url: '/api/system/settings',
      payload: {
        systemName: 'Mail One',
        adminEmail: 'ops@example.com',
        timezone: 'Europe/Berlin',
        maintenanceMode: false,
      },
    });
    expect(res.statusCode).toBe(200);
    res = await t.call({ method: 'POST', url: '/api/mail/domains/add', payload: { domain: 'open.example' } });
    expect(res.statusCode, res.body).toBeLessThan(300);

    // Table edits: each value checked; reset all returns to the defaults.
    res = await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { cpuWarning: '99', cpuCritical: '90' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ details: { field: string }[] }>().details[0]!.field).toBe('cpuWarning');
    res = await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { nope: '1' } },
    });
    expect(res.statusCode).toBe(400);
    res = await t.call({ method: 'POST', url: '/api/system/settings/reset' });
    expect(SystemSettingsAnswer.parse(res.json()).settings.every((x) => !x.modified)).toBe(true);
  }, 120_000);
});
