import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../../../test/harness.ts';
import { listAliases } from './aliases/alias.service.ts';
import { countIntoDomains } from './domains/domain.service.ts';
import { listMailboxes } from './mailboxes/mailbox.service.ts';

// Pages are read forwards, from the far end of the index, or from disjoint search branches:
// whichever way, every page must be the slice of the one full ordering.
const MAILBOXES = 23;
const ALIASES = 29;
const domainOf = (i: number) => (i % 3 === 0 ? 'one.test' : i % 3 === 1 ? 'two.test' : 'onex.test');

describe.each(dialects())('mail list paging (%s)', (dialect) => {
  let t: TestContext;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const db = t.deps.database.db;
    const now = new Date(Date.UTC(2026, 0, 1)).toISOString();
    const counts = new Map<string, { mailboxes: number; aliases: number }>();
    const bump = (d: string, k: 'mailboxes' | 'aliases') => {
      const e = counts.get(d) ?? { mailboxes: 0, aliases: 0 };
      e[k]++;
      counts.set(d, e);
    };
    for (let i = 0; i < MAILBOXES; i++) {
      // Some addresses start like a domain ("one…"), so both search branches match them.
      const email = `${i % 4 === 0 ? 'one' : 'box'}${String(i).padStart(2, '0')}@${domainOf(i)}`;
      await db
        .insertInto('mailboxes')
        .values({
          email,
          domain: domainOf(i),
          password_hash: 'x',
          quota: (i % 5) * 1024 * 1024,
          status: i % 6 === 0 ? 'suspended' : 'active',
          maildir: `${domainOf(i)}/${i}/`,
          created_at: new Date(Date.parse(now) + (i % 7) * 1000).toISOString(),
          updated_at: now,
        })
        .execute();
      if (i % 2 === 0)
        await db
          .insertInto('mail_quota_usage')
          .values({ username: email, bytes: (i % 9) * 1000, messages: 1 })
          .execute();
      bump(domainOf(i), 'mailboxes');
    }
    for (let i = 0; i < ALIASES; i++) {
      await db
        .insertInto('mail_aliases')
        .values({
          source: `${i % 5 === 0 ? 'one' : 'al'}${String(i).padStart(2, '0')}@${domainOf(i)}`,
          domain: domainOf(i),
          destination: `dest${i % 4}@elsewhere.test`,
          status: i % 3 === 0 ? 'disabled' : 'active',
          created_at: now,
          updated_at: now,
        })
        .execute();
      bump(domainOf(i), 'aliases');
    }
    await countIntoDomains(db, counts);
  });

  afterAll(async () => {
    await t.close();
  });

  const mailboxSorts = ['email', 'quota', 'used', 'usage', 'status', 'createdAt'] as const;
  const aliasSorts = ['source', 'destination', 'status'] as const;

  it.each([undefined, 'one', 'ONE.test', 'box1', 'nothing'])(
    'mailboxes: every page is a slice of the full list (q=%s)',
    async (q) => {
      const db = t.deps.database.db;
      for (const field of mailboxSorts) {
        for (const sort of [field, `-${field}` as const]) {
          const full = await listMailboxes(db, { q, sort, limit: 1000, offset: 0 });
          if (q === undefined) expect(full.total).toBe(MAILBOXES);
          if (q) {
            const p = q.toLowerCase();
            const want = full.items.filter(
              (m) => m.email.startsWith(p) || m.email.split('@')[1]!.startsWith(p),
            );
            expect(full.items).toEqual(want);
          }
          expect(full.total).toBe(full.items.length);
          for (let offset = 0; offset <= full.total + 2; offset += 4) {
            const page = await listMailboxes(db, { q, sort, limit: 4, offset });
            expect(page.total).toBe(full.total);
            expect(page.items, `${sort} at ${offset}`).toEqual(full.items.slice(offset, offset + 4));
          }
        }
      }
    },
  );

  it('mailboxes: a domain search finds every address of the domain and those starting like it', async () => {
    const db = t.deps.database.db;
    const page = await listMailboxes(db, { q: 'one', limit: 1000, offset: 0 });
    const expected = new Set<string>();
    for (let i = 0; i < MAILBOXES; i++) {
      const email = `${i % 4 === 0 ? 'one' : 'box'}${String(i).padStart(2, '0')}@${domainOf(i)}`;
      if (email.startsWith('one') || domainOf(i).startsWith('one')) expected.add(email);
    }
    expect(new Set(page.items.map((m) => m.email))).toEqual(expected);
    expect(page.total).toBe(expected.size);
  });

  it.each([undefined, 'one', 'dest1', 'two.test'])(
    'aliases: every page is a slice of the full list (q=%s)',
    async (q) => {
      const db = t.deps.database.db;
      for (const field of aliasSorts) {
        for (const sort of [field, `-${field}` as const]) {
          const full = await listAliases(db, { q, sort, limit: 1000, offset: 0 });
          // …plus postmaster@ and abuse@ of each of the three domains (system aliases).
          if (q === undefined) expect(full.total).toBe(ALIASES + 2 * 3);
          expect(full.total).toBe(full.items.length);
          for (let offset = 0; offset <= full.total + 2; offset += 4) {
            const page = await listAliases(db, { q, sort, limit: 4, offset });
            expect(page.total).toBe(full.total);
            expect(page.items, `${sort} at ${offset}`).toEqual(full.items.slice(offset, offset + 4));
          }
        }
      }
    },
  );
});
