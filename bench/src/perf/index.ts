import { sql } from 'kysely';
import type { Dialect } from '../../../server/src/db/database.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { type BenchDb, benchCluster, openBenchDb, stopBenchCluster } from '../mail/bench-db.ts';
import { aliasAddFigure, benchApp, keysetFigures, mailboxJsonFigure } from '../mail/paging-bench.ts';
import { seedMail } from '../mail/seed.ts';

/** The plans of a first alias page's queries (the page, its total, its ETag), into the log. */
async function explainPageOne(db: BenchDb, log: (m: string) => void): Promise<void> {
  const queries = [
    'select a.source, a.destination, a.status, a.system from mail_aliases a order by a.source asc limit 100 offset 0',
    'select sum(alias_count) as n from mail_domains',
    "select name, version from list_versions where name in ('epoch', 'mail_aliases')",
  ];
  for (const q of queries) {
    const plan = await sql
      .raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q}`)
      .execute(db.handle.db);
    log(`EXPLAIN ANALYZE ${q}\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
  }
}

/**
 * The issue-8 figures on their own, without the rest of the mail suite: 10k mailboxes as one JSON
 * answer, alias add at 10k/100k/1M, keyset pages at 1M aliases. BENCH_PERF_DB=sqlite,postgres and
 * BENCH_PERF_SIZES=10000,100000,1000000 choose what runs (default: everything).
 */
const suite: BenchSuite = {
  name: 'perf',
  description: 'mailbox JSON export (10k), alias add at 10k/100k/1M, keyset pages at 1M aliases',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const dbs = (process.env.BENCH_PERF_DB ?? 'sqlite,postgres').split(',') as Dialect[];
    const sizes = (process.env.BENCH_PERF_SIZES ?? '10000,100000,1000000').split(',').map(Number);
    try {
      for (const dialect of dbs) {
        const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
        const cluster = dialect === 'postgres' ? await benchCluster((m) => ctx.log(m)) : null;
        if (dialect === 'postgres' && !cluster) continue;
        for (const aliases of sizes) {
          const db = await openBenchDb(dialect, cluster?.url);
          try {
            ctx.log(`seeding 10000 mailboxes and ${aliases} aliases on ${dialect}`);
            await seedMail(db.handle, 10_000, aliases);
            const b = await benchApp(db);
            try {
              if (aliases === 10_000)
                rows.push(await mailboxJsonFigure(b, name, { db: db.handle.db, log: (m) => ctx.log(m) }));
              if (aliases === 1_000_000) {
                rows.push(...(await keysetFigures(b, name, aliases)));
                if (dialect === 'postgres') await explainPageOne(db, (m) => ctx.log(m));
              }
              rows.push(await aliasAddFigure(b, name, aliases.toLocaleString('en'), `p${aliases}`));
            } finally {
              await b.app.close();
            }
          } finally {
            await db.close();
          }
        }
      }
    } finally {
      await stopBenchCluster();
    }
    return rows;
  },
};

export default suite;
