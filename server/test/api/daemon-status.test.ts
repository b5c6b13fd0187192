import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalServices } from '../../src/host/local-services.ts';
import type { DaemonState } from '../../src/host/service-control.ts';
import { eventually } from '../eventually.ts';
import { startTestApp, type TestContext } from '../harness.ts';

const byName = (list: DaemonState[], n: string) => list.find((d) => d.name === n) as DaemonState;

describe('daemon states on the Mail and DNS dashboards', () => {
  const open: TestContext[] = [];
  let sleeper: ChildProcess | null = null;
  afterEach(() => {
    sleeper?.kill('SIGKILL');
    sleeper = null;
  });
  afterAll(async () => {
    for (const t of open) await t.close();
  });

  it('MAILROOM_RUN_DAEMONS=0: every daemon "not run by Mailroom", saying why and how to start it', async () => {
    const t = await startTestApp('sqlite', {
      env: { MAILROOM_RUN_DAEMONS: '0' },
      services: (host, config) => LocalServices.create(host, config, { isRoot: true }),
    });
    open.push(t);
    const res = await t.call({ method: 'GET', url: '/api/mail/dashboard' });
    expect(res.statusCode).toBe(200);
    const daemons = res.json<{ daemons: DaemonState[] }>().daemons;
    expect(daemons.map((d) => d.name)).toEqual(['postfix', 'dovecot', 'rspamd']);
    for (const d of daemons) {
      if (d.state === 'not-installed') continue;
      expect(d.state).toBe('unmanaged');
      expect(d.detail).toContain('MAILROOM_RUN_DAEMONS=0');
    }
    const dovecot = byName(daemons, 'dovecot');
    if (dovecot.state === 'unmanaged')
      expect(dovecot.detail).toContain(`dovecot -c ${t.deps.host.path('/etc/dovecot/dovecot.conf')}`);
    expect(res.json<{ serverStatus: string }>().serverStatus).toBe('offline');

    const dns = await t.call({ method: 'GET', url: '/api/dns/dashboard' });
    expect(dns.statusCode).toBe(200);
    const ns = dns.json<{ nameServer: DaemonState }>().nameServer;
    expect(ns.name).toBe('named');
    expect(['unmanaged', 'not-installed']).toContain(ns.state);
  });

  it('not root: says Mailroom does not start the daemons because it is not root', async () => {
    const t = await startTestApp('sqlite', {
      services: (host, config) => LocalServices.create(host, config, { isRoot: false }),
    });
    open.push(t);
    const svc = t.deps.services as LocalServices;
    expect(svc.runs.yes).toBe(false);
    const states = await svc.states();
    for (const d of states.filter((s) => s.state !== 'not-installed')) {
      expect(d.state).toBe('unmanaged');
      expect(d.detail).toContain(
        'Mailroom is not running as root, so it does not start the mail and DNS daemons.',
      );
    }
    expect(await svc.reload('dovecot')).toMatchObject({ ok: true, attempted: false });
  });

  it("counts only the instance in Mailroom's pid file, not any process of that name", async () => {
    const t = await startTestApp('sqlite', { env: { MAILROOM_RUN_DAEMONS: '0' } });
    open.push(t);
    const get = async () =>
      byName(
        (await t.call({ method: 'GET', url: '/api/mail/dashboard' })).json<{ daemons: DaemonState[] }>()
          .daemons,
        'dovecot',
      );
    const before = await get();
    if (before.state === 'not-installed') return;
    // No pid file under the data folder: not running, whatever else runs on the machine.
    expect(before.state).toBe('unmanaged');

    // A live process named in Mailroom's own pid file is Mailroom's instance.
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pidFile = t.deps.host.path('/run/dovecot/master.pid');
    mkdirSync(path.dirname(pidFile), { recursive: true });
    writeFileSync(pidFile, `${sleeper.pid}\n`);
    // The machine is looked at once a second for every request (issue 22 #21): seen within ~1 s.
    const found = await eventually('the pid file seen', get, (d) => d.state === 'running', 3000);
    expect(found.state).toBe('running');
    expect(found.pid).toBe(sleeper.pid);
    expect(found.detail).toContain(pidFile);

    // A stale pid file (the process is gone) is not running.
    sleeper.kill('SIGKILL');
    await new Promise((r) => sleeper?.once('exit', r));
    const gone = await eventually('the stale pid file seen', get, (d) => d.state !== 'running', 3000);
    expect(gone.state).toBe('unmanaged');
  });
});
