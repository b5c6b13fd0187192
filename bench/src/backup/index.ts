import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Dialect } from '../../../server/src/db/database.ts';
import { createLocks } from '../../../server/src/db/locks.ts';
import {
  type BackupEnv,
  backupJob,
  insertBackupRow,
  verifyJob,
} from '../../../server/src/features/system/backups/backup.service.ts';
import type { JobContext } from '../../../server/src/features/system/system-job.types.ts';
import { restoreJob } from '../../../server/src/features/system/backups/restore.service.ts';
import { benchCluster, openBenchDb, stopBenchCluster } from '../mail/bench-db.ts';
import { seedMail } from '../mail/seed.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

/**
 * Backup, restore drill and restore of a realistic server: BENCH_BACKUP_MAILBOXES mailboxes
 * (default 100 000) and BENCH_BACKUP_ALIASES aliases (default 1 000 000), plus 2 000 small mail
 * files in the data folder. Time and archive size per database.
 */
const MAILBOXES = Number(process.env.BENCH_BACKUP_MAILBOXES ?? 100_000);
const ALIASES = Number(process.env.BENCH_BACKUP_ALIASES ?? 1_000_000);
const FILES = 2000;

function context(): JobContext {
  return {
    jobId: 0,
    signal: new AbortController().signal,
    progress: () => undefined,
    checkpoint: async () => undefined,
  };
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function runOne(
  dialect: Dialect,
  pgBase: string | undefined,
  log: (m: string) => void,
): Promise<BenchRow[]> {
  const db = await openBenchDb(dialect, pgBase);
  const locks = createLocks(db.handle);
  try {
    log(`${dialect}: seeding ${MAILBOXES} mailboxes and ${ALIASES} aliases`);
    await seedMail(db.handle, MAILBOXES, ALIASES);
    for (let i = 0; i < FILES; i++) {
      const dir = path.join(db.dataDir, 'mail', `d${i % 20}.bench.test`, `user${i}`, 'cur');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${i}.eml`), `Subject: bench ${i}\n\n${'x'.repeat(2000)}\n`);
    }
    const env: BackupEnv = {
      database: db.handle,
      locks,
      dataDir: db.dataDir,
      backupDir: path.join(db.dataDir, 'backups'),
    };
    mkdirSync(env.backupDir, { recursive: true });
    const id = await insertBackupRow(db.handle.db, 'full', 'bench', 'manual');
    let t = Date.now();
    const made = (await backupJob(env)({ backupId: id }, context())).result as { size: number; rows: number };
    const backupMs = Date.now() - t;
    log(
      `${dialect}: backup ${secs(backupMs)}, ${(made.size / 1024 / 1024).toFixed(1)} MB, ${made.rows} rows`,
    );
    t = Date.now();
    await verifyJob(env)({ backupId: id }, context());
    const verifyMs = Date.now() - t;
    log(`${dialect}: drill ${secs(verifyMs)}`);
    await sql`delete from mail_aliases`.execute(db.handle.db);
    t = Date.now();
    await restoreJob(env)({ backupId: id }, context());
    const restoreMs = Date.now() - t;
    const back = await db.handle.db
      .selectFrom('mail_aliases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(back.n) !== ALIASES) throw new Error(`restore gave ${back.n} aliases, expected ${ALIASES}`);
    log(`${dialect}: restore ${secs(restoreMs)}`);
    const label = `${dialect}, ${MAILBOXES.toLocaleString('en')} mailboxes / ${ALIASES.toLocaleString('en')} aliases`;
    return [
      { measure: `backup time (${label})`, value: secs(backupMs), raw: { ms: backupMs } },
      {
        measure: `archive size (${label})`,
        value: `${(made.size / 1024 / 1024).toFixed(1)} MB`,
        raw: { bytes: made.size },
      },
      { measure: `restore drill time (${label})`, value: secs(verifyMs), raw: { ms: verifyMs } },
      { measure: `restore time (${label})`, value: secs(restoreMs), raw: { ms: restoreMs } },
    ];
  } finally {
    await locks.close();
    await db.close();
  }
}

const suite: BenchSuite = {
  name: 'backup',
  description: `backup, restore drill and restore of ${MAILBOXES} mailboxes / ${ALIASES} aliases (SQLite and PostgreSQL)`,
  async run(ctx) {
    const log = (m: string) => ctx.log(m);
    const rows = await runOne('sqlite', undefined, log);
    const cluster = await benchCluster(log);
    if (cluster) {
      try {
        rows.push(...(await runOne('postgres', cluster.url, log)));
      } finally {
        await stopBenchCluster();
      }
    }
    return rows;
  },
};
export default suite;
