import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const MB = 1024 * 1024;

describe.each(dialects())('mail mailboxes on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const add = (payload: unknown) =>
    t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      // New domains are deliberate: these tests create theirs with the mailbox.
      payload: (payload && typeof payload === 'object' && !Array.isArray(payload)
        ? { createDomain: true, ...payload }
        : payload) as object,
    });
  const list = async (qs = '') => {
    const res = await t.call({ method: 'GET', url: `/api/mail/users${qs}` });
    expect(res.statusCode).toBe(200);
    return {
      items: res.json<{ email: string; quota: number; used: number; status: string }[]>(),
      total: Number(res.headers['x-total-count']),
    };
  };

  it('creates a mailbox, lower-cased, with an argon2id hash Dovecot reads', async () => {
    const res = await add({ email: 'Alice@Example.COM', password: 'alice-password', quota: 100 * MB });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    const { items } = await list('?q=alice');
    expect(items).toEqual([
      {
        email: 'alice@example.com',
        domain: 'example.com',
        quota: 100 * MB,
        used: 0,
        status: 'active',
        createdAt: expect.any(String),
      },
    ]);
    const row = await t.deps.database.db
      .selectFrom('mailboxes')
      .select(['password_hash', 'maildir', 'domain'])
      .where('email', '=', 'alice@example.com')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$/);
    expect(await verify(row.password_hash.slice('{ARGON2ID}'.length), 'alice-password')).toBe(true);
    expect(row).toMatchObject({ maildir: 'example.com/alice/', domain: 'example.com' });
    const domains = await t.call({ method: 'GET', url: '/api/mail/domains' });
    expect(domains.json()).toContainEqual({
      domain: 'example.com',
      mailboxes: 1,
      // postmaster@ and abuse@ (system aliases)
      aliases: 2,
      explicit: false,
      dkim: expect.any(Boolean),
      dnsZone: null,
      catchAll: false,
    });
  });

  it('treats an absent or null quota as unlimited (0)', async () => {
    expect((await add({ email: 'nolimit@example.com', password: 'password-1' })).statusCode).toBe(200);
    expect(
      (await add({ email: 'nulllimit@example.com', password: 'password-1', quota: null })).statusCode,
    ).toBe(200);
    const { items } = await list('?q=n');
    expect(items.map((m) => [m.email, m.quota])).toEqual([
      ['nolimit@example.com', 0],
      ['nulllimit@example.com', 0],
    ]);
  });

  it('answers the spec messages, naming the field', async () => {
    const cases: [unknown, string, string][] = [
      [{ password: 'password-1' }, 'email', 'Email is required'],
      [{ email: '', password: 'password-1' }, 'email', 'Email is required'],
      [{ email: 'not-an-email', password: 'password-1' }, 'email', 'Please enter a valid email address'],
      [{ email: 'x@example.com' }, 'password', 'Password is required'],
      [{ email: 'x@example.com', password: 'short' }, 'password', 'Password must be at least 8 characters'],
      [{ email: 'x@example.com', password: 'password-1', quota: -1 }, 'quota', 'Quota must be at least 0'],
      [{ email: 'x@example.com', password: 'password-1', quota: 'lots' }, 'quota', 'Quota must be a number'],
      // A hosted address needs a real domain: it becomes a folder name.
      [
        { email: 'x@bad/../domain.com', password: 'password-1' },
        'email',
        'Please enter a valid email address',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.details).toContainEqual({ field, message });
    }
  });

  it('refuses a quota above Max Quota (settings) but allows unlimited', async () => {
    const res = await add({ email: 'big@example.com', password: 'password-1', quota: 10001 * MB });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual({
      field: 'quota',
      message: 'Quota must be at most 10000 MB (Max Quota)',
    });
    expect(
      (await add({ email: 'big@example.com', password: 'password-1', quota: 10000 * MB })).statusCode,
    ).toBe(200);
  });

  it('answers 409 for a duplicate, whatever its case', async () => {
    const res = await add({ email: 'ALICE@example.com', password: 'password-2' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'A mailbox alice@example.com already exists',
    });
  });

  it('changes password, quota, and suspends/resumes', async () => {
    const before = await t.deps.database.db
      .selectFrom('mailboxes')
      .select('password_hash')
      .where('email', '=', 'alice@example.com')
      .executeTakeFirstOrThrow();
    const pw = await t.call({
      method: 'POST',
      url: '/api/mail/users/password/alice@example.com',
      payload: { password: 'new-password-9' },
    });
    expect(pw.statusCode).toBe(200);
    const after = await t.deps.database.db
      .selectFrom('mailboxes')
      .select('password_hash')
      .where('email', '=', 'alice@example.com')
      .executeTakeFirstOrThrow();
    expect(after.password_hash).not.toBe(before.password_hash);
    expect(await verify(after.password_hash.slice('{ARGON2ID}'.length), 'new-password-9')).toBe(true);

    const short = await t.call({
      method: 'POST',
      url: '/api/mail/users/password/alice@example.com',
      payload: { password: 'x' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().details).toContainEqual({
      field: 'password',
      message: 'Password must be at least 8 characters',
    });

    const quota = await t.call({
      method: 'POST',
      url: '/api/mail/users/quota/alice@example.com',
      payload: { quota: 0 },
    });
    expect(quota.statusCode).toBe(200);
    expect((await list('?q=alice')).items[0]!.quota).toBe(0);

    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/suspend/alice@example.com' })).statusCode,
    ).toBe(200);
    expect((await list('?q=alice')).items[0]!.status).toBe('suspended');
    expect((await list('?status=suspended')).items.map((m) => m.email)).toEqual(['alice@example.com']);
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/users/resume/alice@example.com' })).statusCode,
    ).toBe(200);
    expect((await list('?q=alice')).items[0]!.status).toBe('active');
  });

  it('answers 404 for calls on a mailbox that does not exist', async () => {
    for (const url of [
      '/api/mail/users/password/ghost@example.com',
      '/api/mail/users/quota/ghost@example.com',
      '/api/mail/users/suspend/ghost@example.com',
      '/api/mail/users/remove/ghost@example.com',
    ]) {
      const res = await t.call({
        method: 'POST',
        url,
        payload: url.includes('password')
          ? { password: 'password-1' }
          : url.includes('quota')
            ? { quota: 1 }
            : undefined,
      });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe('Mailbox ghost@example.com was not found');
    }
  });

  it('reaches the same calls through index.php?path=', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/index.php?path=mail/users/add',
      payload: { createDomain: true, email: 'php@example.org', password: 'password-php' },
    });
    expect(res.statusCode).toBe(200);
    const got = await t.call({ method: 'GET', url: '/api/index.php?path=mail/users&q=php' });
    expect(got.json()).toHaveLength(1);
    expect(got.headers['x-total-count']).toBe('1');
    const rm = await t.call({ method: 'POST', url: '/api/index.php?path=mail/users/remove/php@example.org' });
    expect(rm.statusCode).toBe(200);
    // Its domain had nothing else: it is gone.
    const domains = await t.call({ method: 'GET', url: '/api/mail/domains' });
    expect(domains.json().map((d: { domain: string }) => d.domain)).not.toContain('example.org');
  });

  it('moves the mail folder aside on delete, says where, and purges it on request', async () => {
    expect((await add({ email: 'bob@example.com', password: 'password-b' })).statusCode).toBe(200);
    const folder = path.join(t.deps.host.path('/var/vmail'), 'example.com/bob/Maildir/cur');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, '1.mail'), 'Subject: keep me\n\nhello\n');
    const res = await t.call({ method: 'POST', url: '/api/mail/users/remove/bob@example.com' });
    expect(res.statusCode).toBe(200);
    const { movedTo } = res.json<{ movedTo: string }>();
    expect(movedTo).toMatch(/\/var\/vmail\/\.removed\/example\.com\/bob-\d{8}T\d{9}Z$/);
    expect(movedTo.startsWith(t.deps.host.root)).toBe(true);
    expect(existsSync(path.join(movedTo, 'Maildir/cur/1.mail'))).toBe(true);
    expect(existsSync(path.join(t.deps.host.path('/var/vmail'), 'example.com/bob'))).toBe(false);
    expect((await list('?q=bob')).items).toEqual([]);

    // A mailbox that never received mail has no folder to move.
    await add({ email: 'empty@example.com', password: 'password-e' });
    const none = await t.call({ method: 'POST', url: '/api/mail/users/remove/empty@example.com' });
    expect(none.json()).toEqual({ success: true, movedTo: null });

    const purge = await t.call({ method: 'POST', url: '/api/mail/users/purge/bob@example.com' });
    expect(purge.statusCode).toBe(200);
    expect(purge.json()).toEqual({ success: true, removed: [movedTo] });
    expect(existsSync(movedTo)).toBe(false);
  });

  it('pages, sorts and searches on the server with X-Total-Count', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await add({
        email: `page${String(i).padStart(2, '0')}@paging.test`,
        password: 'password-p',
        quota: (i + 1) * MB,
      });
      expect(res.statusCode).toBe(200);
    }
    const first = await list('?q=page&limit=5');
    expect(first.total).toBe(12);
    expect(first.items.map((m) => m.email)).toEqual(
      ['page00', 'page01', 'page02', 'page03', 'page04'].map((p) => `${p}@paging.test`),
    );
    const third = await list('?q=page&limit=5&offset=10');
    expect(third.items.map((m) => m.email)).toEqual(['page10@paging.test', 'page11@paging.test']);
    const byQuota = await list('?q=paging.test&limit=2&sort=-quota');
    expect(byQuota.items.map((m) => m.email)).toEqual(['page11@paging.test', 'page10@paging.test']);
    const all = await list();
    expect(all.total).toBe(all.items.length);
    expect((await list('?q=PAGING.TEST')).total).toBe(12);
    const bad = await t.call({ method: 'GET', url: '/api/mail/users?sort=password' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('sort');
    const tooMany = await t.call({ method: 'GET', url: '/api/mail/users?limit=1001' });
    expect(tooMany.statusCode).toBe(400);
  });

  it('shows Used from the table Dovecot writes, and the dashboard top 5 by percent', async () => {
    const usage = [
      ['page00@paging.test', 0.9 * MB], // 90 % of 1 MB
      ['page01@paging.test', 0.2 * MB], // 10 % of 2 MB
      ['page02@paging.test', 2.4 * MB], // 80 % of 3 MB
      ['nolimit@example.com', 50 * MB], // unlimited: 0 %
    ] as const;
    for (const [username, bytes] of usage) {
      await t.deps.database.db
        .insertInto('mail_quota_usage')
        .values({ username, bytes: Math.round(bytes), messages: 1 })
        .execute();
    }
    const { items } = await list('?q=page00');
    expect(items[0]!.used).toBe(Math.round(0.9 * MB));
    const res = await t.call({ method: 'GET', url: '/api/mail/dashboard' });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    const { total } = await list();
    expect(d.totalMailboxes).toBe(total);
    // §9: active = quota above 0
    const quotaZero = (await list('?limit=1000')).items.filter((m) => m.quota === 0).length;
    expect(d.activeMailboxes).toBe(total - quotaZero);
    expect(d.topUsage.slice(0, 3)).toEqual([
      { email: 'page00@paging.test', quota: MB, used: Math.round(0.9 * MB), percent: 90 },
      { email: 'page02@paging.test', quota: 3 * MB, used: Math.round(2.4 * MB), percent: 80 },
      { email: 'page01@paging.test', quota: 2 * MB, used: Math.round(0.2 * MB), percent: 10 },
    ]);
    expect(d.topUsage).toHaveLength(5);
    expect(['online', 'offline']).toContain(d.serverStatus);
    // The filter (rspamd) is listed while spam filtering or DKIM wants it (both on by default).
    expect(d.services.map((s: { name: string }) => s.name)).toEqual(['postfix', 'dovecot', 'rspamd']);
    expect(d.serverStatus === 'online').toBe(d.services.every((s: { running: boolean }) => s.running));
  });

  it('records changes in the audit log without passwords', async () => {
    const res = await t.call({ method: 'GET', url: '/api/audit?action=mail.mailbox' });
    const entries = res.json().entries as { action: string; target: string; details: string | null }[];
    expect(entries.some((e) => e.action === 'mail.mailbox.create' && e.target === 'alice@example.com')).toBe(
      true,
    );
    expect(entries.some((e) => e.action === 'mail.mailbox.remove' && e.target === 'bob@example.com')).toBe(
      true,
    );
    expect(JSON.stringify(entries)).not.toContain('alice-password');
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/mail/users' });
    expect(res.statusCode).toBe(401);
  });
});
