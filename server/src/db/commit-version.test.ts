import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './database.ts';
import { commitVersion, registerCommitWatch } from './commit-version.ts';

const dirs: string[] = [];
const handles: DatabaseHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'mailroom-commit-version-'));
  dirs.push(d);
  return d;
};

describe('commitVersion', () => {
  it('moves with every commit of any connection, and with nothing else', async () => {
    const dataDir = tempDir();
    const a = openDatabase({ dataDir });
    const b = openDatabase({ dataDir });
    handles.push(a, b);
    await a.db.schema.createTable('t').addColumn('x', 'integer').execute();
    const v0 = commitVersion(a.db);
    expect(v0).toEqual(expect.any(Number));
    expect(commitVersion(a.db)).toBe(v0);
    // A read, and a transaction that rolls back, commit nothing.
    await b.db
      .selectFrom('t' as never)
      .selectAll()
      .execute();
    await b.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('t' as never)
          .values({ x: 1 })
          .execute();
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(commitVersion(a.db)).toBe(v0);
    // Another connection's commit, then this connection's own.
    await b.db
      .insertInto('t' as never)
      .values({ x: 2 })
      .execute();
    const v1 = commitVersion(a.db);
    expect(v1).not.toBe(v0);
    await a.db
      .insertInto('t' as never)
      .values({ x: 3 })
      .execute();
    expect(commitVersion(a.db)).not.toBe(v1);
  });

  it('answers null for a closed database', async () => {
    const h = openDatabase({ dataDir: tempDir() });
    await h.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .execute()
      .catch(() => undefined);
    await h.close();
    expect(commitVersion(h.db)).toBeNull();
  });

  it('answers null while the header is being written or not initialised, a number once it is whole', () => {
    const dir = tempDir();
    const file = path.join(dir, 'fake.db');
    const db = {} as Parameters<typeof commitVersion>[0];
    const stop = registerCommitWatch(db, file);
    try {
      const header = Buffer.alloc(48, 7);
      header[12] = 1;
      const torn = Buffer.from(header);
      torn[20] = 8;
      writeFileSync(`${file}-shm`, Buffer.concat([header, torn]));
      expect(commitVersion(db)).toBeNull();
      const uninitialised = Buffer.from(header);
      uninitialised[12] = 0;
      writeFileSync(`${file}-shm`, Buffer.concat([uninitialised, uninitialised]));
      expect(commitVersion(db)).toBeNull();
      writeFileSync(`${file}-shm`, Buffer.concat([header, header]));
      const v = commitVersion(db);
      expect(v).toEqual(expect.any(Number));
      writeFileSync(`${file}-shm`, Buffer.concat([torn, torn]));
      expect(commitVersion(db)).toBe(v! + 1);
    } finally {
      stop();
    }
  });
});
