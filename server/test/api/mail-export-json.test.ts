import { type Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mailboxJsonBatches,
  mailboxJsonFragments,
} from '../../src/features/mail/export/mail-export-json.repository.ts';
import { jsonArrayStream } from '../../src/http/stream-export.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

interface Box {
  email: string;
  domain: string;
  quota: number;
  used: number;
  status: 'active' | 'suspended';
  createdAt: string;
}

/**
 * Addresses the API would refuse, written straight into the table: whatever is stored must leave
 * as JSON that parses back to the same text (quotes, backslashes, control characters, non-ASCII,
 * a surrogate pair, the line separators JavaScript once refused in strings).
 */
const ODD = [
  'quote"inside@example.com',
  'back\\slash@example.com',
  'tab\there@example.com',
  'nl\nand\rcr@example.com',
  'nul\u0000bel\u0007esc\u001bdel\u007f@example.com',
  'müller@exämple.com',
  'emoji😀@example.com',
  'sep\u2028\u2029@example.com',
  'zero\u200bwidth@example.com',
  '</script>@example.com',
];

/** Byte order of the UTF-8 text: how both databases sort addresses (BINARY / "C"). */
const byBytes = (a: Box, b: Box) => Buffer.compare(Buffer.from(a.email), Buffer.from(b.email));

async function drain(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks).toString('utf8');
}

async function* pieces(list: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const p of list) yield p;
}

describe.each(dialects())('mailbox JSON export on %s', (dialect) => {
  let t: TestContext;
  const db = () => t.deps.database.db;
  let boxes: Box[];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const now = new Date().toISOString();
    const plain = Array.from(
      { length: 23 },
      (_, i) => `user${String(i).padStart(2, '0')}@d${i % 3}.example.org`,
    );
    boxes = [...plain, ...ODD].map((email, i): Box => ({
      email,
      domain: email.slice(email.lastIndexOf('@') + 1),
      quota: i % 4 === 0 ? 0 : (i + 1) * 1_048_576,
      used: i % 2 === 0 ? i * 1000 + 7 : 0,
      status: i % 5 === 0 ? 'suspended' : 'active',
      // Stored text comes out as it is, odd characters included.
      createdAt: i === 3 ? `${now}"\\\n` : now,
    }));
    // PostgreSQL text cannot hold NUL: that one address is SQLite's only.
    if (dialect === 'postgres') boxes = boxes.filter((b) => !b.email.includes('\u0000'));
    await db()
      .insertInto('mailboxes')
      .values(
        boxes.map((b) => ({
          email: b.email,
          domain: b.domain,
          password_hash: 'x',
          quota: b.quota,
          // Anything but 'suspended' reads as active.
          status: b.status === 'active' && b.quota === 0 ? 'enabled' : b.status,
          maildir: `${b.domain}/x/`,
          created_at: b.createdAt,
          updated_at: b.createdAt,
        })),
      )
      .execute();
    await db()
      .insertInto('mail_quota_usage')
      .values(boxes.filter((b) => b.used).map((b) => ({ username: b.email, bytes: b.used, messages: 1 })))
      .execute();
    boxes.sort(byBytes);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every mailbox in address order, in the contract shape, odd characters intact', async () => {
    const res = await t.call({ method: 'GET', url: '/api/mail/users/export?format=json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="mailboxes-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const got = JSON.parse(res.body) as Box[];
    expect(got).toEqual(boxes);
    // Key order is the contract's, for every row.
    for (const row of got)
      expect(Object.keys(row)).toEqual(['email', 'domain', 'quota', 'used', 'status', 'createdAt']);
  });

  it('walks the table in batches of any size without losing or repeating a row', async () => {
    for (const size of [1, 3, boxes.length, boxes.length - 1, boxes.length + 1]) {
      const parts: (string | Uint8Array)[] = [];
      for await (const p of mailboxJsonBatches(db(), size)) parts.push(p);
      expect(parts.length).toBe(Math.ceil(boxes.length / size));
      expect(JSON.parse(await drain(jsonArrayStream(pieces(parts))))).toEqual(boxes);
      const text: string[] = [];
      for await (const f of mailboxJsonFragments(db(), size)) text.push(f);
      expect(JSON.parse(`[${text.join(',')}]`)).toEqual(boxes);
    }
  });

  it('answers an empty array when there is no mailbox', async () => {
    const trx = db();
    await trx.deleteFrom('mail_quota_usage').execute();
    // Every stored column but the generated ones, which the database writes itself.
    const saved = (await trx.selectFrom('mailboxes').selectAll().execute()).map(
      ({ json_head: _h, json_tail: _t, ...row }) => row,
    );
    await trx.deleteFrom('mailboxes').execute();
    try {
      const res = await t.call({ method: 'GET', url: '/api/mail/users/export?format=json' });
      expect(res.body).toBe('[]');
    } finally {
      await trx.insertInto('mailboxes').values(saved).execute();
    }
  });
});

describe('jsonArrayStream', () => {
  it('joins text and byte pieces into one array, skipping empty ones', async () => {
    const text = await drain(
      jsonArrayStream(pieces(['{"a":1}', Buffer.from('{"b":"ü"},{"c":2}'), '', new Uint8Array(0), '3'])),
    );
    expect(text).toBe('[{"a":1},{"b":"ü"},{"c":2},3]');
    expect(await drain(jsonArrayStream(pieces([])))).toBe('[]');
  });

  it('ends the stream with the error of a failing batch', async () => {
    async function* failing(): AsyncGenerator<string> {
      yield '1';
      throw new Error('batch failed');
    }
    await expect(drain(jsonArrayStream(failing()))).rejects.toThrow('batch failed');
  });

  it('reads one batch ahead at most and closes the source when the client goes away', async () => {
    let asked = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<string> {
      try {
        for (;;) {
          asked += 1;
          await new Promise((r) => setImmediate(r));
          yield `"${'x'.repeat(300 * 1024)}"`;
        }
      } finally {
        closed = true;
      }
    }
    const stream = jsonArrayStream(endless());
    // A client that takes nothing: the stream fills its buffer and stops asking.
    const stalled = new Writable({ highWaterMark: 1, write: () => undefined });
    stream.pipe(stalled);
    await new Promise((r) => setTimeout(r, 100));
    expect(asked).toBeLessThanOrEqual(4);
    stream.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(true);
  });
});
