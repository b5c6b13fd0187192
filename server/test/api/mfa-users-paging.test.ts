import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

type User = { id: number; email: string; kind: string; mfaEnabled: boolean; lastMfaLogin: string | null };

const CONSOLE = 12;
const MAILBOX_ACCOUNTS = 9;
const MAILBOXES_ONLY = 23;
/** ADMIN, the console accounts, the mailbox accounts and the mailboxes that never signed in. */
const EVERYONE = 1 + CONSOLE + MAILBOX_ACCOUNTS + MAILBOXES_ONLY;

const pad = (i: number) => String(i).padStart(2, '0');

describe.each(dialects())('MFA users list: keyset paging, sort and search on %s', (dialect) => {
  let t: TestContext;
  const get = (url: string) => t.call({ method: 'GET', url });

  /** Follows X-Next-Cursor from the first page to the last. */
  async function walk(
    url: string,
  ): Promise<{ rows: User[]; pages: number; totals: Set<string>; last?: string }> {
    const rows: User[] = [];
    const totals = new Set<string>();
    let next: string | undefined;
    let last: string | undefined;
    let pages = 0;
    for (;;) {
      if (next) last = next;
      const res = await get(next ? `${url}&cursor=${next}` : url);
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json<User[]>());
      totals.add(String(res.headers['x-total-count']));
      pages += 1;
      expect(pages).toBeLessThan(100);
      next = res.headers['x-next-cursor'] as string | undefined;
      if (!next) return { rows, pages, totals, ...(last ? { last } : {}) };
    }
  }

  /** Follows X-Prev-Cursor back from a cursor page to the first. */
  async function walkBack(url: string, cursor: string): Promise<User[]> {
    const pages: User[][] = [];
    let prev: string | undefined = cursor;
    while (prev) {
      const res = await get(`${url}&cursor=${prev}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.unshift(res.json<User[]>());
      prev = res.headers['x-prev-cursor'] as string | undefined;
      expect(pages.length).toBeLessThan(100);
    }
    return pages.flat();
  }

  const cmp = (a: (string | number)[], b: (string | number)[]) => {
    for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return a[j]! < b[j]! ? -1 : 1;
    return 0;
  };
  function expectOrdered(rows: User[], key: (u: User) => (string | number)[], desc: boolean) {
    for (let i = 1; i < rows.length; i++) {
      const c = cmp(key(rows[i - 1]!), key(rows[i]!));
      expect(desc ? c > 0 : c < 0, `${rows[i - 1]!.email} then ${rows[i]!.email}`).toBe(true);
    }
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const db = t.deps.database.db;
    const now = new Date().toISOString();
    const mailboxRows = Array.from({ length: MAILBOX_ACCOUNTS + MAILBOXES_ONLY }, (_, i) => {
      const domain = i % 2 ? 'one.test' : 'two.test';
      // Two mailboxes share a local part with a console account: the same name, other addresses.
      const email = `${i < 2 ? 'ops' : `box${pad(i)}`}@${domain}`;
      return {
        email,
        domain,
        password_hash: 'x',
        quota: 0,
        status: 'active',
        maildir: `${domain}/${email}/`,
        created_at: now,
        updated_at: now,
      };
    });
    const boxes = await db.insertInto('mailboxes').values(mailboxRows).returning(['id', 'email']).execute();
    const accounts = await db
      .insertInto('admins')
      .values([
        ...Array.from({ length: CONSOLE }, (_, i) => ({
          email: `${i === 0 ? 'ops' : `console${pad(i)}`}@example.com`,
          password_hash: 'x',
          created_at: now,
          updated_at: now,
        })),
        ...boxes.slice(0, MAILBOX_ACCOUNTS).map((b) => ({
          email: b.email,
          password_hash: 'x',
          created_at: now,
          updated_at: now,
          mailbox_id: b.id,
        })),
      ])
      .returning(['id', 'email'])
      .execute();
    // Every third account has an active factor; sign-in times repeat (ties broken by address).
    const withMfa = accounts.filter((_, i) => i % 3 === 0);
    await db
      .insertInto('mfa_devices')
      .values(
        withMfa.map((a) => ({
          admin_id: a.id,
          device_name: 'Phone',
          device_type: 'TOTP',
          status: 'active',
          created_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('mfa_accounts')
      .values(
        withMfa.map((a, i) => ({ admin_id: a.id, last_mfa_login: `2026-11-0${(i % 3) + 1}T10:00:00.000Z` })),
      )
      .execute();
  });
  afterAll(async () => t.close());

  it('answers the first page with the total, and every row once over the pages', async () => {
    const first = await get('/api/mfa/users?limit=10');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<User[]>()).toHaveLength(10);
    expect(first.headers['x-total-count']).toBe(String(EVERYONE));
    expect(first.headers['x-prev-cursor']).toBeUndefined();
    const { rows, pages, totals, last } = await walk('/api/mfa/users?limit=7');
    expect(pages).toBe(Math.ceil(EVERYONE / 7));
    expect([...totals]).toEqual([String(EVERYONE)]);
    expect(rows).toHaveLength(EVERYONE);
    expect(new Set(rows.map((r) => `${r.kind}:${r.id}`)).size).toBe(EVERYONE);
    expect(rows.filter((r) => r.kind === 'console')).toHaveLength(1 + CONSOLE);
    expect(rows.filter((r) => r.kind === 'mailbox' && r.id < 0)).toHaveLength(MAILBOXES_ONLY);
    expect(rows.map((r) => r.email)).toContain(ADMIN.email);
    expectOrdered(rows, (u) => [u.email, u.id], false);
    // Back from the last page by X-Prev-Cursor: the same rows in the same order.
    expect(await walkBack('/api/mfa/users?limit=7', last!)).toEqual(rows);
  });

  it('offset pages agree with cursor pages', async () => {
    const all = (await walk('/api/mfa/users?limit=1000')).rows;
    const page3 = (await get('/api/mfa/users?limit=6&offset=12')).json<User[]>();
    expect(page3).toEqual(all.slice(12, 18));
  });

  for (const sort of ['email', '-email', 'lastMfaLogin', '-lastMfaLogin']) {
    it(`sorts by ${sort} on the server, across pages`, async () => {
      const desc = sort.startsWith('-');
      const { rows } = await walk(`/api/mfa/users?limit=5&sort=${sort}`);
      expect(rows).toHaveLength(EVERYONE);
      expect(new Set(rows.map((r) => r.id)).size).toBe(EVERYONE);
      const key = sort.endsWith('lastMfaLogin')
        ? (u: User) => [u.lastMfaLogin ?? '', u.email, u.id]
        : (u: User) => [u.email, u.id];
      expectOrdered(rows, key, desc);
      if (sort === '-lastMfaLogin') expect(rows[0]!.lastMfaLogin).toBe('2026-11-03T10:00:00.000Z');
    });
  }

  it('finds by address prefix (the name is the local part), paged', async () => {
    const { rows, totals } = await walk('/api/mfa/users?limit=2&q=OPS');
    expect(rows.map((r) => r.email).sort()).toEqual(['ops@example.com', 'ops@one.test', 'ops@two.test']);
    expect([...totals]).toEqual(['3']);
    const boxes = (await walk('/api/mfa/users?limit=4&q=box1')).rows;
    expect(boxes.map((r) => r.email).every((e) => e.startsWith('box1'))).toBe(true);
    expect(boxes).toHaveLength(10);
    const none = await get('/api/mfa/users?q=nobody');
    expect(none.json()).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
  });

  it('filters by MFA state on the server', async () => {
    const enabled = (await walk('/api/mfa/users?limit=3&mfa=enabled')).rows;
    const disabled = (await walk('/api/mfa/users?limit=3&mfa=disabled')).rows;
    expect(enabled.length).toBeGreaterThan(0);
    expect(enabled.every((u) => u.mfaEnabled)).toBe(true);
    expect(disabled.every((u) => !u.mfaEnabled)).toBe(true);
    expect(enabled.length + disabled.length).toBe(EVERYONE);
  });

  it('refuses a bad cursor, sort, limit or filter with a 400 naming the field', async () => {
    const field = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(400);
      return JSON.stringify(res.json());
    };
    expect(await field('/api/mfa/users?cursor=not-a-cursor')).toContain('cursor');
    const emailCursor = (await get('/api/mfa/users?limit=2')).headers['x-next-cursor'] as string;
    // A cursor of another order is refused, not misread.
    expect(await field(`/api/mfa/users?sort=lastMfaLogin&cursor=${emailCursor}`)).toContain('cursor');
    expect(await field(`/api/mfa/users?cursor=${emailCursor}&offset=4`)).toContain('offset');
    expect(await field('/api/mfa/users?sort=password')).toContain('sort');
    expect(await field('/api/mfa/users?limit=0')).toContain('limit');
    expect(await field('/api/mfa/users?mfa=maybe')).toContain('mfa');
  });
});
