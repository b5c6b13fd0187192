import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const SENDMAIL =
  ['/usr/sbin/sendmail', '/usr/lib/sendmail'].find((p) => existsSync(p) && existsSync('/usr/sbin/postfix')) ??
  null;
if (!SENDMAIL) {
  const msg = 'postfix (Debian package postfix) missing: the mail queue test is SKIPPED';
  skipLoudly(msg);
}

describe.each(dialects())('system live view on %s', (dialect) => {
  let t: TestContext;
  let child: ChildProcess;
  let server: net.Server;
  let port = 0;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    child = spawn('sleep', ['300'], { stdio: 'ignore' });
    // The close test destroys a connection under both ends: their resets are expected.
    server = net.createServer((s) => s.on('error', () => undefined));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
    // A mail log in the host root, as Postfix and Dovecot write it in local mode.
    const logDir = path.join(t.deps.config.hostRoot, 'var', 'log');
    mkdirSync(logDir, { recursive: true });
    for (let i = 0; i < 500; i++) {
      const kind =
        i % 50 === 7
          ? 'error: connect to mx.example.net[192.0.2.1]:25: Connection refused'
          : `info: message ${i} delivered`;
      logLines.push(
        `Nov 22 10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} mx postfix/smtp[${1000 + i}]: Q${i}: ${kind}`,
      );
    }
    writeFileSync(path.join(logDir, 'mail.log'), logLines.join('\n') + '\n');
  });

  afterAll(async () => {
    if (child.pid && alive(child.pid)) child.kill('SIGKILL');
    server.close();
    await t.close();
  });

  it('answers the machine figures and the series from the one collector', async () => {
    const res = await t.call({ method: 'GET', url: '/api/system/metrics' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ stats: Record<string, number>; series: Record<string, unknown[]> }>();
    expect(body.stats.memoryUsage).toBeGreaterThan(0);
    expect(body.stats.totalProcesses).toBeGreaterThan(1);
    expect(body.series.cpu!.length).toBeGreaterThanOrEqual(1);
    expect(t.deps.metrics?.latest()?.sampledAt).toBe(body.stats.sampledAt);
  });

  it('pushes metrics on /api/events?topics=metrics, sampling every 2 s only while watched', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ctrl = new AbortController();
    const res = await fetch(`${address}/api/events?topics=metrics`, {
      headers: { authorization: `Bearer ${t.token}` },
      signal: ctrl.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    const stamps = () =>
      [...text.matchAll(/event: metrics\ndata: (\{.*\})/g)].map(
        (m) => (JSON.parse(m[1]!) as { sampledAt: string }).sampledAt,
      );
    const until = Date.now() + 8000;
    while (new Set(stamps()).size < 2 && Date.now() < until) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    // The latest sample at once, then fresh ones (watching samples at once, then every 2 s).
    expect(new Set(stamps()).size).toBeGreaterThanOrEqual(2);
    const collector = t.deps.metrics as unknown as { watching: number };
    expect(collector.watching).toBe(1);
    ctrl.abort();
    await expect.poll(() => collector.watching, { timeout: 5000 }).toBe(0);
  });

  it('lists the services with Mailroom itself running', async () => {
    const res = await t.call({ method: 'GET', url: '/api/system/services' });
    expect(res.statusCode).toBe(200);
    const services = res.json<{
      services: { id: string; status: string; pid: number | null; note?: string }[];
    }>().services;
    expect(services.map((s) => s.id)).toEqual([
      'postfix',
      'dovecot',
      'named',
      'rspamd',
      'apache2',
      'postgresql',
      'mailroom',
    ]);
    const self = services.find((s) => s.id === 'mailroom')!;
    expect(self).toMatchObject({ status: 'running', pid: process.pid });
    // Local mode: Apache is not Mailroom's to run, and says so.
    expect(services.find((s) => s.id === 'apache2')!.note).toMatch(/local mode/);
    const act = await t.call({
      method: 'POST',
      url: '/api/system/services/apache2/action',
      payload: { action: 'start' },
    });
    expect(act.statusCode).toBe(200);
    expect(act.json<{ ok: boolean; message: string }>()).toMatchObject({
      ok: false,
      message: expect.stringMatching(/local mode/),
    });
    const missing = await t.call({
      method: 'POST',
      url: '/api/system/services/nope/action',
      payload: { action: 'start' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('offers Start/Stop/Restart only for what Mailroom runs, and audits an ok:false answer as refused, never success', async () => {
    const services = (await t.call({ url: '/api/system/services' })).json<{
      services: { id: string; controllable: boolean; impact: string | null }[];
    }>().services;
    // No supervisor here (local mode, daemons not run): nothing is Mailroom's to start or stop.
    expect(services.filter((s) => s.controllable)).toEqual([]);
    // What a stop or restart interrupts, for the confirmation.
    expect(services.find((s) => s.id === 'postfix')!.impact).toMatch(/^Mail delivery pauses/);
    expect(services.find((s) => s.id === 'mailroom')!.impact).toBeNull();

    for (const [id, action] of [
      ['apache2', 'start'],
      ['postfix', 'restart'],
      ['mailroom', 'restart'],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        url: `/api/system/services/${id}/action`,
        payload: { action },
      });
      expect(res.json<{ ok: boolean }>().ok).toBe(false);
    }
    const restartAll = await t.call({ method: 'POST', url: '/api/system/services/restart-all' });
    expect(restartAll.json<{ results: unknown[] }>().results).toEqual([]);

    const lines = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'outcome', 'details'])
      .where('action', '=', 'system.service.action')
      .orderBy('id')
      .execute();
    const byTarget = new Map(lines.map((l) => [l.target, l]));
    for (const id of ['apache2', 'postfix', 'mailroom']) {
      const line = byTarget.get(id)!;
      expect(line.outcome, id).toBe('failure');
      expect(JSON.parse(String(line.details)), id).toMatchObject({ result: 'refused' });
    }
  });

  it('lists processes, kills a throwaway one, refuses PID 1 and itself, and audits it', async () => {
    const pid = child.pid!;
    const list = await t.call({ method: 'GET', url: '/api/system/processes' });
    const procs = list.json<{ processes: { pid: number; name: string; command: string; status: string }[] }>()
      .processes;
    expect(procs.find((p) => p.pid === pid)).toMatchObject({
      name: 'sleep',
      command: 'sleep 300',
      status: 'sleeping',
    });

    const one = await t.call({
      method: 'POST',
      url: '/api/system/processes/1/kill',
      payload: { signal: 'SIGKILL' },
    });
    expect(one.statusCode).toBe(403);
    const self = await t.call({
      method: 'POST',
      url: `/api/system/processes/${process.pid}/kill`,
      payload: { signal: 'SIGTERM' },
    });
    expect(self.statusCode).toBe(403);
    expect(self.json<{ message: string }>().message).toMatch(/Mailroom itself/);
    const bad = await t.call({
      method: 'POST',
      url: `/api/system/processes/${pid}/kill`,
      payload: { signal: 'SIGHUP' },
    });
    expect(bad.statusCode).toBe(400);

    const exited = new Promise((r) => child.once('exit', r));
    const kill = await t.call({
      method: 'POST',
      url: `/api/system/processes/${pid}/kill`,
      payload: { signal: 'SIGTERM' },
    });
    expect(kill.statusCode).toBe(200);
    await exited;
    expect(alive(pid)).toBe(false);
    const gone = await t.call({
      method: 'POST',
      url: `/api/system/processes/${pid}/kill`,
      payload: { signal: 'SIGKILL' },
    });
    expect(gone.statusCode).toBe(404);

    const audit = await t.call({ method: 'GET', url: '/api/audit?action=system.process.kill' });
    expect(audit.body).toContain(String(pid));
  });

  it('finds a listener the test opened, with its process', async () => {
    const res = await t.call({ method: 'GET', url: '/api/system/connections' });
    const conns = res.json<{
      connections: { localAddress: string; state: string; pid: number | null; process: string }[];
    }>().connections;
    const mine = conns.find((c) => c.localAddress === `127.0.0.1:${port}` && c.state === 'listening');
    expect(mine).toMatchObject({ pid: process.pid });
    const bad = await t.call({
      method: 'POST',
      url: '/api/system/connections/close',
      payload: { id: 'nonsense' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ details: { field: string }[] }>().details[0]!.field).toBe('id');
  });

  it('closes an established connection or says why the kernel does not let it', async () => {
    const client = net.connect(port, '127.0.0.1');
    client.on('error', () => undefined);
    await new Promise<void>((r) => client.once('connect', () => r()));
    const local = `127.0.0.1:${client.localPort}`;
    const conns = (await t.call({ method: 'GET', url: '/api/system/connections' })).json<{
      connections: { id: string; localAddress: string; state: string }[];
    }>().connections;
    const c = conns.find((x) => x.localAddress === local && x.state === 'established')!;
    expect(c).toBeDefined();
    const res = await t.call({ method: 'POST', url: '/api/system/connections/close', payload: { id: c.id } });
    expect(res.statusCode).toBe(200);
    const out = res.json<{ closed: boolean; message: string }>();
    if (!out.closed) expect(out.message).toMatch(/kernel|CAP_NET_ADMIN|ss/);
    client.destroy();
  });

  it('lists disks and previews then runs a cleanup of exactly what it showed', async () => {
    const disks = (await t.call({ method: 'GET', url: '/api/system/disks' })).json<{
      disks: { mountPoint: string; totalSize: number }[];
    }>().disks;
    expect(disks.some((d) => d.mountPoint === '/')).toBe(true);
    const root = t.deps.config.hostRoot;
    mkdirSync(path.join(root, 'var/cache/apt/archives'), { recursive: true });
    writeFileSync(path.join(root, 'var/cache/apt/archives/pkg_1.0_amd64.deb'), Buffer.alloc(4000));
    writeFileSync(path.join(root, 'var/log/mail.log.2.gz'), Buffer.alloc(1000));
    const old = path.join(root, 'var/vmail/.removed/example.com/bob-20200101');
    const fresh = path.join(root, 'var/vmail/.removed/example.com/amy-20990101');
    mkdirSync(path.join(old, 'cur'), { recursive: true });
    mkdirSync(path.join(fresh, 'cur'), { recursive: true });
    writeFileSync(path.join(old, 'cur/1.eml'), Buffer.alloc(500));
    writeFileSync(path.join(fresh, 'cur/1.eml'), Buffer.alloc(700));
    const past = new Date(Date.now() - 90 * 86_400_000);
    utimesSync(old, past, past);

    const preview = await t.call({ method: 'GET', url: '/api/system/disks/cleanup?days=30' });
    const p = preview.json<{ items: { kind: string; files: number; bytes: number }[]; totalBytes: number }>();
    expect(p.items).toEqual([
      expect.objectContaining({ kind: 'apt-cache', files: 1, bytes: 4000 }),
      expect.objectContaining({ kind: 'rotated-logs', files: 1, bytes: 1000 }),
      expect.objectContaining({ kind: 'removed-mail', files: 1, bytes: 500 }),
    ]);
    expect(p.totalBytes).toBe(5500);
    const none = await t.call({ method: 'POST', url: '/api/system/disks/cleanup', payload: { kinds: [] } });
    expect(none.statusCode).toBe(400);
    const run = await t.call({
      method: 'POST',
      url: '/api/system/disks/cleanup',
      payload: { kinds: ['apt-cache', 'removed-mail'], days: 30 },
    });
    expect(run.json()).toMatchObject({ removedFiles: 2, freedBytes: 4500 });
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(path.join(root, 'var/log/mail.log.2.gz'))).toBe(true);
  });

  it('pages a log backwards by cursor, filters by level and search, and downloads the filtered range', async () => {
    const first = await t.call({ method: 'GET', url: '/api/system/logs?source=mail&limit=20' });
    expect(first.statusCode).toBe(200);
    const p1 = first.json<{
      entries: { message: string; level: string; service: string; pid: number }[];
      nextCursor: string;
    }>();
    expect(p1.entries).toHaveLength(20);
    expect(p1.entries[0]!.message).toContain('Q499:');
    expect(p1.entries[0]).toMatchObject({ service: 'postfix', pid: 1499 });
    const second = (
      await t.call({ method: 'GET', url: `/api/system/logs?source=mail&limit=20&cursor=${p1.nextCursor}` })
    ).json<typeof p1>();
    expect(second.entries[0]!.message).toContain('Q479:');

    // Every page to the start: all 500 lines exactly once.
    let cursor: string | null = null;
    let seen = 0;
    do {
      const page: typeof p1 & { nextCursor: string | null } = (
        await t.call({
          method: 'GET',
          url: `/api/system/logs?source=mail&limit=77${cursor ? `&cursor=${cursor}` : ''}`,
        })
      ).json();
      seen += page.entries.length;
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toBe(500);

    const errors = (
      await t.call({ method: 'GET', url: '/api/system/logs?source=mail&level=error&limit=100' })
    ).json<typeof p1>();
    expect(errors.entries).toHaveLength(10);
    expect(errors.entries.every((e) => e.level === 'error')).toBe(true);
    const search = (
      await t.call({ method: 'GET', url: '/api/system/logs?source=mail&search=q123%3A&limit=100' })
    ).json<typeof p1>();
    expect(search.entries.map((e) => e.message)).toEqual(['Q123: info: message 123 delivered']);
    const badCursor = await t.call({ method: 'GET', url: '/api/system/logs?source=mail&cursor=xyz' });
    expect(badCursor.statusCode).toBe(400);

    const dl = await t.call({ method: 'GET', url: '/api/system/logs/download?source=mail&level=error' });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toContain('mail-log.txt');
    const lines = dl.body.trim().split('\n');
    expect(lines).toEqual(logLines.filter((l) => l.includes('error:')));
  });

  it.skipIf(!SENDMAIL)('lists, shows, requeues and deletes a message in a real Postfix queue', async () => {
    // A Postfix configuration folder where Mailroom renders it, with its own queue; no daemon runs:
    // postdrop leaves the message in maildrop, and postqueue reads the queue directly. The app's
    // own render of the mail files at start must be over first (reading the mail settings waits
    // for it), or it would replace this main.cf while the test runs.
    expect((await t.call({ url: '/api/mail/settings' })).statusCode).toBe(200);
    const dir = path.join(t.deps.config.hostRoot, 'etc', 'postfix');
    const spool = path.join(t.dataDir, 'spool');
    mkdirSync(dir, { recursive: true });
    mkdirSync(path.join(t.dataDir, 'postfix-data'), { recursive: true });
    mkdirSync(spool, { recursive: true });
    copyFileSync('/etc/postfix/master.cf', path.join(dir, 'master.cf'));
    writeFileSync(
      path.join(dir, 'main.cf'),
      [
        'compatibility_level = 3.6',
        `queue_directory = ${spool}`,
        `data_directory = ${path.join(t.dataDir, 'postfix-data')}`,
        'myhostname = mx.example.test',
        'mydestination =',
        '',
      ].join('\n'),
    );
    const check = spawnSync('postfix', ['-c', dir, 'check'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    const sent = spawnSync(SENDMAIL!, ['-C', dir, '-f', 'amy@example.test', 'bob@example.net'], {
      input: 'Subject: queued by the test\n\nbody\n',
    });
    expect(sent.status).toBe(0);

    const list = (await t.call({ method: 'GET', url: '/api/system/queue' })).json<{
      messages: { id: string; sender: string; recipients: { address: string }[] }[];
      unavailable: string | null;
    }>();
    expect(list.unavailable).toBeNull();
    expect(list.messages).toHaveLength(1);
    const m = list.messages[0]!;
    expect(m).toMatchObject({ sender: 'amy@example.test', recipients: [{ address: 'bob@example.net' }] });
    const shown = await t.call({ method: 'GET', url: `/api/system/queue/${m.id}` });
    expect(shown.json<{ text: string }>().text).toContain('queued by the test');
    // Without Postfix's pickup service the message stays in maildrop, which postsuper -r leaves alone.
    const requeue = await t.call({ method: 'POST', url: `/api/system/queue/${m.id}/requeue` });
    expect(requeue.json()).toMatchObject({ ok: false, message: expect.stringMatching(/still in maildrop/) });
    // No master process: a flush says the mail system is down rather than pretending.
    const flush = await t.call({ method: 'POST', url: '/api/system/queue/flush' });
    expect(flush.json<{ ok: boolean; message: string }>()).toMatchObject({
      ok: false,
      message: expect.stringMatching(/down/i),
    });
    const del = await t.call({ method: 'POST', url: `/api/system/queue/${m.id}/delete` });
    expect(del.json()).toMatchObject({ ok: true, message: expect.stringMatching(/Deleted: 1 message/) });
    const again = await t.call({ method: 'POST', url: `/api/system/queue/${m.id}/delete` });
    expect(again.statusCode).toBe(404);
    const empty = (await t.call({ method: 'GET', url: '/api/system/queue' })).json<{ messages: unknown[] }>();
    expect(empty.messages).toEqual([]);
    const bad = await t.call({ method: 'GET', url: '/api/system/queue/not-an-id!' });
    expect(bad.statusCode).toBe(400);
  });

  it('exports the host and mail gauges at /metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).toMatch(/^mailroom_host_memory_usage_percent \d/m);
    expect(res.body).toMatch(/^mailroom_mailboxes 0$/m);
    expect(res.body).toMatch(/^mailroom_mail_queue_messages \d+$/m);
  });
});
