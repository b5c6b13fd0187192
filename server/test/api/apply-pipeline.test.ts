import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApplyHooks } from '../../src/apply/apply-hooks.ts';
import type { ProveResult } from '../../src/apply/file-set.ts';
import type { DaemonName, ReloadResult, ServiceControl } from '../../src/host/service-control.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

/** Every file under the host's /etc: content and modification time. */
function snapshot(t: TestContext): Map<string, { content: string; mtime: number }> {
  const out = new Map<string, { content: string; mtime: number }>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p, { content: readFileSync(p, 'utf8'), mtime: statSync(p).mtimeMs });
    }
  };
  walk(t.deps.host.path('/etc'));
  return out;
}

const contents = (s: Map<string, { content: string }>) =>
  new Map([...s].map(([k, v]) => [k, v.content] as const));
const changedBetween = (a: Map<string, { content: string; mtime: number }>, b: typeof a) =>
  [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => a.get(k)?.content !== b.get(k)?.content || a.get(k)?.mtime !== b.get(k)?.mtime)
    .map((k) => k.slice(k.indexOf('/etc/')))
    .sort();

/** A ServiceControl that records each reload and fails on demand. */
class FakeServices implements ServiceControl {
  calls: { name: DaemonName; zones?: string[]; reconfig?: boolean }[] = [];
  failing = new Set<DaemonName>();
  async reload(name: DaemonName, o: { zones?: string[]; reconfig?: boolean } = {}): Promise<ReloadResult> {
    this.calls.push({ name, ...o });
    return this.failing.has(name)
      ? { ok: false, attempted: true, output: `${name} reload: fake failure for the test` }
      : { ok: true, attempted: true, output: `${name} reload: done` };
  }
  async states() {
    return [];
  }
  async close() {}
}

describe.each(dialects())('the apply pipeline on %s', (dialect) => {
  let t: TestContext;
  let services: FakeServices;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    services = new FakeServices();
    t.deps.services = services;
    await t.call({ method: 'GET', url: '/api/mail/settings' }); // the startup render is done
  });
  afterAll(async () => t.close());
  afterEach(() => {
    setApplyHooks(t.deps, {});
    services.failing.clear();
    services.calls = [];
  });

  const settings = async () => (await t.call({ method: 'GET', url: '/api/mail/settings' })).json();
  const save = (s: object, version: number) =>
    t.call({ method: 'POST', url: '/api/mail/settings', payload: { settings: s, version } });
  const outcome = async (target: string) =>
    (await t.call({ method: 'GET', url: '/api/apply' }))
      .json()
      .find((o: { target: string }) => o.target === target);
  const auditCount = async (action: string) =>
    (await t.call({ method: 'GET', url: `/api/audit?action=${action}&limit=500` }))
      .json()
      .entries.filter(
        (e: { action: string; outcome: string }) => e.action === action && e.outcome === 'success',
      ).length;

  it('a checker that refuses: 422, nothing saved, live files are the last good set', async () => {
    const before = snapshot(t);
    const { settings: s, version } = await settings();
    setApplyHooks(t.deps, {
      prove: async (target) => ({
        ok: false,
        checked: true,
        output: `${target}: refused by the test checker`,
      }),
    });
    const res = await save({ ...s, maxRecipients: 33 }, version);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'CHECK_FAILED' });
    expect(res.json().details.output).toContain('refused by the test checker');
    expect(contents(snapshot(t))).toEqual(contents(before));
    const after = await settings();
    expect(after.version).toBe(version);
    expect(after.settings.maxRecipients).toBe(s.maxRecipients);
    expect(await outcome('mail')).toMatchObject({ state: 'refused', step: 'prove' });
  });

  it('a reload that fails: 502 saved-not-live, files restored, Retry puts it live', async () => {
    const before = snapshot(t);
    const { settings: s, version } = await settings();
    services.failing.add('postfix');
    const res = await save({ ...s, maxRecipients: 44 }, version);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'APPLY_FAILED', retryable: true });
    expect(res.json().message).toMatch(/^Saved, but not live: the reload failed/);
    expect(res.json().details.output).toContain('postfix reload: fake failure for the test');
    expect(contents(snapshot(t))).toEqual(contents(before));
    expect(readFileSync(t.deps.host.path('/etc/postfix/main.cf'), 'utf8')).not.toContain(
      'smtpd_recipient_limit = 44',
    );
    // The change is saved, marked not live, and the settings' check says so.
    const saved = await settings();
    expect(saved.version).toBe(version + 1);
    expect(saved.settings.maxRecipients).toBe(44);
    expect(saved.check.ok).toBe(false);
    expect(await outcome('mail')).toMatchObject({ state: 'failed', step: 'reload' });
    // Postfix was reloaded again on the restored files.
    expect(services.calls.filter((c) => c.name === 'postfix').length).toBe(2);

    services.failing.clear();
    const retry = await t.call({ method: 'POST', url: '/api/apply/mail/retry' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ state: 'applied', step: null });
    expect(retry.json().changed.written).toContain('/etc/postfix/main.cf');
    expect(readFileSync(t.deps.host.path('/etc/postfix/main.cf'), 'utf8')).toContain(
      'smtpd_recipient_limit = 44',
    );
    expect((await settings()).check.ok).not.toBe(false);
  });

  it('a commit that fails: nothing saved, no audit line of success, files untouched', async () => {
    const before = snapshot(t);
    const audits = await auditCount('mail.settings.save');
    const { settings: s, version } = await settings();
    setApplyHooks(t.deps, {
      beforeCommit: async () => {
        throw new Error('disk full (injected)');
      },
    });
    const res = await save({ ...s, maxRecipients: 55 }, version);
    expect(res.statusCode).toBe(500);
    expect(contents(snapshot(t))).toEqual(contents(before));
    expect((await settings()).version).toBe(version);
    expect(await auditCount('mail.settings.save')).toBe(audits);
    // The fallback hook records the failed attempt.
    const last = (await t.call({ method: 'GET', url: '/api/audit?action=mail.settings.save&limit=1' })).json()
      .entries[0];
    expect(last.outcome).toBe('failure');
  });

  it('a save writes its audit line in its transaction, with the values before and after', async () => {
    const { settings: s, version } = await settings();
    expect((await save({ ...s, maxRecipients: 66 }, version)).statusCode).toBe(200);
    const entries = (
      await t.call({ method: 'GET', url: '/api/audit?action=mail.settings.save&limit=5' })
    ).json().entries;
    const line = entries[0];
    expect(line.outcome).toBe('success');
    const details = JSON.parse(line.details);
    expect(details.before.maxRecipients).toBe(s.maxRecipients);
    expect(details.after.maxRecipients).toBe(66);
    expect(details.version).toBe(version + 1);
    // Exactly one line for the call (the fallback hook did not add a second).
    expect(entries.filter((e: { at: string }) => e.at >= line.at).length).toBe(1);
  });

  it('a failed audit write fails the change (the audit line is written in its transaction)', async () => {
    const { db } = t.deps.database;
    const { sql } = await import('kysely');
    await sql`alter table audit_log rename to audit_log_away`.execute(db);
    let res;
    try {
      res = await t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { createDomain: true, email: 'no-audit@one-off.test', password: 'password-123' },
      });
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(db);
    }
    expect(res.statusCode).toBe(500);
    const found = await db
      .selectFrom('mailboxes')
      .select('id')
      .where('email', '=', 'no-audit@one-off.test')
      .execute();
    expect(found).toEqual([]);
    // With the table back, the same call goes through and leaves exactly one line.
    const ok = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: 'no-audit@one-off.test', password: 'password-123' },
    });
    expect(ok.statusCode).toBe(200);
    const lines = (await t.call({ method: 'GET', url: '/api/audit?action=mail.mailbox.create&limit=10' }))
      .json()
      .entries.filter((e: { target: string }) => e.target === 'no-audit@one-off.test');
    expect(lines.map((e: { outcome: string }) => e.outcome)).toEqual(['success']);
  });

  it('a rename that fails half way: every file back to the last good set', async () => {
    const before = snapshot(t);
    const { settings: s, version } = await settings();
    let renames = 0;
    const { promises: fs } = await import('node:fs');
    setApplyHooks(t.deps, {
      rename: async (from, to) => {
        if (++renames === 2) throw new Error('EIO: injected failure on the second rename');
        await fs.rename(from, to);
      },
    });
    // Two files change: main.cf (message size) and Dovecot's settings (plain text).
    const res = await save({ ...s, maxMessageSize: 12, allowPlainText: !s.allowPlainText }, version);
    expect(renames).toBe(2);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^Saved, but not live: the files could not be put in place/);
    expect(res.json().details.output).toContain('injected failure on the second rename');
    expect(contents(snapshot(t))).toEqual(contents(before));
    // No staged copy or backup is left beside the files.
    expect([...snapshot(t).keys()].filter((p) => /\.(tmp|bak)$/.test(p))).toEqual([]);
    expect(await outcome('mail')).toMatchObject({ state: 'failed', step: 'swap' });
    expect((await t.call({ method: 'POST', url: '/api/apply/mail/retry' })).statusCode).toBe(200);
  });

  it('a read answers while a save’s checks run (no connection held by the checker)', async () => {
    const { settings: s, version } = await settings();
    let entered!: () => void;
    const inChecker = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    setApplyHooks(t.deps, {
      prove: async (_target, _staged, real: () => Promise<ProveResult>) => {
        entered();
        await gate;
        return real();
      },
    });
    const saving = save({ ...s, maxRecipients: 77 }, version);
    await inChecker;
    const started = performance.now();
    const read = await t.call({ method: 'GET', url: '/api/mail/users?limit=5' });
    const waited = performance.now() - started;
    release();
    expect(read.statusCode).toBe(200);
    expect(waited).toBeLessThan(50);
    expect((await saving).statusCode).toBe(200);
  });

  it('a password change touches no file; a new mail domain rewrites and reloads only its zone', async () => {
    const zone = (domain: string) =>
      t.call({
        method: 'POST',
        url: '/api/dns/zones/add',
        payload: zoneForm(domain),
      });
    for (const d of ['one.test', 'two.test', 'three.test']) expect((await zone(d)).statusCode).toBe(200);
    const add = (email: string) =>
      t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { createDomain: true, email, password: 'password-123' },
      });
    expect((await add('a@one.test')).statusCode).toBe(200);
    expect((await add('b@two.test')).statusCode).toBe(200);
    expect(readFileSync(t.deps.host.path('/etc/bind/mailroom/zones/db.one.test'), 'utf8')).toMatch(/\sMX\s/);

    let before = snapshot(t);
    services.calls = [];
    const pw = await t.call({
      method: 'POST',
      url: '/api/mail/users/password/a@one.test',
      payload: { password: 'another-password-1' },
    });
    expect(pw.statusCode).toBe(200);
    expect(changedBetween(before, snapshot(t))).toEqual([]);
    expect(services.calls).toEqual([]);

    before = snapshot(t);
    expect((await add('c@three.test')).statusCode).toBe(200);
    const changed = changedBetween(before, snapshot(t));
    // Only three.test's zone among the DNS files; the mail side gets its new DKIM key and tables.
    expect(changed.filter((p) => p.startsWith('/etc/bind/'))).toEqual([
      '/etc/bind/mailroom/zones/db.three.test',
    ]);
    expect(changed.filter((p) => p.startsWith('/etc/postfix/') || p.startsWith('/etc/dovecot/'))).toEqual([]);
    expect(services.calls.filter((c) => c.name === 'named')).toEqual([
      { name: 'named', zones: ['three.test'], reconfig: false },
    ]);
  });

  it('a new zone reloads with reconfig; a reload failure of named keeps the last good zone files', async () => {
    const before = snapshot(t);
    services.failing.add('named');
    const res = await t.call({
      method: 'POST',
      url: '/api/dns/zones/one.test/records',
      payload: { qname: 'www', rtype: 'A', value: '192.0.2.10' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('APPLY_FAILED');
    expect(contents(snapshot(t))).toEqual(contents(before));
    const status = (await t.call({ method: 'GET', url: '/api/dns/status' })).json();
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(/^Saved, but not live/);
    services.failing.clear();
    services.calls = [];
    const created = await t.call({
      method: 'POST',
      url: '/api/dns/zones/add',
      payload: zoneForm('four.test'),
    });
    expect(created.statusCode).toBe(200);
    expect(services.calls).toEqual([{ name: 'named', zones: ['four.test'], reconfig: true }]);
    // Retry brings the saved record live.
    expect((await t.call({ method: 'POST', url: '/api/apply/dns/retry' })).statusCode).toBe(200);
    expect(readFileSync(t.deps.host.path('/etc/bind/mailroom/zones/db.one.test'), 'utf8')).toContain(
      '192.0.2.10',
    );
  });

  it('DNS settings rewrite only the files whose content changes', async () => {
    const s = (await t.call({ method: 'GET', url: '/api/dns/settings' })).json();
    const before = snapshot(t);
    services.calls = [];
    const res = await t.call({
      method: 'POST',
      url: '/api/dns/settings',
      payload: { ...s, logLevel: 'warning' },
    });
    expect(res.statusCode).toBe(200);
    expect(changedBetween(before, snapshot(t))).toEqual(['/etc/bind/mailroom/logging.conf']);
    expect(services.calls).toEqual([{ name: 'named' }]);
  });

  it('a stored mail settings row that no longer parses is an error, never the defaults', async () => {
    const { db } = t.deps.database;
    const before = snapshot(t);
    await db.updateTable('mail_settings').set({ settings: '{"hostname": 42}' }).where('id', '=', 1).execute();
    const body = await settings();
    expect(body.check.ok).toBe(false);
    expect(body.check.output).toMatch(/^The stored mail settings no longer parse \(hostname: /);
    const retry = await t.call({ method: 'POST', url: '/api/apply/mail/retry' });
    expect(retry.statusCode).toBe(409);
    expect(contents(snapshot(t))).toEqual(contents(before));
    // A save replaces the row.
    const res = await save({ ...body.defaults, hostname: 'mx9.example.com' }, body.version);
    expect(res.statusCode).toBe(200);
    expect(res.json().settings.hostname).toBe('mx9.example.com');
  });
});
