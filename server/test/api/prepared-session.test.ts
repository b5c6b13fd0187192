import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, touchSession } from '../../src/http/sessions.ts';
import { ADMIN, startTestApp, type TestContext } from '../harness.ts';

// SQLite has one connection: the cached session statement must wait for Kysely's lock like every
// other query, or it runs inside whatever transaction another request has open.
describe('the prepared session lookup on sqlite', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('cannot see a session another request inserted and has not committed', async () => {
    const { db } = t.deps.database;
    const policy = { idleMs: 3_600_000, absoluteMs: 86_400_000 };
    const admin = await db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    let inserted!: (token: string) => void;
    const tokenReady = new Promise<string>((r) => (inserted = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const trx = db
      .transaction()
      .execute(async (tx) => {
        inserted(await createSession(tx, policy, admin.id, { ip: null, userAgent: null }));
        await gate;
        throw new Error('rolled back on purpose');
      })
      .catch((err: Error) => err.message);
    const token = await tokenReady;
    let seen: unknown = 'pending';
    const lookup = touchSession(db, policy, token).then((r) => (seen = r));
    // Give the lookup every chance to run while the transaction is open.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(seen).toBe('pending');
    release();
    expect(await trx).toBe('rolled back on purpose');
    await lookup;
    expect(seen).toBeNull();
  });

  it('still finds a committed session', async () => {
    const { db } = t.deps.database;
    const policy = { idleMs: 3_600_000, absoluteMs: 86_400_000 };
    const admin = await db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', ADMIN.email)
      .executeTakeFirstOrThrow();
    const token = await createSession(db, policy, admin.id, { ip: null, userAgent: null });
    expect(await touchSession(db, policy, token)).toMatchObject({ email: ADMIN.email });
  });
});
