import type { Dialect } from '../../../server/src/db/database.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { benchCluster, openBenchDb, stopBenchCluster } from '../mail/bench-db.ts';
import { aliasAddFigure, benchApp, keysetFigures, mailboxJsonFigure } from '../mail/paging-bench.ts';
import { seedMail } from '../mail/seed.ts';

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
              if (aliases === 10_000) rows.push(await mailboxJsonFigure(b, name));
              if (aliases === 1_000_000) rows.push(...(await keysetFigures(b, name, aliases)));
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
      stopBenchCluster();
    }
    return rows;
  },
};

export default suite;
