import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { DaemonStatus } from '@mailroom/contract/daemons';
import type { Job } from '@mailroom/contract/jobs';
import { AlertsAnswer } from '@mailroom/contract/system-alerts';
import { ServicesAnswer } from '@mailroom/contract/system-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRestoreHooks } from '../../src/features/system/backups/restore.service.ts';
import { LocalServices } from '../../src/host/local-services.ts';
import type { DaemonName } from '../../src/host/service-control.ts';
import type { DaemonSpec } from '../../src/host/supervisor.ts';
import { FakeMetrics } from '../fake-metrics.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Issue 22 #12 (a restore is an intended stop): a restore stops the mail daemons Mailroom runs
 * while it puts the database and Maildirs back. However long that takes, the stop is not "Service
 * down": no alert and no webhook for them, and the screens say "Stopped for restore", not
 * "running". A daemon that dies by itself during the same time is still an alert. The alerts
 * engine runs on a fake clock (each sample moves it 30 s); the daemons are stand-ins under the
 * real supervisor (the real daemons are the integration tier's).
 */
const FAKE = path.resolve(import.meta.dirname, '../fixtures/fake-daemon.ts');
const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn();
    if (v) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(dialects())('a restore stops the mail daemons on purpose, on %s', (dialect) => {
  let t: TestContext;
  let services: LocalServices;
  let dir = '';
  const metrics = new FakeMetrics();
  let now = Date.now();
  let receiver: http.Server;
  const received: { event: string; title: string }[] = [];

  /** A stand-in daemon under the real supervisor: its own folder, port and pid file. */
  const fakeSpec = async (name: DaemonName): Promise<DaemonSpec> => {
    const d = path.join(dir, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'fake.conf'), 'x\n');
    const port = await freePort();
    return {
      name,
      program: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), FAKE, String(port), d],
      configPath: path.join(d, 'fake.conf'),
      ready: [{ tcp: { host: '127.0.0.1', port } }, { file: path.join(d, 'daemon.pid') }],
      pidFile: path.join(d, 'daemon.pid'),
      reload: { signal: 'SIGHUP' },
    };
  };

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const j = JSON.parse(body) as { event: string; data: { title?: string } };
        received.push({ event: j.event, title: j.data?.title ?? '' });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    t = await startTestApp(dialect, {
      jobs: FAST,
      metrics,
      services: async (host) => {
        dir = path.join(path.dirname(host.root), 'fake-daemons');
        services = LocalServices.ofSpecs(
          [await fakeSpec('postfix'), await fakeSpec('dovecot'), await fakeSpec('named')],
          // A daemon that dies is left failed at once (no restart): it stays down.
          { maxCrashes: 1, readyTimeoutMs: 60_000, stopTimeoutMs: 10_000 },
        );
        return services;
      },
    });
    t.deps.clock = () => now;
    await services.start(10_000);
    for (const s of await services.states()) expect(s.state, `${s.name}: ${s.detail}`).toBe('running');
    const hook = await t.call({
      method: 'POST',
      url: '/api/system/webhooks',
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        secret: 'a-webhook-secret-of-length',
      },
    });
    expect(hook.statusCode, hook.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await services?.close();
    await t?.close();
    await new Promise((r) => receiver.close(r));
  });

  const alerts = async (state = 'active') =>
    AlertsAnswer.parse((await t.call({ url: `/api/system/alerts?state=${state}` })).json()).alerts;
  const waitJob = (id: number) =>
    until(`job ${id}`, async () => {
      const j = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
      return ['queued', 'running'].includes(j.state) ? null : j;
    });
  /** One metrics sample, the engine's clock 30 s later: an evaluation as time goes by. */
  const tick = async () => {
    now += 30_000;
    metrics.emit({ cpuUsage: 5, diskUsage: 5, memoryUsage: 5 });
    await sleep(60);
  };

  it('no Service down for the daemons a restore stopped, however long; one that died meanwhile is', async () => {
    const start = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
    expect(start.statusCode, start.body).toBe(202);
    const backup = await waitJob(start.json<{ jobId: number }>().jobId);
    expect(backup.state, backup.message ?? '').toBe('succeeded');
    const backupId = (backup.result as { backupId: number }).backupId;

    // The restore stays in its "daemons stopped" step until the test lets it go on.
    let paused!: () => void;
    const inPause = new Promise<void>((r) => (paused = r));
    let goOn!: () => void;
    const released = new Promise<void>((r) => (goOn = r));
    setRestoreHooks(t.deps.database, {
      paused: async () => {
        paused();
        await released;
      },
    });
    const res = await t.call({ method: 'POST', url: `/api/backups/${backupId}/restore` });
    expect(res.statusCode, res.body).toBe(202);
    await inPause;
    try {
      // named dies by itself while the restore holds Postfix and Dovecot stopped.
      const namedPid = Number(readFileSync(path.join(dir, 'named', 'daemon.pid'), 'utf8'));
      process.kill(namedPid, 'SIGKILL');
      await until('named to be seen failed', async () =>
        (await services.states()).find((s) => s.name === 'named' && s.state === 'failed'),
      );

      // Five minutes on the engine's clock (the threshold is one).
      for (let i = 0; i < 10; i++) await tick();
      const open = await until('the named alert', async () => {
        await tick();
        const a = await alerts();
        return a.some((x) => x.title === 'Service down: named') ? a : null;
      });
      expect(open.filter((a) => a.type === 'service').map((a) => a.title)).toEqual(['Service down: named']);

      // The screens say why they are not running, not "running" and not down.
      const mail = (await t.call({ url: '/api/mail/dashboard' })).json<{ daemons: unknown[] }>();
      const daemons = mail.daemons.map((d) => DaemonStatus.parse(d));
      for (const name of ['postfix', 'dovecot'])
        expect(daemons.find((d) => d.name === name)).toMatchObject({ state: 'stopped', pending: 'restore' });
      expect(daemons.find((d) => d.name === 'postfix')?.detail).toContain('Stopped for a restore');
      const svc = ServicesAnswer.parse((await t.call({ url: '/api/system/services' })).json()).services;
      expect(svc.find((s) => s.id === 'postfix')).toMatchObject({ status: 'stopped', pending: 'restore' });
      expect(svc.find((s) => s.id === 'named')).toMatchObject({ status: 'failed' });
      expect(svc.find((s) => s.id === 'named')?.pending).toBeUndefined();
    } finally {
      // A failed check must not leave the restore (and the mail daemons) stopped.
      goOn();
    }
    const restored = await waitJob(res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    expect(restored.message).toContain('stopped and started again: postfix, dovecot');
    for (const name of ['postfix', 'dovecot'] as const) {
      const st = (await services.states()).find((s) => s.name === name)!;
      expect(st.state, st.detail).toBe('running');
      expect(st.pending).toBeUndefined();
    }
    for (let i = 0; i < 4; i++) await tick();

    // Never an alert for the two it stopped; the webhook told only of named.
    const all = await alerts('all');
    expect(all.filter((a) => a.type === 'service').map((a) => a.title)).toEqual(['Service down: named']);
    await until('the webhook of the named alert', async () =>
      received.some((r) => r.event === 'alert.raised' && r.title === 'Service down: named'),
    );
    expect(received.filter((r) => r.event === 'alert.raised').map((r) => r.title)).toEqual([
      'Service down: named',
    ]);
  }, 180_000);
});
