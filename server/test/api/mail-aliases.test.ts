import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('mail aliases on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    const mb = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: 'box@example.com', password: 'password-box' },
    });
    expect(mb.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  const add = (source: string, destination: string) =>
    t.call({
      method: 'POST',
      url: '/api/mail/aliases/add',
      payload: { createDomain: true, source, destination },
    });
  const list = async (qs = '') => {
    const res = await t.call({ method: 'GET', url: `/api/mail/aliases${qs}` });
    expect(res.statusCode).toBe(200);
    const all = res.json<{ source: string; destination: string; status: string; system: boolean }[]>();
    return {
      // The administrator's own aliases; the system ones (postmaster@, abuse@) are checked apart.
      items: all.filter((a) => !a.system).map(({ system: _system, ...a }) => a),
      system: all.filter((a) => a.system).map((a) => a.source),
      total: Number(res.headers['x-total-count']),
    };
  };
  const importCsv = (csv: string, dryRun = false) =>
    t.call({
      method: 'POST',
      // These imports create their domains deliberately (refusal is proved in mail-screens.test.ts).
      url: `/api/mail/aliases/import?createDomains=1${dryRun ? '&dryRun=1' : ''}`,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });

  it('creates an alias with one or several destinations, lower-cased', async () => {
    expect((await add('Info@Example.com', 'box@example.com')).statusCode).toBe(200);
    expect((await add('team@example.com', 'box@example.com, Someone@Elsewhere.org')).statusCode).toBe(200);
    const { items } = await list();
    expect(items).toEqual([
      { source: 'info@example.com', destination: 'box@example.com', status: 'active' },
      { source: 'team@example.com', destination: 'box@example.com,someone@elsewhere.org', status: 'active' },
    ]);
    // Required addresses exist from the domain's first mailbox, to the first administrator.
    const all = (await t.call({ method: 'GET', url: '/api/mail/aliases?q=example.com' })).json();
    expect(all).toContainEqual({
      source: 'postmaster@example.com',
      destination: 'admin@example.com',
      status: 'active',
      system: true,
    });
    expect((await list()).system).toEqual(['abuse@example.com', 'postmaster@example.com']);
  });

  it('keeps postmaster@ and abuse@: a system alias cannot be removed or disabled; defining it takes it over', async () => {
    const removed = await t.call({ method: 'POST', url: '/api/mail/aliases/remove/abuse@example.com' });
    expect(removed.statusCode).toBe(409);
    expect(removed.json().message).toContain('abuse@example.com is a required address');
    const disabled = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/abuse@example.com',
      payload: { status: 'disabled' },
    });
    expect(disabled.statusCode).toBe(409);
    expect((await add('abuse@example.com', 'box@example.com')).statusCode).toBe(200);
    expect((await list('?q=abuse@')).items).toEqual([
      { source: 'abuse@example.com', destination: 'box@example.com', status: 'active' },
    ]);
    // The administrator's own is removable; the system alias comes back.
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/aliases/remove/abuse@example.com' })).statusCode,
    ).toBe(200);
    expect((await list('?q=abuse@')).system).toEqual(['abuse@example.com']);
    // An imported row replaces a system alias too (a dry run only says it would).
    const csv = 'source,destination\r\npostmaster@example.com,box@example.com\r\n';
    expect((await importCsv(csv, true)).json()).toMatchObject({ imported: 1, errors: [] });
    expect((await list('?q=postmaster@')).system).toEqual(['postmaster@example.com']);
    expect((await importCsv(csv)).json()).toMatchObject({ imported: 1, errors: [] });
    expect((await list('?q=postmaster@')).items).toEqual([
      { source: 'postmaster@example.com', destination: 'box@example.com', status: 'active' },
    ]);
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/aliases/remove/postmaster@example.com' })).statusCode,
    ).toBe(200);
    expect((await list('?q=postmaster@')).system).toEqual(['postmaster@example.com']);
  });

  it('validates both addresses with the spec labels and messages', async () => {
    const cases: [object, string, string][] = [
      [{ destination: 'a@b.com' }, 'source', 'Source Email is required'],
      [{ source: 'x@example.com' }, 'destination', 'Destination Email is required'],
      [{ source: 'nope', destination: 'a@b.com' }, 'source', 'Please enter a valid email address'],
      [{ source: 'x@example.com', destination: 'nope' }, 'destination', 'Please enter a valid email address'],
      [
        { source: 'x@example.com', destination: 'a@b.com,,c@d.com' },
        'destination',
        'Please enter a valid email address',
      ],
      [
        { source: 'x@example.com', destination: 'a@b.com, bad' },
        'destination',
        'Please enter a valid email address',
      ],
      [
        { source: 'x@example.com', destination: 'X@example.com' },
        'destination',
        'Destination Email must differ from Source Email',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/mail/aliases/add', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details).toContainEqual({ field, message });
    }
  });

  it('answers 409 for a duplicate source and for a mailbox address', async () => {
    const dup = await add('INFO@example.com', 'other@example.net');
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('An alias for info@example.com already exists');
    const mb = await add('box@example.com', 'other@example.net');
    expect(mb.statusCode).toBe(409);
    expect(mb.json().message).toBe('box@example.com is a mailbox; an alias cannot use the same address');
    const reverse = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: 'info@example.com', password: 'password-1' },
    });
    expect(reverse.statusCode).toBe(409);
  });

  it('refuses loops through any number of hops, with the chain', async () => {
    expect((await add('a@loop.test', 'b@loop.test')).statusCode).toBe(200);
    expect((await add('b@loop.test', 'c@loop.test')).statusCode).toBe(200);
    expect((await add('c@loop.test', 'd@loop.test, outside@example.net')).statusCode).toBe(200);
    const res = await add('d@loop.test', 'a@loop.test');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual({
      field: 'destination',
      message:
        'This alias would create a loop: d@loop.test → a@loop.test → b@loop.test → c@loop.test → d@loop.test',
    });
    // Changing an existing alias to close a loop is refused the same way.
    const upd = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/c@loop.test',
      payload: { destination: 'a@loop.test' },
    });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().details[0].message).toContain('loop');
    // A disabled link still counts: enabling it later must not close a loop.
    await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/b@loop.test',
      payload: { status: 'disabled' },
    });
    expect((await add('d@loop.test', 'a@loop.test')).statusCode).toBe(400);
  });

  it('edits destination and status, and 404s an unknown source', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/info@example.com',
      payload: { destination: 'Box@example.com,new@example.net', status: 'disabled' },
    });
    expect(res.statusCode).toBe(200);
    expect((await list('?q=info@')).items).toEqual([
      { source: 'info@example.com', destination: 'box@example.com,new@example.net', status: 'disabled' },
    ]);
    const bad = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/info@example.com',
      payload: { status: 'paused' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('status');
    const empty = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/info@example.com',
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    const missing = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/update/ghost@example.com',
      payload: { status: 'active' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Alias ghost@example.com was not found');
  });

  it('searches source, source domain or destination by prefix, case-insensitively, with a total', async () => {
    expect((await list('?q=TEAM')).items.map((a) => a.source)).toEqual(['team@example.com']);
    // a@, b@, c@ and the domain's postmaster@ and abuse@.
    expect((await list('?q=loop.test')).total).toBe(5);
    // destination starting with box@
    expect((await list('?q=box@')).items.map((a) => a.source)).toEqual([
      'info@example.com',
      'team@example.com',
    ]);
    const page = await list('?q=loop&limit=3&offset=2&sort=-source');
    expect(page.total).toBe(5);
    expect(page.items.map((a) => a.source)).toEqual(['b@loop.test', 'a@loop.test']);
    expect((await list('?status=disabled')).items.map((a) => a.source)).toEqual([
      'b@loop.test',
      'info@example.com',
    ]);
  });

  it('removes an alias (404 when absent), also through index.php?path=', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/index.php?path=mail/aliases/remove/team@example.com',
    });
    expect(res.statusCode).toBe(200);
    expect((await list('?q=team')).items).toEqual([]);
    const again = await t.call({ method: 'POST', url: '/api/mail/aliases/remove/team@example.com' });
    expect(again.statusCode).toBe(404);
  });

  it('imports a CSV: per-row errors, skipped rows, dry run writes nothing', async () => {
    const csv = [
      'source,destination',
      'sales@shop.test,box@example.com', // 2 ok
      ',box@example.com', // 3 skipped
      'support@shop.test,', // 4 skipped
      'bad-address,box@example.com', // 5 invalid source
      'info@example.com,x@example.net', // 6 exists
      'box@example.com,x@example.net', // 7 is a mailbox
      'sales@shop.test,other@example.net', // 8 duplicate of row 2
      'x@shop.test,y@shop.test', // 9 ok
      'y@shop.test,x@shop.test', // 10 loop with row 9
      'a@loop.test,z@example.net', // 11 exists
      'e@loop.test,a@loop.test', // 12 ok (a→b→c→d, no way back to e)
      'self@shop.test,SELF@shop.test', // 13 self
      '"quoted@shop.test","box@example.com, other@example.net"', // 14 ok, two destinations
    ].join('\n');
    const dry = await importCsv(csv, true);
    expect(dry.statusCode).toBe(200);
    const expected = {
      imported: 4,
      skipped: 2,
      errors: [
        { row: 5, message: 'source: Please enter a valid email address' },
        { row: 6, message: 'source: An alias for info@example.com already exists' },
        { row: 7, message: 'source: box@example.com is a mailbox; an alias cannot use the same address' },
        { row: 8, message: 'source: sales@shop.test appears more than once (first on row 2)' },
        {
          row: 10,
          message: 'destination: This alias would create a loop: y@shop.test → x@shop.test → y@shop.test',
        },
        { row: 11, message: 'source: An alias for a@loop.test already exists' },
        { row: 13, message: 'destination: Destination Email must differ from Source Email' },
      ],
    };
    expect(dry.json()).toEqual({ ...expected, dryRun: true, newDomains: ['shop.test'] });
    expect((await list('?q=shop.test')).total).toBe(0);

    const real = await importCsv(csv);
    expect(real.statusCode).toBe(200);
    expect(real.json()).toEqual({ ...expected, dryRun: false, newDomains: ['shop.test'] });
    expect((await list('?q=shop.test')).items).toEqual([
      { source: 'quoted@shop.test', destination: 'box@example.com,other@example.net', status: 'active' },
      { source: 'sales@shop.test', destination: 'box@example.com', status: 'active' },
      { source: 'x@shop.test', destination: 'y@shop.test', status: 'active' },
    ]);
    expect((await list('?q=e@loop')).items).toHaveLength(1);
    const domains = await t.call({ method: 'GET', url: '/api/mail/domains' });
    expect((await list('?q=shop.test')).system).toEqual(['abuse@shop.test', 'postmaster@shop.test']);
    expect(domains.json()).toContainEqual({
      domain: 'shop.test',
      mailboxes: 0,
      aliases: 5,
      explicit: false,
      dkim: expect.any(Boolean),
      dnsZone: null,
      catchAll: false,
    });
  });

  it('re-imports its own export format (status column) and neutralises nothing server-side', async () => {
    const res = await importCsv(
      'source,destination,status\r\nexported@shop.test,box@example.com,disabled\r\n',
    );
    expect(res.json()).toMatchObject({ imported: 1, errors: [] });
    expect((await list('?q=exported')).items[0]!.status).toBe('disabled');
    const bad = await importCsv('source,destination,status\nst@shop.test,box@example.com,sleeping\n');
    expect(bad.json().errors).toEqual([{ row: 2, message: 'status: Status must be active or disabled' }]);
  });

  it('writes all valid rows or none: a failure mid-write leaves nothing behind', async () => {
    const before = (await list()).total;
    // A trigger makes the 3rd insert fail inside the import's transaction.
    const db = t.deps.database.db;
    const { sql } = await import('kysely');
    if (dialect === 'sqlite') {
      await sql`create trigger fail_import before insert on mail_aliases when new.source = 'boom@atomic.test' begin select raise(abort, 'boom'); end`.execute(
        db,
      );
    } else {
      await sql`create function fail_import() returns trigger language plpgsql as $$ begin if new.source = 'boom@atomic.test' then raise exception 'boom'; end if; return new; end $$`.execute(
        db,
      );
      await sql`create trigger fail_import before insert on mail_aliases for each row execute function fail_import()`.execute(
        db,
      );
    }
    const res = await importCsv(
      'source,destination\na1@atomic.test,box@example.com\na2@atomic.test,box@example.com\nboom@atomic.test,box@example.com\n',
    );
    expect(res.statusCode).toBe(500);
    await sql`drop trigger fail_import${dialect === 'postgres' ? sql` on mail_aliases` : sql``}`.execute(db);
    expect((await list()).total).toBe(before);
    expect((await list('?q=atomic.test')).items).toEqual([]);
    const domains = await t.call({ method: 'GET', url: '/api/mail/domains' });
    expect(domains.json().map((d: { domain: string }) => d.domain)).not.toContain('atomic.test');
  });

  it('refuses a CSV without the source/destination header, naming the problem', async () => {
    const res = await importCsv('from,to\na@b.com,c@d.com\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual({
      field: 'file',
      message: 'The CSV needs a header row with the columns source and destination',
    });
    const broken = await importCsv('source,destination\n"unterminated,box@example.com\n');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().details[0].field).toBe('file');
  });

  it('keeps the totals in step with the rows', async () => {
    const { total } = await list();
    const all = await list('?limit=1000');
    expect(total).toBe(all.items.length + all.system.length);
    const dash = await t.call({ method: 'GET', url: '/api/mail/dashboard' });
    expect(dash.json().totalAliases).toBe(total);
  });
});
