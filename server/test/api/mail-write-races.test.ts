import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// Mail writes of one domain run side by side on PostgreSQL (see mail-write-locks.ts); these races
// prove what the locks keep true. On SQLite the same requests run one at a time.
describe.each(dialects())('mail writes racing on %s', (dialect) => {
  let t: TestContext;
  const post = (url: string, payload: Record<string, unknown>) =>
    t.call({ method: 'POST', url: `/api/${url}`, payload });
  const addAlias = (source: string, destination: string) => post('mail/aliases/add', { source, destination });
  const addBox = (email: string) => post('mail/users/add', { email, password: 'password-race-1' });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    expect((await post('mail/domains/add', { domain: 'race.test' })).statusCode).toBe(200);
    expect((await addBox('box@race.test')).statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  /** The domain's counters against its rows. */
  const counters = async (domain: string) => {
    const db = t.deps.database.db;
    const row = await db
      .selectFrom('mail_domains')
      .select(['mailbox_count', 'alias_count'])
      .where('domain', '=', domain)
      .executeTakeFirst();
    const count = async (table: 'mailboxes' | 'mail_aliases') =>
      Number(
        (
          await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)} where domain = ${domain}`.execute(db)
        ).rows[0]!.n,
      );
    return {
      counted: row ? { mailboxes: Number(row.mailbox_count), aliases: Number(row.alias_count) } : null,
      actual: { mailboxes: await count('mailboxes'), aliases: await count('mail_aliases') },
    };
  };

  it('keeps the counters exact under 60 parallel adds and removes of one domain', async () => {
    const adds = Array.from({ length: 40 }, (_, i) => `p${i}@race.test`);
    for (const a of adds.slice(0, 20)) expect((await addAlias(a, 'box@race.test')).statusCode).toBe(200);
    const results = await Promise.all([
      ...adds.slice(20).map((a) => addAlias(a, 'box@race.test')),
      ...adds.slice(0, 20).map((a) => post(`mail/aliases/remove/${encodeURIComponent(a)}`, {})),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 200));
    const c = await counters('race.test');
    expect(c.counted).toEqual(c.actual);
    expect(c.actual.aliases).toBeGreaterThanOrEqual(20);
  });

  it('lets one address become a mailbox or an alias, never both', async () => {
    // The mailbox create hashes its password before its transaction: alias adds of the same
    // address start every 3 ms so that some land inside that transaction.
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0; i < 6; i++) {
      const address = `clash${i}@race.test`;
      const [box, ...aliases] = await Promise.all([
        addBox(address),
        ...Array.from({ length: 30 }, (_, k) => sleep(k * 3).then(() => addAlias(address, 'box@race.test'))),
      ]);
      const codes = [box, ...aliases].map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c !== 200 && c !== 409)).toEqual([]);
      const db = t.deps.database.db;
      const boxes = await db.selectFrom('mailboxes').select('email').where('email', '=', address).execute();
      const rows = await db
        .selectFrom('mail_aliases')
        .select('source')
        .where('source', '=', address)
        .execute();
      expect(boxes.length + rows.length).toBe(1);
    }
    const c = await counters('race.test');
    expect(c.counted).toEqual(c.actual);
  });

  it('refuses the second of two aliases that close a loop only together', async () => {
    // Committed: b→c and d→a. Then a→b and c→d at once: each alone ends somewhere, both make
    // the loop a→b→c→d→a, which neither's check can see while the other is uncommitted.
    for (let i = 0; i < 8; i++) {
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x) => `${x}${i}@race.test`) as [
        string,
        string,
        string,
        string,
      ];
      expect((await addAlias(b, c)).statusCode).toBe(200);
      expect((await addAlias(d, a)).statusCode).toBe(200);
      const [ab, cd] = await Promise.all([addAlias(a, b), addAlias(c, d)]);
      const codes = [ab.statusCode, cd.statusCode].sort();
      expect(codes).toEqual([200, 400]);
      const refused = ab.statusCode === 400 ? ab : cd;
      expect(refused.json<{ field: string; message: string }>().message).toMatch(/loop/i);
    }
  });

  it('never leaves an alias without its domain when the domain is removed at the same time', async () => {
    for (let i = 0; i < 4; i++) {
      const domain = `gone${i}.test`;
      expect((await post('mail/domains/add', { domain })).statusCode).toBe(200);
      const [removed, added] = await Promise.all([
        post(`mail/domains/remove/${domain}`, {}),
        addAlias(`x@${domain}`, 'box@race.test'),
      ]);
      // Exactly one wins: the domain went and the alias was refused, or the alias kept the domain.
      expect([removed.statusCode, added.statusCode].sort()).toEqual(
        removed.statusCode === 200 ? [200, 400] : [200, 409],
      );
      const c = await counters(domain);
      if (removed.statusCode === 200) expect(c.actual).toEqual({ mailboxes: 0, aliases: 0 });
      else expect(c.counted).toEqual(c.actual);
      expect(c.counted === null).toBe(removed.statusCode === 200);
    }
  });
});
