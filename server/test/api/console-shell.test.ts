import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameServerDefault } from '../../src/features/dns/settings/dns-settings.service.ts';
import { notify } from '../../src/features/events/notification.repository.ts';
import { addAdmin } from '../../src/features/auth/admin.service.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

/** Rows written straight to the tables the search reads (the mail and DNS APIs are tested elsewhere). */
async function seed(t: TestContext): Promise<void> {
  const db = t.deps.database.db;
  const now = new Date().toISOString();
  await db
    .insertInto('mail_domains')
    .values(
      ['shop.test', 'shipyard.test', 'other.test'].map((domain) => ({
        domain,
        explicit: 1,
        mailbox_count: 0,
        alias_count: 0,
        created_at: now,
      })),
    )
    .execute();
  const boxes = [
    'alice@shop.test',
    'alina@shop.test',
    'bob@shop.test',
    'ship1@other.test',
    'ship2@other.test',
    'ship3@other.test',
  ];
  await db
    .insertInto('mailboxes')
    .values(
      boxes.map((email) => ({
        email,
        domain: email.split('@')[1]!,
        password_hash: 'x',
        quota: 100 * 1024 * 1024,
        status: 'active',
        maildir: `${email.split('@')[1]}/${email.split('@')[0]}/`,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('mail_aliases')
    .values([
      {
        source: 'sales@shop.test',
        domain: 'shop.test',
        destination: 'alice@shop.test',
        status: 'active',
        created_at: now,
        updated_at: now,
      },
      {
        source: 'ali_x@shop.test',
        domain: 'shop.test',
        destination: 'bob@shop.test',
        status: 'active',
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
  await db
    .insertInto('dns_zones')
    .values(
      ['shop.test', 'Shipyard.test'].map((domain) => ({
        domain,
        zone_type: 'primary',
        status: 'active',
        primary_ns: 'ns1.shop.test',
        admin_email: 'hostmaster@shop.test',
        serial: 1,
        refresh: 3600,
        retry: 1800,
        expire: 604800,
        minimum: 300,
        default_ttl: 3600,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('dns_records')
    .values([
      {
        zone: 'shop.test',
        qname: 'shipping',
        rtype: 'A',
        value: '192.0.2.10',
        ttl: 300,
        priority: null,
        weight: null,
        port: null,
      },
      {
        zone: 'shop.test',
        qname: 'www',
        rtype: 'CNAME',
        value: 'shop.test.',
        ttl: 300,
        priority: null,
        weight: null,
        port: null,
      },
    ])
    .execute();
}

describe.each(dialects())('console shell API on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seed(t);
  });
  afterAll(async () => t.close());

  const search = async (q: string, extra = '') =>
    t.call({ url: `/api/search?q=${encodeURIComponent(q)}${extra}` });

  describe('global search', () => {
    it('finds mailboxes, aliases, domains, zones and records by prefix, grouped', async () => {
      const res = await search('sh');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const byKind = Object.fromEntries(
        body.groups.map((g: { kind: string; hits: { title: string }[] }) => [
          g.kind,
          g.hits.map((h) => h.title),
        ]),
      );
      expect(byKind.mailbox).toEqual(['ship1@other.test', 'ship2@other.test', 'ship3@other.test']);
      expect(byKind.domain).toEqual(['shipyard.test', 'shop.test']);
      // Case-folded: the zone stored as "Shipyard.test" is found by "sh".
      expect(byKind.zone).toEqual(['Shipyard.test', 'shop.test']);
      expect(byKind.record).toEqual(['shipping.shop.test']);
      expect(byKind.alias).toBeUndefined();
      expect(body.groups.map((g: { label: string }) => g.label)).toEqual([
        'Mailboxes',
        'Domains',
        'DNS Zones',
        'DNS Records',
      ]);
    });

    it('is a prefix search, not a substring search, and case-insensitive', async () => {
      const body = (await search('ALI')).json();
      const titles = body.groups.flatMap((g: { hits: { title: string }[] }) => g.hits.map((h) => h.title));
      expect(titles).toEqual(['alice@shop.test', 'alina@shop.test', 'ali_x@shop.test']);
      // "hop" is inside shop.test but starts nothing.
      expect((await search('hop')).json().groups).toEqual([]);
    });

    it('treats % and _ as themselves', async () => {
      const body = (await search('ali_')).json();
      expect(body.groups).toHaveLength(1);
      expect(body.groups[0].hits.map((h: { title: string }) => h.title)).toEqual(['ali_x@shop.test']);
      expect((await search('%%')).json().groups).toEqual([]);
    });

    it('limits each group and says there are more', async () => {
      const body = (await search('ship', '&limit=2')).json();
      const mailbox = body.groups.find((g: { kind: string }) => g.kind === 'mailbox');
      expect(mailbox.hits).toHaveLength(2);
      expect(mailbox.more).toBe(true);
      const record = body.groups.find((g: { kind: string }) => g.kind === 'record');
      expect(record.more).toBe(false);
    });

    it('links each hit to the page that shows it', async () => {
      const body = (await search('shipp')).json();
      expect(body.groups[0].hits[0]).toMatchObject({
        kind: 'record',
        path: '/dns/records?zone=shop.test&q=shipping',
      });
      const box = (await search('bob@')).json().groups[0].hits[0];
      expect(box.path).toBe('/mail/mailboxes?q=bob%40shop.test');
      const domain = (await search('shop.t'))
        .json()
        .groups.find((g: { kind: string }) => g.kind === 'domain');
      expect(domain.hits[0].path).toBe('/mail/domains?q=shop.test');
    });

    it('refuses a query shorter than 2 characters with the field named, and needs a session', async () => {
      const res = await search('a');
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toContain('at least 2 characters');
      const anon = await t.app.inject({ url: '/api/search?q=shop' });
      expect(anon.statusCode).toBe(401);
    });
  });

  describe('audit list', () => {
    beforeAll(async () => {
      const db = t.deps.database.db;
      const rows = [
        ['2026-01-01T10:00:00.000Z', 'a@example.com', 'mail.settings.update', 'mail-settings'],
        ['2026-01-02T10:00:00.000Z', 'b@example.com', 'dns.zone.create', 'shop.test'],
        ['2026-01-02T12:00:00.000Z', 'a@example.com', 'dns.record.create', 'shop.test/www'],
        ['2026-01-03T09:00:00.000Z', 'a@example.com', 'mail.mailbox.create', 'alice@shop.test'],
      ];
      for (const [at, actor, action, target] of rows)
        await db
          .insertInto('audit_log')
          .values({
            at: at!,
            actor: actor!,
            action: action!,
            target: target!,
            ip: null,
            outcome: 'success',
            details: JSON.stringify({ before: { a: 1 }, after: { a: 2 } }),
          })
          .execute();
    });
    const list = async (qs: string) => (await t.call({ url: `/api/audit?${qs}` })).json();

    it('filters by who, action, target and date', async () => {
      const b = await list('actor=b%40example.com');
      expect(b.entries.map((e: { action: string }) => e.action)).toEqual(['dns.zone.create']);
      const a = await list('actor=a%40example.com&action=dns.');
      expect(a.entries.map((e: { target: string }) => e.target)).toEqual(['shop.test/www']);
      const target = await list('target=shop.test');
      expect(target.total).toBe(2);
      const day = await list('from=2026-01-02&to=2026-01-02');
      expect(day.entries.map((e: { action: string }) => e.action)).toEqual([
        'dns.record.create',
        'dns.zone.create',
      ]);
      const after = await list('from=2026-01-02T11:00:00Z&to=2026-01-04');
      expect(after.entries.map((e: { action: string }) => e.action)).toEqual([
        'mail.mailbox.create',
        'dns.record.create',
      ]);
    });

    it('pages by cursor, newest first, with the total', async () => {
      const first = await list('from=2026-01-01&to=2026-01-03&limit=3');
      expect(first.entries).toHaveLength(3);
      expect(first.total).toBe(4);
      expect(first.nextCursor).toBe(first.entries[2].id);
      const second = await list(`from=2026-01-01&to=2026-01-03&limit=3&cursor=${first.nextCursor}`);
      expect(second.entries.map((e: { action: string }) => e.action)).toEqual(['mail.settings.update']);
      expect(second.nextCursor).toBeNull();
    });

    it('keeps the details (before/after) and refuses a bad date naming the field', async () => {
      const e = (await list('action=mail.settings.')).entries[0];
      expect(JSON.parse(e.details)).toEqual({ before: { a: 1 }, after: { a: 2 } });
      const bad = await t.call({ url: '/api/audit?from=yesterday' });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('From must be a date');
    });

    it('lists the administrators for the who filter', async () => {
      const res = await t.call({ url: '/api/audit/actors' });
      expect(res.json().actors).toContain(ADMIN.email);
    });
  });

  describe('notifications', () => {
    let other: string;
    beforeAll(async () => {
      const db = t.deps.database.db;
      for (const title of ['First', 'Second', 'Third'])
        await notify(db, { level: 'info', title, message: `${title} message` });
      await addAdmin(db, 'second@example.com', 'another-long-password');
      const login = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'second@example.com', password: 'another-long-password' },
      });
      other = login.json().api_key;
    });
    const list = async (token?: string) =>
      (
        await t.app.inject({
          url: '/api/notifications',
          headers: { authorization: `Bearer ${token ?? t.token}` },
        })
      ).json();

    it('lists newest first, all unread at first', async () => {
      const body = await list();
      expect(body.notifications.map((n: { title: string }) => n.title)).toEqual(['Third', 'Second', 'First']);
      expect(body.unread).toBe(3);
    });

    it('keeps the read state per administrator on the server', async () => {
      const third = (await list()).notifications[0];
      const res = await t.call({ method: 'POST', url: `/api/notifications/${third.id}/read` });
      expect(res.statusCode).toBe(200);
      const mine = await list();
      expect(mine.unread).toBe(2);
      expect(mine.notifications[0].read).toBe(true);
      // Another administrator's bell is untouched.
      expect((await list(other)).unread).toBe(3);
    });

    it('marks all read, then new ones arrive unread', async () => {
      await t.call({ method: 'POST', url: '/api/notifications/read-all' });
      expect((await list()).unread).toBe(0);
      await notify(t.deps.database.db, { level: 'warning', title: 'Fourth', message: 'later' });
      const body = await list();
      expect(body.unread).toBe(1);
      expect(body.notifications[0]).toMatchObject({ title: 'Fourth', read: false, level: 'warning' });
    });

    it('clears the read ones, one, or all, for this administrator only', async () => {
      await t.call({ method: 'POST', url: '/api/notifications/clear', payload: { which: 'read' } });
      expect((await list()).notifications.map((n: { title: string }) => n.title)).toEqual(['Fourth']);
      const fourth = (await list()).notifications[0];
      await t.call({ method: 'DELETE', url: `/api/notifications/${fourth.id}` });
      expect((await list()).notifications).toEqual([]);
      expect((await list(other)).notifications).toHaveLength(4);
      await t.app.inject({
        method: 'POST',
        url: '/api/notifications/clear',
        headers: { authorization: `Bearer ${other}` },
        payload: { which: 'all' },
      });
      expect((await list(other)).notifications).toEqual([]);
    });

    it('answers 404 for an unknown notification and 400 for a bad id, and bell actions write no audit line', async () => {
      expect((await t.call({ method: 'POST', url: '/api/notifications/999999/read' })).statusCode).toBe(404);
      expect((await t.call({ method: 'POST', url: '/api/notifications/abc/read' })).statusCode).toBe(400);
      const audit = (await t.call({ url: '/api/audit?target=999999' })).json();
      expect(audit.total).toBe(0);
      // Only the refused call (400, like every refused call) is on record, never a bell action.
      const all = (await t.call({ url: '/api/audit?action=POST%20notifications' })).json();
      expect(all.entries.map((e: { details: string }) => JSON.parse(e.details))).toEqual([{ status: 400 }]);
    });
  });

  describe('DNS settings default name server', () => {
    it("is the mail settings' host name when fully qualified, never a single label", async () => {
      const db = t.deps.database.db;
      await db.deleteFrom('mail_settings').execute();
      const row = (hostname: string) => ({
        id: 1,
        settings: JSON.stringify({ hostname, domain: 'mailroom-shell.test' }),
        version: 1,
        applied_at: null,
        check_ok: null,
        check_output: null,
        updated_at: new Date().toISOString(),
      });
      await db.insertInto('mail_settings').values(row('mx.mailroom-shell.test')).execute();
      expect(await nameServerDefault(db, 'vm')).toBe('mx.mailroom-shell.test');
      // A mail host name that is itself a single label is not used.
      await db
        .updateTable('mail_settings')
        .set({ settings: JSON.stringify({ hostname: 'mx' }) })
        .execute();
      expect(await nameServerDefault(db, 'vm')).toBe('vm.localdomain');
      await db.deleteFrom('mail_settings').execute();
      expect(await nameServerDefault(db, 'vm')).toBe('vm.localdomain');
      expect(await nameServerDefault(db, 'host.example.net')).toBe('host.example.net');
    });
  });
});
