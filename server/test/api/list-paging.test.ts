import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_CAP } from '@mailroom/contract/common';
import { countIntoDomain, countOutOfDomain } from '../../src/features/mail/domains/domain.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

type Row = Record<string, unknown>;

interface Walk {
  rows: Row[];
  pages: number;
}

/** Destinations repeat (ties) so the unique tie-breaker decides the order inside a group. */
const aliasRow = (i: number) => ({
  source: `a${String(i).padStart(3, '0')}@example.com`,
  destination: `d${i % 4}@example.org`,
  status: i % 3 === 0 ? 'disabled' : 'active',
});

describe.each(dialects())('keyset paging, ETags and exports on %s', (dialect) => {
  let t: TestContext;
  const db = () => t.deps.database.db;
  const get = (url: string, headers: Record<string, string> = {}) => t.call({ method: 'GET', url, headers });

  const insertAliases = async (rows: { source: string; destination: string; status: string }[]) => {
    const now = new Date().toISOString();
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('mail_aliases')
          .values(
            rows.map((r) => ({ ...r, domain: r.source.split('@')[1]!, created_at: now, updated_at: now })),
          )
          .execute();
        await countIntoDomain(trx, 'example.com', { aliases: rows.length });
      });
  };
  const deleteAlias = async (source: string) => {
    await db()
      .transaction()
      .execute(async (trx) => {
        const n = await trx.deleteFrom('mail_aliases').where('source', '=', source).executeTakeFirst();
        if (Number(n.numDeletedRows)) await countOutOfDomain(trx, 'example.com', { aliases: 1 });
      });
  };

  /** Follows X-Next-Cursor from the first page; `between` runs after each page. */
  async function walk(url: string, between?: (page: number) => Promise<void>): Promise<Walk> {
    const rows: Row[] = [];
    let next: string | undefined;
    let pages = 0;
    for (;;) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(next ? `${url}${sep}cursor=${next}` : url);
      expect(res.statusCode, res.body).toBe(200);
      rows.push(...res.json<Row[]>());
      pages += 1;
      expect(pages).toBeLessThan(100);
      next = res.headers['x-next-cursor'] as string | undefined;
      if (!next) return { rows, pages };
      await between?.(pages);
    }
  }

  /** Follows X-Prev-Cursor back from the given cursor page to the first. */
  async function walkBack(url: string, cursor: string): Promise<Row[]> {
    const pages: Row[][] = [];
    let prev: string | undefined = cursor;
    while (prev) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(`${url}${sep}cursor=${prev}`);
      expect(res.statusCode, res.body).toBe(200);
      pages.unshift(res.json<Row[]>());
      prev = res.headers['x-prev-cursor'] as string | undefined;
      expect(pages.length).toBeLessThan(100);
    }
    return pages.flat();
  }

  /** Strict order by (sort key, tie key), bytewise as both databases compare addresses. */
  function expectOrdered(rows: Row[], key: (r: Row) => (string | number)[], desc: boolean) {
    for (let i = 1; i < rows.length; i++) {
      const a = key(rows[i - 1]!);
      const b = key(rows[i]!);
      let cmp = 0;
      for (let j = 0; j < a.length && cmp === 0; j++) cmp = a[j]! < b[j]! ? -1 : a[j]! > b[j]! ? 1 : 0;
      expect(desc ? cmp > 0 : cmp < 0, `${JSON.stringify(a)} then ${JSON.stringify(b)}`).toBe(true);
    }
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  describe('aliases', () => {
    beforeAll(async () => {
      await insertAliases(Array.from({ length: 47 }, (_, i) => aliasRow(i * 2)));
    });

    for (const sort of ['source', 'destination', 'status', '-source', '-destination', '-status']) {
      it(`walks every alias once in ${sort} order, with inserts and deletes between pages`, async () => {
        const field = sort.replace(/^-/, '');
        const before = new Set(
          (await walk(`/api/mail/aliases?sort=${sort}&limit=1000`)).rows.map((r) => r.source as string),
        );
        const inserted: string[] = [];
        const deleted: string[] = [];
        const { rows, pages } = await walk(`/api/mail/aliases?sort=${sort}&limit=7`, async (page) => {
          // A new row at each end and one in the middle, and one existing row removed.
          const n = 1000 + page;
          const fresh = [aliasRow(n), { ...aliasRow(n + 50), source: `zz${n}@example.com` }];
          await insertAliases(fresh);
          inserted.push(...fresh.map((f) => f.source));
          const victim = [...before].filter((s) => !deleted.includes(s))[(page * 5) % before.size];
          if (victim) {
            await deleteAlias(victim);
            deleted.push(victim);
          }
        });
        expect(pages).toBeGreaterThan(5);
        const seen = rows.map((r) => r.source as string);
        expect(new Set(seen).size).toBe(seen.length);
        // Every row present for the whole walk was seen; nothing deleted before the walk reached it
        // was invented.
        for (const s of before) if (!deleted.includes(s)) expect(seen).toContain(s);
        expectOrdered(
          rows,
          (r) => (field === 'source' ? [r.source as string] : [r[field] as string, r.source as string]),
          sort.startsWith('-'),
        );
        // Clean up so each sort starts from the same table.
        for (const s of inserted) await deleteAlias(s);
        await insertAliases(deleted.map((s) => aliasRow(Number(s.slice(1, 4)))));
      });
    }

    it('walks back with X-Prev-Cursor to the same rows, and pages by offset give the same order', async () => {
      const all = (await walk('/api/mail/aliases?sort=-destination&limit=1000')).rows;
      const last = await get('/api/mail/aliases?sort=-destination&limit=5&offset=45');
      expect(last.headers['x-next-cursor']).toBeUndefined();
      const lastRows = last.json<Row[]>();
      expect(lastRows).toEqual(all.slice(45));
      const back = await walkBack(
        '/api/mail/aliases?sort=-destination&limit=5',
        last.headers['x-prev-cursor'] as string,
      );
      expect([...back, ...lastRows]).toEqual(all);
      const first = await get('/api/mail/aliases?sort=-destination&limit=5');
      expect(first.headers['x-prev-cursor']).toBeUndefined();
      expect(first.headers['x-total-count']).toBe(String(all.length));
    });

    it('pages a search and a status filter by cursor', async () => {
      const all = (await walk('/api/mail/aliases?q=d2&sort=source&limit=1000')).rows;
      expect(all.length).toBeGreaterThan(5);
      expect((await walk('/api/mail/aliases?q=d2&sort=source&limit=3')).rows).toEqual(all);
      const disabled = (await walk('/api/mail/aliases?status=disabled&sort=destination&limit=1000')).rows;
      expect((await walk('/api/mail/aliases?status=disabled&sort=destination&limit=4')).rows).toEqual(
        disabled,
      );
      expect(disabled.every((r) => r.status === 'disabled')).toBe(true);
    });

    it('a search matching by source, domain and destination lists each match once, in every order', async () => {
      // "ex" starts example.com (every row's domain), two sources and one destination of another domain.
      const extra = [
        { source: 'ex1@example.com', destination: 'd1@example.org', status: 'active' },
        { source: 'q1@example.com', destination: 'ex-both@example.org', status: 'active' },
        { source: 'exa@other.net', destination: 'ex-list@example.org', status: 'disabled' },
        { source: 'zz@other.net', destination: 'ex-team@example.org', status: 'active' },
        { source: 'yy@other.net', destination: 'nobody@example.org', status: 'active' },
      ];
      const now = new Date().toISOString();
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('mail_aliases')
            .values(
              extra.map((r) => ({ ...r, domain: r.source.split('@')[1]!, created_at: now, updated_at: now })),
            )
            .execute();
          await countIntoDomain(trx, 'example.com', { aliases: 2 });
          await countIntoDomain(trx, 'other.net', { aliases: 3 });
        });
      try {
        const everything = (await walk('/api/mail/aliases?sort=source&limit=1000')).rows;
        const q = 'ex';
        const matches = everything.filter((r) =>
          [r.source as string, (r.source as string).split('@')[1]!, r.destination as string].some((v) =>
            v.startsWith(q),
          ),
        );
        expect(matches.map((r) => r.source)).toContain('zz@other.net');
        expect(matches.map((r) => r.source)).not.toContain('yy@other.net');
        for (const sort of ['source', '-destination', 'status']) {
          const field = sort.replace(/^-/, '');
          const byKey = (r: Row) =>
            field === 'source' ? [r.source as string] : [r[field] as string, r.source as string];
          const want = [...matches].sort((a, b) => {
            const [x, y] = [byKey(a), byKey(b)];
            for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
            return 0;
          });
          if (sort.startsWith('-')) want.reverse();
          expect((await walk(`/api/mail/aliases?q=${q}&sort=${sort}&limit=3`)).rows, sort).toEqual(want);
          const page = await get(`/api/mail/aliases?q=${q}&sort=${sort}&limit=4&offset=5`);
          expect(page.json<Row[]>(), sort).toEqual(want.slice(5, 9));
          expect(page.headers['x-total-count']).toBe(String(want.length));
        }
      } finally {
        for (const r of extra) await deleteAlias(r.source);
      }
    });

    it('a search matching more than the count cap says so, and still pages every match', async () => {
      const extra = Array.from({ length: TOTAL_CAP + 40 }, (_, i) => ({
        source: `cap${String(i).padStart(5, '0')}@example.com`,
        destination: `d${i % 4}@example.org`,
        status: 'active',
      }));
      for (let i = 0; i < extra.length; i += 1000) await insertAliases(extra.slice(i, i + 1000));
      try {
        // "example.c" matches every row of example.com by its domain: the dense branch.
        const everything = (await walk('/api/mail/aliases?sort=source&limit=1000')).rows.filter((r) =>
          (r.source as string).endsWith('@example.com'),
        );
        const first = await get('/api/mail/aliases?q=example.c&sort=source&limit=25');
        expect(first.headers['x-total-count']).toBe(String(TOTAL_CAP));
        expect(first.headers['x-total-capped']).toBe('true');
        expect(first.json<Row[]>()).toEqual(everything.slice(0, 25));
        const deep = await get(`/api/mail/aliases?q=example.c&sort=source&limit=25&offset=${TOTAL_CAP - 10}`);
        expect(deep.json<Row[]>()).toEqual(everything.slice(TOTAL_CAP - 10, TOTAL_CAP + 15));
        expect(deep.headers['x-next-cursor']).toBeDefined();
        expect((await walk('/api/mail/aliases?q=example.c&sort=source&limit=1000')).rows).toEqual(everything);
        const few = await get('/api/mail/aliases?q=cap0000&sort=source');
        expect(few.headers['x-total-count']).toBe('10');
        expect(few.headers['x-total-capped']).toBeUndefined();
      } finally {
        await db()
          .transaction()
          .execute(async (trx) => {
            await trx.deleteFrom('mail_aliases').where('source', 'like', 'cap%').execute();
            await countOutOfDomain(trx, 'example.com', { aliases: extra.length });
          });
      }
    });

    it('refuses a bad cursor with a 400 naming the field', async () => {
      const next = (await get('/api/mail/aliases?sort=source&limit=2')).headers['x-next-cursor'] as string;
      const bad = [
        'not-a-cursor',
        Buffer.from('[1,2]').toString('base64url'),
        Buffer.from('["source",1,[5]]').toString('base64url'),
        'abc!def',
        '',
      ];
      for (const c of bad) {
        const res = await get(`/api/mail/aliases?sort=source&cursor=${encodeURIComponent(c)}`);
        expect(res.statusCode, c).toBe(400);
        expect(res.json<{ details: { field: string }[] }>().details[0]?.field).toBe('cursor');
      }
      // A cursor of another sort is not a position in this one.
      const other = await get(`/api/mail/aliases?sort=destination&cursor=${next}`);
      expect(other.statusCode).toBe(400);
      expect(other.json<{ details: { field: string }[] }>().details[0]?.field).toBe('cursor');
      const both = await get(`/api/mail/aliases?sort=source&cursor=${next}&offset=4`);
      expect(both.statusCode).toBe(400);
      expect(both.json<{ details: { field: string }[] }>().details[0]?.field).toBe('offset');
    });
  });

  describe('mailboxes', () => {
    beforeAll(async () => {
      const now = Date.now();
      const rows = Array.from({ length: 33 }, (_, i) => ({
        email: `m${String(i).padStart(2, '0')}@example.net`,
        domain: 'example.net',
        password_hash: '{ARGON2ID}x',
        quota: [0, 1000, 2000][i % 3]!,
        status: i % 4 === 0 ? 'suspended' : 'active',
        maildir: `example.net/m${i}/`,
        created_at: new Date(now - (i % 5) * 1000).toISOString(),
        updated_at: new Date(now).toISOString(),
      }));
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('mailboxes').values(rows).execute();
          await trx
            .insertInto('mail_quota_usage')
            .values(
              rows
                .filter((_, i) => i % 2 === 0)
                .map((r, i) => ({ username: r.email, bytes: (i % 4) * 250, messages: 1 })),
            )
            .execute();
          await countIntoDomain(trx, 'example.net', { mailboxes: rows.length });
        });
    });

    const sorts = ['email', 'quota', 'used', 'usage', 'status', 'createdAt'];
    for (const sort of [...sorts, ...sorts.map((s) => `-${s}`)]) {
      it(`walks every mailbox once in ${sort} order, the same order offsets give`, async () => {
        const byOffset = (await get(`/api/mail/users?sort=${sort}&limit=1000`)).json<Row[]>();
        expect(byOffset).toHaveLength(33);
        const { rows } = await walk(`/api/mail/users?sort=${sort}&limit=4`);
        expect(rows).toEqual(byOffset);
        const field = sort.replace(/^-/, '');
        const key = (r: Row): (string | number)[] => {
          const used = r.used as number;
          const quota = r.quota as number;
          const v = field === 'usage' ? (quota > 0 ? used / quota : 0) : (r[field] as string | number);
          return field === 'email' ? [r.email as string] : [v, r.email as string];
        };
        expectOrdered(rows, key, sort.startsWith('-'));
      });
    }
  });

  describe('DNS records', () => {
    beforeAll(async () => {
      for (const domain of ['b.example', 'a.example']) {
        const res = await t.call({
          method: 'POST',
          url: '/api/dns/zones/add',
          payload: zoneForm(domain),
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const rows = Array.from({ length: 40 }, (_, i) => ({
        zone: i % 2 ? 'a.example' : 'b.example',
        qname: `h${i % 7}`,
        rtype: i % 3 ? 'A' : 'MX',
        value: i % 3 ? `192.0.2.${i}` : `mx${i}.example.net`,
        ttl: 300 * (1 + (i % 4)),
        priority: i % 3 ? null : i,
        weight: null,
        port: null,
      }));
      await db().insertInto('dns_records').values(rows).execute();
    });

    for (const sort of ['', 'ttl', '-priority', 'name']) {
      it(`walks every record once in ${sort || 'the default'} order`, async () => {
        const base = `/api/dns/records?${sort ? `sort=${sort}&` : ''}`;
        const byOffset = (await get(`${base}limit=1000`)).json<Row[]>();
        expect(byOffset.length).toBeGreaterThanOrEqual(40);
        const { rows } = await walk(`${base}limit=6`);
        expect(rows).toEqual(byOffset);
        expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      });
    }
  });

  describe('conditional list reads', () => {
    it('answers 304 while nothing changed and a new tag after a change', async () => {
      const url = '/api/mail/aliases?sort=source&limit=5';
      const first = await get(url);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      // Another page has another tag.
      expect((await get(`${url}&offset=5`)).headers.etag).not.toBe(etag);
      const add = await t.call({
        method: 'POST',
        url: '/api/mail/aliases/add',
        payload: { createDomain: true, source: 'etag@example.com', destination: 'x@example.org' },
      });
      expect(add.statusCode, add.body).toBe(200);
      const changed = await get(url, { 'if-none-match': etag });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect((await get(url, { 'if-none-match': changed.headers.etag as string })).statusCode).toBe(304);
      // Errors carry no tag, so they are never revalidated into a 304.
      const missing = await get('/api/dns/records/nope.example');
      expect(missing.statusCode).toBe(404);
      expect(missing.headers.etag).toBeUndefined();
      const badCursor = await get('/api/mail/aliases?sort=source&cursor=abc');
      expect(badCursor.statusCode).toBe(400);
      expect(badCursor.headers.etag).toBeUndefined();
    });

    it('sees a change made by another instance or program on the same database', async () => {
      const { openDatabase } = await import('../../src/db/database.ts');
      const { buildApp } = await import('../../src/app.ts');
      const other =
        dialect === 'sqlite'
          ? openDatabase({ databaseUrl: `sqlite:${t.deps.database.sqlitePath!}`, dataDir: t.dataDir })
          : openDatabase({ databaseUrl: t.deps.database.postgresUrl, dataDir: t.dataDir });
      const app2 = await buildApp({ ...t.deps, database: other });
      try {
        const url = '/api/mail/aliases?sort=-source&limit=3';
        const etag = (await get(url)).headers.etag as string;
        const res = await app2.inject({
          method: 'POST',
          url: '/api/mail/aliases/remove/etag@example.com',
          headers: { authorization: `Bearer ${t.token}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(200);

        // Dovecot writes quota usage straight into the database: the mailbox list changes too.
        const boxes = '/api/mail/users?sort=-used&limit=3';
        const tag = (await get(boxes)).headers.etag as string;
        expect((await get(boxes, { 'if-none-match': tag })).statusCode).toBe(304);
        await other.db
          .updateTable('mail_quota_usage')
          .set({ bytes: 999 })
          .where('username', '=', 'm01@example.net')
          .execute();
        await other.db
          .insertInto('mail_quota_usage')
          .values({ username: 'm01@example.net', bytes: 999, messages: 1 })
          .execute()
          .catch(() => undefined);
        const after = await get(boxes, { 'if-none-match': tag });
        expect(after.statusCode).toBe(200);
        expect(after.json<Row[]>()[0]).toMatchObject({ email: 'm01@example.net', used: 999 });

        const records = '/api/dns/records?limit=3';
        const rtag = (await get(records)).headers.etag as string;
        await other.db.updateTable('dns_records').set({ ttl: 4242 }).where('qname', '=', 'h1').execute();
        expect((await get(records, { 'if-none-match': rtag })).statusCode).toBe(200);
      } finally {
        await app2.close();
        await other.close();
      }
    });
  });

  describe('streamed exports', () => {
    const parseCsv = (text: string) => text.trimEnd().split('\r\n');

    it('exports every alias as CSV and JSON, equal to the full list, formula cells neutralised', async () => {
      await insertAliases([
        { source: '=1+2@example.com', destination: '-cmd@example.org', status: 'active' },
      ]);
      const list = (await walk('/api/mail/aliases?sort=source&limit=1000')).rows;
      const csv = await get('/api/mail/aliases/export?format=csv');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(csv.headers['content-disposition']).toMatch(
        /^attachment; filename="aliases-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = parseCsv(csv.body);
      expect(lines[0]).toBe('source,destination,status');
      expect(lines.slice(1)).toEqual(
        list.map((a) =>
          [a.source, a.destination, a.status]
            .map((v) => (/^[=+\-@]/.test(v as string) ? `'${v as string}` : v))
            .join(','),
        ),
      );
      expect(lines).toContain("'=1+2@example.com,'-cmd@example.org,active");
      const json = await get('/api/mail/aliases/export?format=json');
      expect(json.headers['content-type']).toContain('application/json');
      expect(json.json()).toEqual(list);
      // CSV is the default.
      expect((await get('/api/mail/aliases/export')).body).toBe(csv.body);
      const bad = await get('/api/mail/aliases/export?format=xml');
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ details: { field: string }[] }>().details[0]?.field).toBe('format');
    });

    it('exports every mailbox and every record, in more than one batch', async () => {
      const { mailboxBatches } = await import('../../src/features/mail/export/mail-export.repository.ts');
      const { recordBatches } = await import('../../src/features/dns/records/record-list.repository.ts');
      const boxes = (await get('/api/mail/users?sort=email&limit=1000')).json<Row[]>();
      expect((await get('/api/mail/users/export?format=json')).json()).toEqual(boxes);
      const csv = parseCsv((await get('/api/mail/users/export')).body);
      expect(csv[0]).toBe('email,quota,used,status,createdAt');
      expect(csv).toHaveLength(boxes.length + 1);
      // Small batches walk by key without losing or repeating a row.
      const small: Row[] = [];
      for await (const b of mailboxBatches(db(), 4)) small.push(...b);
      expect(small).toEqual(boxes);
      const { mailboxJsonFragments } =
        await import('../../src/features/mail/export/mail-export-json.repository.ts');
      const fragments: string[] = [];
      for await (const f of mailboxJsonFragments(db(), 5)) fragments.push(f);
      expect(fragments.length).toBeGreaterThan(5);
      expect(JSON.parse(`[${fragments.join(',')}]`)).toEqual(boxes);

      const records = (await get('/api/dns/records?limit=1000')).json<Row[]>();
      const exported = (await get('/api/dns/records/export?format=json')).json<Row[]>();
      expect(exported).toEqual(records);
      const recs: Row[] = [];
      for await (const b of recordBatches(db(), 7)) recs.push(...b);
      expect(recs).toEqual(records);
      const rcsv = await get('/api/dns/records/export?format=csv');
      expect(rcsv.headers['content-disposition']).toMatch(/filename="dns-records-\d{4}-\d{2}-\d{2}\.csv"/);
      const rlines = parseCsv(rcsv.body);
      expect(rlines[0]).toBe('zone,qname,rtype,value,ttl,priority');
      expect(rlines).toHaveLength(records.length + 1);
      const mx = records.find((r) => r.rtype === 'MX')!;
      expect(rlines).toContain(
        `${String(mx.zone)},${String(mx.qname)},MX,${String(mx.value)},${String(mx.ttl)},${String(mx.priority)}`,
      );
    });

    it('needs a session', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/mail/aliases/export' })).statusCode).toBe(401);
    });
  });
});
