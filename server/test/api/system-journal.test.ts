import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessTable } from '../../src/host/process-table.ts';
import { SystemServiceControl } from '../../src/host/system-services.ts';
import { ServicesService } from '../../src/features/system/services/services.service.ts';
import { startTestApp, type TestContext } from '../harness.ts';

// journald and systemd do not run here (nor in CI): the journald reader and the systemd service
// control are proved against the fake `journalctl` and `systemctl` of server/test/fakes, put first
// on PATH. The fakes honour the arguments Mailroom passes and record every call.
const FAKES = path.resolve(import.meta.dirname, '../fakes');
const MAIL_UNITS = ['postfix@-.service', 'dovecot.service', 'rspamd.service'];

interface Call {
  args: string[];
}
const T0 = Date.parse('2026-11-22T10:00:00Z');
let seq = 0;
function entry(unit: string, ident: string, priority: number, message: string) {
  seq++;
  return {
    __CURSOR: `s=abc;i=${seq}`,
    __REALTIME_TIMESTAMP: String((T0 + seq * 1000) * 1000),
    _SYSTEMD_UNIT: unit,
    SYSLOG_IDENTIFIER: ident,
    _PID: String(1000 + seq),
    PRIORITY: String(priority),
    MESSAGE: message,
  };
}

describe('logs from journald and services through systemd (fake journalctl and systemctl)', () => {
  let t: TestContext;
  let dir: string;
  let journal: string;
  let journalCalls: string;
  let systemctlCalls: string;
  let systemctlState: string;
  const saved = { PATH: process.env.PATH, READER: process.env.MAILROOM_LOG_READER };
  const calls = (file: string): Call[] =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ args: JSON.parse(l) as string[] }));
  const lastCall = (file: string) => calls(file).at(-1)!.args;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-journal-'));
    journal = path.join(dir, 'journal.jsonl');
    journalCalls = path.join(dir, 'journalctl.calls');
    systemctlCalls = path.join(dir, 'systemctl.calls');
    systemctlState = path.join(dir, 'systemctl.state');
    writeFileSync(journalCalls, '');
    writeFileSync(systemctlCalls, '');
    const lines = [];
    for (let i = 0; i < 30; i++) {
      lines.push(
        i % 10 === 3
          ? entry(
              'postfix@-.service',
              'postfix/smtp',
              3,
              `Q${i}: connect to mx.example.net: Connection refused`,
            )
          : i % 3 === 0
            ? entry('dovecot.service', 'dovecot', 6, `imap-login: Login: user=<u${i}@example.com>`)
            : entry('postfix@-.service', 'postfix/smtp', 6, `Q${i}: status=sent (250 2.0.0 Ok)`),
      );
      if (i % 7 === 0)
        lines.push(entry('named.service', 'named', 6, `zone example.com/IN: loaded serial ${i}`));
    }
    writeFileSync(journal, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    process.env.PATH = `${FAKES}:${process.env.PATH}`;
    process.env.MAILROOM_LOG_READER = 'journald';
    process.env.FAKE_JOURNAL = journal;
    process.env.FAKE_JOURNAL_CALLS = journalCalls;
    process.env.FAKE_SYSTEMCTL_CALLS = systemctlCalls;
    process.env.FAKE_SYSTEMCTL_STATE = systemctlState;
    t = await startTestApp('sqlite');
  });

  afterAll(async () => {
    await t.close();
    process.env.PATH = saved.PATH;
    if (saved.READER === undefined) delete process.env.MAILROOM_LOG_READER;
    else process.env.MAILROOM_LOG_READER = saved.READER;
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (qs: string) => {
    const res = await t.call({ method: 'GET', url: `/api/system/logs?${qs}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      entries: { id: string; message: string; level: string; service: string; timestamp: string }[];
      nextCursor: string | null;
      origin: string;
    }>();
  };

  it('pages backwards through the source’s units with journalctl -o json -r, cursor after cursor', async () => {
    const first = await page('source=mail&limit=4');
    expect(first.origin).toBe('journald');
    expect(lastCall(journalCalls)).toEqual([
      '-o',
      'json',
      '-r',
      '--no-pager',
      '-n',
      '4',
      ...MAIL_UNITS.flatMap((u) => ['-u', u]),
    ]);
    expect(first.entries.map((e) => e.message)).toEqual([
      'Q29: status=sent (250 2.0.0 Ok)',
      'Q28: status=sent (250 2.0.0 Ok)',
      'imap-login: Login: user=<u27@example.com>',
      'Q26: status=sent (250 2.0.0 Ok)',
    ]);
    expect(first.entries[0]!.id).toMatch(/^j:s=abc;i=\d+$/);
    expect(first.nextCursor).toBe(first.entries[3]!.id);

    // Every mail entry exactly once, newest first, no named entry, across the pages.
    const seen = [...first.entries];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(`source=mail&limit=4&cursor=${encodeURIComponent(cursor)}`);
      expect(lastCall(journalCalls)).toContain(`--cursor=${cursor.slice(2)}`);
      seen.push(...next.entries);
      cursor = next.nextCursor;
    }
    expect(seen).toHaveLength(30);
    expect(new Set(seen.map((e) => e.id)).size).toBe(30);
    const times = seen.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(seen.some((e) => e.message.includes('zone example.com'))).toBe(false);
  });

  it('passes the level and the search to journalctl and filters the service itself', async () => {
    const errors = await page('source=mail&level=error&limit=50');
    expect(lastCall(journalCalls)).toEqual(expect.arrayContaining(['-p', '0..3']));
    expect(errors.entries.map((e) => e.message)).toEqual([
      'Q23: connect to mx.example.net: Connection refused',
      'Q13: connect to mx.example.net: Connection refused',
      'Q3: connect to mx.example.net: Connection refused',
    ]);
    expect(errors.entries.every((e) => e.level === 'error')).toBe(true);

    const found = await page('source=mail&search=REFUSED&limit=50');
    const args = lastCall(journalCalls);
    expect(args.slice(args.indexOf('-g'), args.indexOf('-g') + 3)).toEqual([
      '-g',
      'REFUSED',
      '--case-sensitive=false',
    ]);
    expect(found.entries).toHaveLength(3);

    const dovecot = await page('source=mail&service=dovecot&limit=50');
    expect(dovecot.entries.length).toBeGreaterThan(0);
    expect(dovecot.entries.every((e) => e.service.toLowerCase().includes('dovecot'))).toBe(true);

    const dns = await page('source=dns&limit=50');
    expect(lastCall(journalCalls)).toEqual(expect.arrayContaining(['-u', 'named.service']));
    expect(dns.entries.map((e) => e.message)).toEqual(
      [28, 21, 14, 7, 0].map((i) => `zone example.com/IN: loaded serial ${i}`),
    );
  });

  it('downloads the filtered range oldest first, and before a cursor', async () => {
    const res = await t.call({ method: 'GET', url: '/api/system/logs/download?source=mail&level=error' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('mail-log.txt');
    const lines = res.body.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2026-11-22T10:\d\d:\d\d\+0000 mx postfix\/smtp\[\d+\]: Q3: connect/);
    expect(lines[2]).toContain('Q23: connect');
    expect(lastCall(journalCalls)).toEqual(expect.arrayContaining(['-o', 'short-iso', '-p', '0..3']));

    const first = await page('source=mail&limit=5');
    const before = await t.call({
      method: 'GET',
      url: `/api/system/logs/download?source=mail&cursor=${encodeURIComponent(first.nextCursor!)}`,
    });
    const older = before.body.trim().split('\n');
    expect(older).toHaveLength(25);
    expect(older[0]).toContain('imap-login: Login: user=<u0@');
    expect(older[24]).toContain('imap-login: Login: user=<u24@');
    expect(older.some((l) => l.includes('Q25:'))).toBe(false);
  });

  it('follows journald live (journalctl -f -n 0) and says when journalctl fails', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ctrl = new AbortController();
    const res = await fetch(`${address}/api/system/logs/stream?source=mail&level=error`, {
      headers: { authorization: `Bearer ${t.token}` },
      signal: ctrl.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    // One read in flight at a time: a read that loses the race keeps its chunk for the next turn.
    let pending: ReturnType<typeof reader.read> | null = null;
    const until = async (pred: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!pred() && Date.now() < deadline) {
        pending ??= reader.read();
        const chunk = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
        if (!chunk) continue;
        pending = null;
        if (!chunk.done) text += new TextDecoder().decode(chunk.value);
      }
    };
    await until(
      () => text.includes('"origin":"journald"') && calls(journalCalls).at(-1)!.args.includes('-f'),
    );
    expect(text).toContain('"origin":"journald"');
    expect(lastCall(journalCalls)).toEqual([
      '-o',
      'json',
      '-f',
      '-n',
      '0',
      '--no-pager',
      ...MAIL_UNITS.flatMap((u) => ['-u', u]),
      '-p',
      '0..3',
    ]);
    // Once the fake has read the journal's current end, add entries.
    const deadline = Date.now() + 10_000;
    while (!existsSync(`${journal}.following`) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    appendFileSync(
      journal,
      JSON.stringify(entry('postfix@-.service', 'postfix/smtp', 6, 'LIVE info')) + '\n',
    );
    appendFileSync(journal, JSON.stringify(entry('named.service', 'named', 2, 'LIVE named error')) + '\n');
    appendFileSync(
      journal,
      JSON.stringify(entry('postfix@-.service', 'postfix/qmgr', 2, 'LIVE mail error')) + '\n',
    );
    await until(() => text.includes('LIVE mail error'));
    ctrl.abort();
    expect(text).toMatch(/event: log\ndata: \{[^\n]*"message":"LIVE mail error"/);
    expect(text).not.toContain('LIVE info');
    expect(text).not.toContain('LIVE named error');
    expect(text).not.toContain('Q23:'); // -n 0: from now on only

    const saved = process.env.FAKE_JOURNAL;
    process.env.FAKE_JOURNAL = path.join(dir, 'missing.jsonl');
    try {
      const failed = await page('source=mail');
      expect(failed.entries).toEqual([]);
      expect(failed.origin).toBe('journalctl failed: No journal files were found.');
    } finally {
      process.env.FAKE_JOURNAL = saved;
    }
  });

  describe('services in system mode', () => {
    let services: ServicesService;
    beforeAll(() => {
      const active = { LoadState: 'loaded', ActiveState: 'active', ExecMainStartTimestamp: '@1763841482' };
      writeFileSync(
        systemctlState,
        JSON.stringify({
          'postfix.service': { LoadState: 'loaded', ActiveState: 'active' },
          'postfix@-.service': { ...active, MainPID: '0' },
          'dovecot.service': { ...active, MainPID: '2001' },
          'named.service': { ...active, MainPID: '2002' },
          'rspamd.service': { LoadState: 'loaded', ActiveState: 'inactive', MainPID: '0' },
          'apache2.service': { ...active, MainPID: '2003' },
          'postgresql.service': { ...active, MainPID: '0' },
          _fail: ['dovecot.service'],
        }),
      );
      const host = t.deps.host;
      services = new ServicesService(
        {
          ...t.deps,
          config: { ...t.deps.config, hostRoot: '/' },
          services: new SystemServiceControl({
            run: (cmd, args) => host.run(cmd, args),
            sudo: false,
            listProcesses: () => Promise.resolve([]),
          }),
        },
        new ProcessTable(),
      );
    });

    it('starts, stops and restarts the right units with systemctl and reads their state back', async () => {
      const before = await services.list();
      expect(before.find((s) => s.id === 'rspamd')!.status).toBe('stopped');
      expect(before.find((s) => s.id === 'apache2')!.status).toBe('running');

      writeFileSync(systemctlCalls, '');
      const cases = [
        ['postfix', 'restart', 'postfix.service'],
        ['rspamd', 'start', 'rspamd.service'],
        ['apache2', 'stop', 'apache2.service'],
        ['named', 'restart', 'named.service'],
        ['postgresql', 'restart', 'postgresql.service'],
      ] as const;
      for (const [id, action, unit] of cases) {
        const r = await services.act(id, action);
        expect(r, `${action} ${id}`).toEqual({
          ok: true,
          message: expect.stringContaining(`systemctl ${action} ${unit} done`),
        });
      }
      expect(calls(systemctlCalls).map((c) => c.args)).toEqual(
        cases.map(([, action, unit]) => [action, unit]),
      );

      const after = await services.list();
      expect(after.find((s) => s.id === 'rspamd')!.status).toBe('running');
      expect(after.find((s) => s.id === 'apache2')!.status).toBe('stopped');
      expect(after.find((s) => s.id === 'named')!.pid).toBe(4000 + 'named.service'.length);
    });

    it('reports a failure in systemd’s words, and never acts on Mailroom itself', async () => {
      writeFileSync(systemctlCalls, '');
      const r = await services.act('dovecot', 'restart');
      expect(r.ok).toBe(false);
      expect(r.message).toContain(
        'Dovecot: systemctl restart dovecot.service failed: Job for dovecot.service failed because the control process exited with error code.',
      );
      const listed = await services.list();
      expect(listed.find((s) => s.id === 'dovecot')!.status).toBe('failed');

      const self = await services.act('mailroom', 'restart');
      expect(self.ok).toBe(false);
      const unknown = await services.act('ssh', 'stop');
      expect(unknown).toEqual({ ok: false, refused: true, message: 'No service ssh.' });
      expect(calls(systemctlCalls).map((c) => c.args[0])).not.toContain('stop');
      expect(calls(systemctlCalls).filter((c) => c.args[0] !== 'show')).toHaveLength(1);
    });
  });
});
