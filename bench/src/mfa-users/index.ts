import { encodeCursor } from '../../../server/src/http/cursor.ts';
import {
  type BenchDb,
  benchCluster,
  ms,
  openBenchDb,
  percentile,
  stopBenchCluster,
} from '../mail/bench-db.ts';
import { type BenchApp, benchApp, lcg } from '../mail/paging-bench.ts';
import { mailboxEmail, seedMail } from '../mail/seed.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const MAILBOXES = 100_000;
const REQUESTS = 200;

async function time(b: BenchApp, url: (r: () => number) => string) {
  const rnd = lcg(11);
  for (let i = 0; i < 10; i++) await b.app.inject({ method: 'GET', url: url(rnd), headers: b.headers });
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const u = url(rnd);
    const start = performance.now();
    const res = await b.app.inject({ method: 'GET', url: u, headers: b.headers });
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${u}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
  times.sort((a, c) => a - c);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** The row after mailbox i in the users list by address (mailboxes without an account: id −id). */
const after = (i: number) => encodeCursor({ sort: 'email', dir: 'after', keys: [mailboxEmail(i), -(i + 1)] });

async function figures(db: BenchDb, name: string): Promise<BenchRow[]> {
  await seedMail(db.handle, MAILBOXES, 0);
  const b = await benchApp(db, false);
  const rows: BenchRow[] = [];
  const scenarios: [string, (r: () => number) => string][] = [
    ['mfa/users: first page (50 by user)', () => '/api/mfa/users?limit=50'],
    [
      'mfa/users: keyset next page at a random depth',
      (r) => `/api/mfa/users?limit=50&cursor=${after(Math.floor(r() * (MAILBOXES - 1)))}`,
    ],
    ['mfa/users: offset page 100', () => '/api/mfa/users?limit=50&offset=4950'],
    [
      'mfa/users: prefix search (10 matches)',
      (r) => `/api/mfa/users?limit=50&q=${mailboxEmail(Math.floor(r() * MAILBOXES)).slice(0, 9)}`,
    ],
    [
      'mfa/users: first page by last MFA login (descending)',
      () => '/api/mfa/users?limit=50&sort=-lastMfaLogin',
    ],
  ];
  for (const [measure, url] of scenarios) {
    const t = await time(b, url);
    rows.push({
      measure: `${measure}, ${MAILBOXES.toLocaleString()} mailboxes, ${name}`,
      value: `p50 ${ms(t.p50)}, p99 ${ms(t.p99)}`,
      raw: { ...t, requests: REQUESTS },
    });
  }
  await b.app.close();
  return rows;
}

const suite: BenchSuite = {
  name: 'mfa-users',
  description:
    'the paged MFA users list (mfa/users) at 100k mailboxes: first page, keyset depth, offset, search, sort',
  async run(ctx) {
    const rows: BenchRow[] = [];
    try {
      const lite = await openBenchDb('sqlite');
      try {
        rows.push(...(await figures(lite, 'SQLite')));
      } finally {
        await lite.close();
      }
      const cluster = await benchCluster((m) => ctx.log(m));
      if (cluster) {
        const pg = await openBenchDb('postgres', cluster.url);
        try {
          rows.push(...(await figures(pg, 'PostgreSQL')));
        } finally {
          await pg.close();
        }
      }
    } finally {
      await stopBenchCluster();
    }
    return rows;
  },
};

export default suite;
