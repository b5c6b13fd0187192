import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/** Clear Logs on /system/management: which files it empties or deletes, and which it never touches. */
describe.each(dialects())('Clear Logs on %s', (dialect) => {
  let t: TestContext;
  let root: string;
  const file = (p: string) => path.join(root, p);
  const put = (p: string, content: string) => {
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    root = t.deps.config.hostRoot;
    put(file('var/log/mail.log'), 'Nov 22 10:00:01 mx postfix/smtp[1]: Q1: status=sent\n'.repeat(100));
    put(file('var/log/mail.log.1'), 'old mail\n'.repeat(50));
    put(file('var/log/mail.log.2.gz'), 'gzipped old mail');
    put(file('var/log/syslog'), 'system log, not Mailroom’s\n');
    put(file('var/log/syslog.1'), 'rotated system log\n');
    put(file('var/log/apache2/error.log'), 'web log\n');
    put(file('var/cache/bind/mailroom-named.log'), 'named log\n'.repeat(20));
    put(file('var/cache/bind/mailroom-named.log.0'), 'named log, older\n');
    put(file('var/cache/bind/db.secondary.example'), 'a secondary zone copy');
    put(path.join(t.deps.config.dataDir, 'logs/mailroom.log'), '{"level":30,"msg":"started"}\n');
    // A link named like a mail log is not followed: it could point anywhere.
    put(file('outside/precious.txt'), 'must survive');
    symlinkSync(file('outside/precious.txt'), file('var/log/mail.err'));
  });

  afterAll(async () => {
    await t.close();
  });

  it('lists the files each log holds, with sizes', async () => {
    const res = await t.call({ url: '/api/system/logs/files' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      files: { log: string; path: string; size: number; rotated: boolean }[];
      totalBytes: number;
    }>();
    const rel = body.files.map((f) => [f.log, path.relative(root, f.path), f.rotated]);
    expect(rel).toEqual(
      expect.arrayContaining([
        ['mail', 'var/log/mail.log', false],
        ['mail', 'var/log/mail.log.1', true],
        ['mail', 'var/log/mail.log.2.gz', true],
        ['dns', 'var/cache/bind/mailroom-named.log', false],
        ['dns', 'var/cache/bind/mailroom-named.log.0', true],
      ]),
    );
    expect(body.files.find((f) => f.log === 'mailroom')?.path).toBe(
      path.join(t.deps.config.dataDir, 'logs/mailroom.log'),
    );
    expect(body.files.some((f) => /syslog|apache2|mail\.err|db\.secondary/.test(f.path))).toBe(false);
    expect(body.totalBytes).toBe(body.files.reduce((n, f) => n + f.size, 0));
    expect(body.totalBytes).toBeGreaterThan(5000);
  });

  it('refuses an empty choice naming the field', async () => {
    for (const payload of [{ logs: [] }, { logs: ['system'] }, {}]) {
      const res = await t.call({ method: 'POST', url: '/api/system/logs/clear', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ details: { field: string }[] }>().details[0]!.field).toMatch(/^logs/);
    }
  });

  it('empties the current mail and DNS logs, deletes their rotated copies, touches nothing else, audited', async () => {
    const mailSize = statSync(file('var/log/mail.log')).size;
    const res = await t.call({
      method: 'POST',
      url: '/api/system/logs/clear',
      payload: { logs: ['mail', 'dns'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ emptied: number; deleted: number; freedBytes: number; errors: string[] }>();
    expect(answer).toMatchObject({ emptied: 2, deleted: 3, errors: [] });
    expect(answer.freedBytes).toBeGreaterThan(mailSize);

    // Emptied in place (Postfix and named keep appending to the same file).
    expect(statSync(file('var/log/mail.log')).size).toBe(0);
    expect(statSync(file('var/cache/bind/mailroom-named.log')).size).toBe(0);
    for (const gone of ['var/log/mail.log.1', 'var/log/mail.log.2.gz', 'var/cache/bind/mailroom-named.log.0'])
      expect(existsSync(file(gone)), gone).toBe(false);
    // Not Mailroom's, or not chosen: untouched.
    expect(readFileSync(file('var/log/syslog'), 'utf8')).toContain('not Mailroom');
    expect(existsSync(file('var/log/syslog.1'))).toBe(true);
    expect(readFileSync(file('var/log/apache2/error.log'), 'utf8')).toBe('web log\n');
    expect(readFileSync(file('outside/precious.txt'), 'utf8')).toBe('must survive');
    expect(existsSync(file('var/cache/bind/db.secondary.example'))).toBe(true);
    expect(statSync(path.join(t.deps.config.dataDir, 'logs/mailroom.log')).size).toBeGreaterThan(0);

    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'system.logs.clear')
      .execute();
    // The three refused calls above are audited with their status; this one with what it cleared.
    const text = audit.map((a) => (typeof a.details === 'string' ? a.details : JSON.stringify(a.details)));
    const done = text.filter((d) => d.includes('"logs"'));
    expect(done).toHaveLength(1);
    expect(JSON.parse(done[0]!)).toMatchObject({ logs: ['mail', 'dns'], emptied: 2, deleted: 3 });

    const after = await t.call({ url: '/api/system/logs/files' });
    const files = after.json<{ files: { log: string; size: number }[] }>().files;
    expect(files.filter((f) => f.log !== 'mailroom').every((f) => f.size === 0)).toBe(true);
  });

  it('is refused in maintenance mode like every change', async () => {
    let res = await t.call({
      method: 'PUT',
      url: '/api/system/settings',
      payload: {
        systemName: 'Mailroom',
        adminEmail: 'ops@example.com',
        timezone: 'UTC',
        maintenanceMode: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.call({ method: 'POST', url: '/api/system/logs/clear', payload: { logs: ['mailroom'] } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'MAINTENANCE' });
    expect(statSync(path.join(t.deps.config.dataDir, 'logs/mailroom.log')).size).toBeGreaterThan(0);
    expect((await t.call({ url: '/api/system/logs/files' })).statusCode).toBe(200);
    await t.call({
      method: 'PUT',
      url: '/api/system/settings',
      payload: {
        systemName: 'Mailroom',
        adminEmail: 'ops@example.com',
        timezone: 'UTC',
        maintenanceMode: false,
      },
    });
  });
});
