import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

type Box = { email: string; domain: string; status: string; quota: number };

describe.each(dialects())('mail screens API on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const post = (url: string, payload?: unknown) =>
    t.call({
      method: 'POST',
      url: `/api/${url}`,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const get = (url: string) => t.call({ method: 'GET', url: `/api/${url}` });
  const csv = (url: string, body: string) =>
    t.call({ method: 'POST', url: `/api/${url}`, headers: { 'content-type': 'text/csv' }, payload: body });
  const boxes = async (qs = '') => (await get(`mail/users${qs}`)).json<Box[]>();
  const domains = async () =>
    (await get('mail/domains')).json<
      { domain: string; mailboxes: number; aliases: number; catchAll: boolean }[]
    >();

  it('refuses a mailbox or alias for an unknown domain naming the field, then creates it deliberately', async () => {
    const refused = await post('mail/users/add', { email: 'ann@typo-domain.test', password: 'password-ann' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([
      {
        field: 'email',
        message:
          'typo-domain.test is not a mail domain yet: add it under Mail → Domains, or choose to create it',
      },
    ]);
    const alias = await post('mail/aliases/add', {
      source: 'x@typo-domain.test',
      destination: 'a@example.org',
    });
    expect(alias.statusCode).toBe(400);
    expect(alias.json().details[0].field).toBe('source');
    expect((await domains()).map((d) => d.domain)).not.toContain('typo-domain.test');

    const made = await post('mail/users/add', {
      email: 'ann@new-domain.test',
      password: 'password-ann',
      createDomain: true,
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(await domains()).toContainEqual(
      expect.objectContaining({ domain: 'new-domain.test', mailboxes: 1 }),
    );
    // A known domain needs no flag; nor does one added on the Domains screen.
    expect(
      (await post('mail/users/add', { email: 'bob@new-domain.test', password: 'password-bob' })).statusCode,
    ).toBe(200);
    expect((await post('mail/domains/add', { domain: 'second.test' })).statusCode).toBe(200);
    expect(
      (await post('mail/users/add', { email: 'cat@second.test', password: 'password-cat' })).statusCode,
    ).toBe(200);
    // An audit line says the domain was created on purpose.
    const audit = (await get('audit?action=mail.mailbox.create')).json().entries as {
      target: string;
      details: unknown;
    }[];
    expect(JSON.stringify(audit.find((e) => e.target === 'ann@new-domain.test'))).toContain('createDomain');
  });

  it('filters mailboxes by domain and status and sorts by domain, by offset and by cursor', async () => {
    const byDomain = await get('mail/users?domain=new-domain.test');
    expect(byDomain.headers['x-total-count']).toBe('2');
    expect(byDomain.json().map((b: Box) => b.email)).toEqual(['ann@new-domain.test', 'bob@new-domain.test']);
    expect(byDomain.json()[0].domain).toBe('new-domain.test');
    const sorted = (await boxes('?sort=-domain')).map((b) => b.domain);
    expect(sorted).toEqual([...sorted].sort().reverse());
    const first = await get('mail/users?sort=domain&limit=1');
    const next = await get(
      `mail/users?sort=domain&limit=1&cursor=${first.headers['x-next-cursor'] as string}`,
    );
    expect(next.json()[0].email).not.toBe(first.json()[0].email);
    expect((await get('mail/users?domain=not a domain')).statusCode).toBe(400);
  });

  it('suspends, resumes and deletes a selection in one audited transaction; one unknown address changes nothing', async () => {
    const sel = ['ann@new-domain.test', 'bob@new-domain.test'];
    const bad = await post('mail/users/bulk', {
      action: 'suspend',
      emails: [...sel, 'ghost@new-domain.test'],
    });
    expect(bad.statusCode).toBe(404 === bad.statusCode ? 404 : 400);
    expect(bad.json().details[0]).toMatchObject({ field: 'emails' });
    expect((await boxes('?domain=new-domain.test')).map((b) => b.status)).toEqual(['active', 'active']);

    const suspended = await post('mail/users/bulk', { action: 'suspend', emails: sel });
    expect(suspended.json()).toEqual({ success: true, changed: 2 });
    expect((await boxes('?domain=new-domain.test&status=suspended')).length).toBe(2);
    expect((await get('mail/users?domain=new-domain.test&status=suspended')).headers['x-total-count']).toBe(
      '2',
    );
    expect((await post('mail/users/bulk', { action: 'resume', emails: sel })).json().changed).toBe(2);
    expect((await boxes('?status=suspended')).length).toBe(0);

    const audit = (await get('audit?action=mail.mailbox.bulk')).json().entries as {
      target: string;
      details: unknown;
    }[];
    // The refused call is logged as a failure; the two changes as successes.
    expect(audit.filter((e) => (e as { outcome?: string }).outcome === 'success').length).toBe(2);
    expect(JSON.stringify(audit)).toContain('bob@new-domain.test');

    const gone = await post('mail/users/bulk', { action: 'delete', emails: sel });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().changed).toBe(2);
    expect(await boxes('?domain=new-domain.test')).toEqual([]);
    // The domain had only these mailboxes (and its system aliases): it went with them.
    expect((await domains()).map((d) => d.domain)).not.toContain('new-domain.test');
    expect((await post('mail/users/bulk', { action: 'explode', emails: sel })).statusCode).toBe(400);
    expect((await post('mail/users/bulk', { action: 'delete', emails: [] })).statusCode).toBe(400);
  });

  it('deletes a selection of aliases in one audited transaction; an unknown or required alias changes nothing', async () => {
    expect((await post('mail/domains/add', { domain: 'bulk-alias.test' })).statusCode).toBe(200);
    for (const s of ['a1@bulk-alias.test', 'a2@bulk-alias.test', '@bulk-alias.test'])
      expect((await post('mail/aliases/add', { source: s, destination: 'x@example.org' })).statusCode).toBe(
        200,
      );
    const listed = async () =>
      (await get('mail/aliases?q=bulk-alias.test&limit=100'))
        .json<{ source: string }[]>()
        .map((a) => a.source);
    const sel = ['a1@bulk-alias.test', 'A2@bulk-alias.test', '@bulk-alias.test'];
    const unknown = await post('mail/aliases/bulk-remove', { sources: [...sel, 'ghost@bulk-alias.test'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0]).toMatchObject({
      field: 'sources',
      message: expect.stringContaining('ghost@'),
    });
    const required = await post('mail/aliases/bulk-remove', {
      sources: [...sel, 'postmaster@bulk-alias.test'],
    });
    expect(required.statusCode).toBe(400);
    expect(required.json().details[0].message).toContain('postmaster@bulk-alias.test is a required address');
    expect(await listed()).toEqual(expect.arrayContaining(['a1@bulk-alias.test', '@bulk-alias.test']));

    const gone = await post('mail/aliases/bulk-remove', { sources: sel });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ success: true, removed: 3 });
    // Only the required addresses stay; the domain was added on purpose, so it stays too.
    expect((await listed()).sort()).toEqual(['abuse@bulk-alias.test', 'postmaster@bulk-alias.test']);
    expect(await domains()).toContainEqual(
      expect.objectContaining({ domain: 'bulk-alias.test', catchAll: false }),
    );
    const audit = (await get('audit?action=mail.alias.bulk-remove')).json().entries as { target: string }[];
    expect(audit.map((e) => e.target)).toContain('3 aliases');
    expect((await post('mail/aliases/bulk-remove', { sources: [] })).statusCode).toBe(400);
    expect((await post('mail/aliases/bulk-remove', { sources: ['not an address'] })).statusCode).toBe(400);
  });

  it('bulk-creates mailboxes from CSV with a dry run, per-row results and a create-missing-domains option', async () => {
    const file = [
      'email,password,quota',
      'one@second.test,password-one,100', // 2 ok
      'two@second.test,short,', // 3 password too short
      'cat@second.test,password-cat,', // 4 exists
      ',password-x,', // 5 skipped
      'new@fresh-domain.test,password-new,', // 6 unknown domain (unless asked)
      'one@second.test,password-one,', // 7 duplicate
      'bad,password-bad,', // 8 invalid
      'big@second.test,password-big,99999999', // 9 above max quota
    ].join('\n');
    const dry = await csv('mail/users/import?dryRun=1', file);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toEqual({
      imported: 1,
      skipped: 1,
      dryRun: true,
      newDomains: [],
      errors: [
        { row: 3, message: 'password: Password must be at least 8 characters' },
        { row: 4, message: 'email: A mailbox cat@second.test already exists' },
        {
          row: 6,
          message:
            'email: fresh-domain.test is not a mail domain yet: add it under Mail → Domains, or choose to create it',
        },
        { row: 7, message: 'email: one@second.test appears more than once (first on row 2)' },
        { row: 8, message: 'email: Please enter a valid email address' },
        { row: 9, message: 'quota: Quota must be at most 10000 MB (Max Quota)' },
      ],
    });
    expect(await boxes('?q=one@')).toEqual([]);
    const dryCreate = await csv('mail/users/import?dryRun=1&createDomains=1', file);
    expect(dryCreate.json()).toMatchObject({ imported: 2, newDomains: ['fresh-domain.test'] });
    expect((await domains()).map((d) => d.domain)).not.toContain('fresh-domain.test');

    const real = await csv('mail/users/import?createDomains=1', file);
    expect(real.json()).toMatchObject({ imported: 2, dryRun: false, newDomains: ['fresh-domain.test'] });
    expect((await boxes('?q=one@')).map((b) => [b.email, b.quota])).toEqual([
      ['one@second.test', 100 * 1024 * 1024],
    ]);
    // An empty quota takes the settings' Default Quota (1000 MB).
    expect((await boxes('?q=new@')).map((b) => b.quota)).toEqual([1000 * 1024 * 1024]);
    expect(await domains()).toContainEqual(
      expect.objectContaining({ domain: 'fresh-domain.test', mailboxes: 1 }),
    );
    const hash = await t.deps.database.db
      .selectFrom('mailboxes')
      .select('password_hash')
      .where('email', '=', 'one@second.test')
      .executeTakeFirstOrThrow();
    expect(hash.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$/);
    expect((await csv('mail/users/import', 'mail,pass\nx@second.test,password-x\n')).statusCode).toBe(400);
  });

  it('accepts a catch-all alias @domain, shows it as such, and still refuses loops through it', async () => {
    const made = await post('mail/aliases/add', { source: '@second.test', destination: 'cat@second.test' });
    expect(made.statusCode, made.body).toBe(200);
    expect((await get('mail/aliases?q=@second')).json()).toContainEqual({
      source: '@second.test',
      destination: 'cat@second.test',
      status: 'active',
      system: false,
    });
    expect(await domains()).toContainEqual(
      expect.objectContaining({ domain: 'second.test', catchAll: true }),
    );
    const again = await post('mail/aliases/add', { source: '@SECOND.test', destination: 'one@second.test' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A catch-all alias for @second.test already exists');
    // @fresh-domain.test → nobody@second.test (no mailbox: falls to @second.test) → back: a loop.
    expect(
      (await post('mail/aliases/update/@second.test', { destination: 'nobody@fresh-domain.test' }))
        .statusCode,
    ).toBe(200);
    const loop = await post('mail/aliases/add', {
      source: '@fresh-domain.test',
      destination: 'nobody@second.test',
    });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().details[0]).toEqual({
      field: 'destination',
      message:
        'This alias would create a loop: @fresh-domain.test → nobody@second.test → @second.test → nobody@fresh-domain.test → @fresh-domain.test',
    });
    // To a mailbox it is fine; a catch-all of an unknown domain is refused like any alias.
    expect(
      (await post('mail/aliases/add', { source: '@fresh-domain.test', destination: 'new@fresh-domain.test' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post('mail/aliases/add', { source: '@unknown.test', destination: 'cat@second.test' }))
        .statusCode,
    ).toBe(400);
    expect((await post('mail/aliases/add', { source: '@', destination: 'cat@second.test' })).statusCode).toBe(
      400,
    );
    // The import takes catch-alls too.
    const imp = await csv(
      'mail/aliases/import?dryRun=1',
      'source,destination\n@second.test,x@example.org\n@other.test,x@example.org\n',
    );
    expect(imp.json().errors.map((e: { row: number }) => e.row)).toEqual([2, 3]);
    expect(imp.json().errors[0].message).toContain('already exists');
    expect(imp.json().errors[1].message).toContain('other.test is not a mail domain yet');
    expect((await post('mail/aliases/remove/@second.test')).statusCode).toBe(200);
  });

  it('removes a domain only when empty', async () => {
    expect((await post('mail/domains/remove/second.test')).statusCode).toBe(409);
    expect((await post('mail/domains/add', { domain: 'empty.test' })).statusCode).toBe(200);
    expect((await post('mail/domains/remove/empty.test')).statusCode).toBe(200);
  });
});
