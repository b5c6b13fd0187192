import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createSession, hashToken, knownSession, touchSession } from '../../src/http/sessions.ts';
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

// The auth guard answers most requests from the session it read before, as long as nothing was
// committed to the database since (db/commit-version.ts): a sign-out or revocation by any worker,
// i.e. any other connection to the file, must still answer 401 on the very next request.
describe('the remembered session on sqlite', () => {
  let t: TestContext;
  let other: DatabaseHandle;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    // Another worker process: a connection of its own to the same file.
    other = openDatabase({ dataDir: t.dataDir });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });
  const policy = { idleMs: 3_600_000, absoluteMs: 86_400_000 };
  const read = (token: string) =>
    t.app.inject({ url: '/api/audit?limit=1', headers: { authorization: `Bearer ${token}` } });

  it('is used while nothing is committed, and not once anything is', async () => {
    const { db } = t.deps.database;
    const token = t.token;
    expect((await read(token)).statusCode).toBe(200);
    // Read once: remembered (no query needed while nothing was committed). The app's own timers
    // (statistics flush, counters) commit now and then: a read that raced one is remembered at the next.
    let known: unknown;
    for (let i = 0; i < 5 && !known; i++) {
      await touchSession(db, policy, token);
      known = knownSession(db, policy, token);
    }
    expect(known).toMatchObject({ email: ADMIN.email });
    // Any commit by another connection (here an unrelated row) and it is read again.
    await other.db
      .insertInto('audit_log')
      .values({ at: new Date().toISOString(), actor: 'x', action: 'test', outcome: 'success' })
      .execute();
    expect(knownSession(db, policy, token)).toBeUndefined();
  });

  it('a session revoked by another worker answers 401 on the next request', async () => {
    const token = t.token;
    for (let i = 0; i < 3; i++) expect((await read(token)).statusCode).toBe(200);
    expect(knownSession(t.deps.database.db, policy, token)).toBeDefined();
    await other.db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
    expect((await read(token)).statusCode).toBe(401);
  });

  it('a sign-out on this worker answers 401 on the next request', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    const token = login.json<{ api_key: string }>().api_key;
    for (let i = 0; i < 3; i++) expect((await read(token)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    expect((await read(token)).statusCode).toBe(401);
  });

  it('an account made a domain administrator elsewhere loses the administrator routes at once', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    const token = login.json<{ api_key: string }>().api_key;
    expect((await read(token)).statusCode).toBe(200);
    // The role changes through another connection without ending the session (a direct write).
    await other.db
      .updateTable('admins')
      .set({ role: 'domain-admin' })
      .where('email', '=', ADMIN.email)
      .execute();
    try {
      expect((await read(token)).statusCode).toBe(403);
    } finally {
      await other.db.updateTable('admins').set({ role: 'admin' }).where('email', '=', ADMIN.email).execute();
    }
  });
});
