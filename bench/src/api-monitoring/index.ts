import os from 'node:os';
import { openDatabase } from '../../../server/src/db/database.ts';
import { numericFlag } from '../foundation/api-throughput.ts';
import { measureLoad, type LoadResult } from '../lib/http-load.ts';
import { signInKey, startMailroom, untilServerIdle } from '../lib/servers.ts';
import { seedMail } from '../mail/seed.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const ALIASES = 10_000;
/** The alias list's largest page (contract: MAIL_LIST_MAX_LIMIT). */
const PAGE = 1000;
/** How long a cache change takes to reach every worker (SETTINGS_POLL_MS is 2 s). */
const SETTLE_MS = 2500;

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/**
 * The response cache's speed-up (issue 21): 8 connections of one session reading the whole alias
 * list (10,000 aliases) on the real server (production build, its default workers, SQLite). "The
 * whole list" is what the alias screen's route gives at its largest page: every page of
 * `GET /api/mail/aliases?limit=1000&sort=source`, followed by its X-Next-Cursor (10 pages). Each
 * connection walks the 10 pages round and round, so req/s counts pages and a whole list is 10
 * requests. Cache on and off are measured in alternating rounds (paired: the machine's other load
 * hits both alike); the table shows the median round, every round's figure and the load average.
 *
 * `npm run bench -- api-monitoring [--rounds=N] [--seconds=N]` (BENCH_ROUNDS, default 3;
 * BENCH_SECONDS per measurement, default 10).
 */
const suite: BenchSuite = {
  name: 'api-monitoring',
  description:
    'whole alias list (10,000 aliases in pages of 1,000), 8 connections, one session, cache on and off',
  async run(ctx) {
    const rounds = numericFlag('rounds', 'BENCH_ROUNDS', 3);
    const seconds = numericFlag('seconds', 'BENCH_SECONDS', 10);
    const server = await startMailroom(ctx.outDir);
    try {
      ctx.log(`seeding ${ALIASES} mailboxes and ${ALIASES} aliases into the server's SQLite database`);
      const seed = openDatabase({ dataDir: server.dataDir });
      try {
        await seedMail(seed, ALIASES, ALIASES);
      } finally {
        await seed.close();
      }
      const key = await signInKey(server.baseURL);
      const headers = { authorization: `Bearer ${key}` };
      // The screen's paging: the first page, then each X-Next-Cursor.
      const paths: string[] = [];
      let next: string | null = `/api/mail/aliases?limit=${PAGE}&sort=source`;
      let seen = 0;
      while (next) {
        paths.push(next);
        const res: Response = await fetch(server.baseURL + next, { headers });
        if (!res.ok) throw new Error(`${next}: ${res.status} ${await res.text()}`);
        seen += ((await res.json()) as unknown[]).length;
        const cursor: string | null = res.headers.get('x-next-cursor');
        next = cursor ? `/api/mail/aliases?limit=${PAGE}&sort=source&cursor=${cursor}` : null;
      }
      if (seen !== ALIASES) throw new Error(`the walk read ${seen} aliases, not ${ALIASES}`);
      ctx.log('waiting for the server to finish its startup work');
      await untilServerIdle(server.pid);
      const setCache = async (enabled: boolean) => {
        const res = await fetch(`${server.baseURL}/api/api-monitoring/cache`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ enabled, ttl: 300, maxSize: 100 }),
        });
        if (!res.ok) throw new Error(`cache settings: ${res.status} ${await res.text()}`);
        await new Promise((r) => setTimeout(r, SETTLE_MS));
      };
      const results: Record<'on' | 'off', LoadResult[]> = { on: [], off: [] };
      const loadBefore = load();
      for (let round = 1; round <= rounds; round++) {
        for (const enabled of round % 2 ? [true, false] : [false, true]) {
          await setCache(enabled);
          ctx.log(
            `round ${round}/${rounds}: ${paths.length} pages of ${PAGE}, cache ${enabled ? 'on' : 'off'} (load ${load()})`,
          );
          const r = await measureLoad({
            url: server.baseURL,
            paths,
            headers,
            connections: 8,
            seconds,
            warmupSeconds: 2,
          });
          ctx.log(`  ${r.rps.toFixed(1)} req/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms`);
          results[enabled ? 'on' : 'off'].push(r);
        }
      }
      const loadAfter = load();
      const rows: BenchRow[] = [];
      for (const which of ['on', 'off'] as const) {
        const rs = results[which];
        const rps = median(rs.map((r) => r.rps));
        const p99 = median(rs.map((r) => r.p99ms));
        const p50 = median(rs.map((r) => r.p50ms));
        rows.push({
          measure: `whole alias list (${ALIASES.toLocaleString('en-US')} in ${paths.length} pages), 8 connections, cache ${which}`,
          value: `${rps.toFixed(0)} req/s = ${(rps / paths.length).toFixed(1)} lists/s (p50 ${p50} ms, p99 ${p99} ms; rounds ${rs.map((r) => `${r.rps.toFixed(0)}/${r.p99ms}`).join(', ')} req/s/p99 ms; load ${loadBefore} → ${loadAfter})`,
          ...(which === 'on' ? { goal: '≥ 50 req/s, p99 ≤ 300 ms', pass: rps >= 50 && p99 <= 300 } : {}),
          raw: { rps, p50ms: p50, p99ms: p99, pages: paths.length, rounds, seconds },
        });
      }
      const on = median(results.on.map((r) => r.rps));
      const off = median(results.off.map((r) => r.rps));
      rows.push({
        measure: '  cache speed-up (on / off)',
        value: `${(on / off).toFixed(2)}×`,
        raw: { speedup: on / off },
      });
      return rows;
    } finally {
      await server.stop();
    }
  },
};

export default suite;
