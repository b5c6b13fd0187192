import { existsSync } from 'node:fs';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { apiThroughput } from './api-throughput.ts';
import { jsSize } from './js-size.ts';

const suite: BenchSuite = {
  name: 'foundation',
  description: 'API small-read throughput vs bare Fastify; JavaScript size of /login and /dashboard',
  async run(ctx) {
    const rows: BenchRow[] = await apiThroughput(ctx);
    if (existsSync('/usr/bin/chromium')) rows.push(...(await jsSize(ctx)));
    else {
      ctx.log('!!! /usr/bin/chromium is missing (Debian package: chromium): JS size measurement SKIPPED !!!');
      rows.push({ measure: 'JS loaded by /login and /dashboard', value: 'skipped: no chromium' });
    }
    return rows;
  },
};

export default suite;
