import type { BenchRow, BenchSuite } from '../suite.ts';
import { stopBenchCluster } from './bench-db.ts';
import { createBench } from './create-bench.ts';
import { importBench } from './import-bench.ts';
import { listBench } from './list-bench.ts';
import { lookupBench } from './lookup-bench.ts';
import { pagingBench } from './paging-bench.ts';
import { smtpBench } from './smtp-bench.ts';

const suite: BenchSuite = {
  name: 'mail',
  description:
    'alias CSV import (100k rows), paged list + search at 100k mailboxes / 1M aliases, mailbox creation on the hashing pool, keyset pages, streamed exports, alias add at 10k/100k/1M, SMTP acceptance of the rendered Postfix/Dovecot stack',
  async run(ctx) {
    const rows: BenchRow[] = [];
    try {
      rows.push(...(await importBench(ctx)));
      rows.push(...(await listBench(ctx)));
      rows.push(...(await createBench(ctx)));
      rows.push(...(await pagingBench(ctx)));
      rows.push(...(await smtpBench(ctx)));
      rows.push(...(await lookupBench(ctx)));
    } finally {
      await stopBenchCluster();
    }
    return rows;
  },
};

export default suite;
