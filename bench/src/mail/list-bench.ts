// The server's Fastify type augmentations (request.admin, auditTarget…) come with its source.
import type {} from '../../../server/src/http/route-config.d.ts';
import path from 'node:path';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import type { Dialect } from '../../../server/src/db/database.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { Host } from '../../../server/src/host/host.ts';
import type { BenchContext, BenchRow } from '../suite.ts';
import { benchCluster, ms, openBenchDb, percentile } from './bench-db.ts';
import { aliasAddFigure, exportFigure, keysetFigures } from './paging-bench.ts';
import { DOMAINS, seedMail } from './seed.ts';

const MAILBOXES = 100_000;
const ALIASES = 1_000_000;
const REQUESTS = 300;
const GOAL_P99 = 10;

/** A small deterministic generator, so every run asks the same pages. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Scenario {
  measure: string;
  url: (rnd: () => number) => string;
  goal: boolean;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

const SCENARIOS: Scenario[] = [
  {
    measure: 'mailboxes: page of 100 (offset < 10,000)',
    url: (r) => `/api/mail/users?limit=100&offset=${Math.floor(r() * 100) * 100}`,
    goal: true,
  },
  {
    measure: 'mailboxes: search address prefix',
    url: (r) => `/api/mail/users?limit=100&q=user${pad(Math.floor(r() * 10_000), 4)}`,
    goal: true,
  },
  {
    measure: 'mailboxes: search domain, page of 100',
    url: (r) => `/api/mail/users?limit=100&q=d${Math.floor(r() * 20)}.bench.test`,
    goal: true,
  },
  {
    measure: 'mailboxes: deep page (offset up to 99,900)',
    url: (r) => `/api/mail/users?limit=100&offset=${Math.floor(r() * 1000) * 100}`,
    goal: true,
  },
  {
    measure: 'aliases: page of 100 (offset < 10,000)',
    url: (r) => `/api/mail/aliases?limit=100&offset=${Math.floor(r() * 100) * 100}`,
    goal: true,
  },
  {
    measure: 'aliases: search source prefix',
    url: (r) => `/api/mail/aliases?limit=100&q=alias${pad(Math.floor(r() * 100_000), 6)}`,
    goal: true,
  },
  {
    measure: 'aliases: search destination prefix',
    url: (r) => `/api/mail/aliases?limit=100&q=user${pad(Math.floor(r() * 5000), 6)}`,
    goal: true,
  },
  {
    measure: 'aliases: search domain, 50,000 matches counted',
    url: (r) => `/api/mail/aliases?limit=100&q=d${Math.floor(r() * 20)}.bench.test`,
    goal: false,
  },
  {
    measure: 'aliases: deep page (offset up to 999,900)',
    url: (r) => `/api/mail/aliases?limit=100&offset=${Math.floor(r() * 10_000) * 100}`,
    goal: true,
  },
];

/** Paged lists and searches through the whole API stack (auth guard, validation, serialisation). */
export async function listBench(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cluster = await benchCluster((m) => ctx.log(m));
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    if (dialect === 'postgres' && !cluster) {
      rows.push({ measure: `paged list + search, ${name}`, value: 'skipped: no postgresql' });
      continue;
    }
    const db = await openBenchDb(dialect, cluster?.url);
    try {
      ctx.log(`seeding ${MAILBOXES} mailboxes and ${ALIASES} aliases on ${dialect}`);
      const t0 = performance.now();
      await seedMail(db.handle, MAILBOXES, ALIASES);
      ctx.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const config = loadConfig({
        MAILROOM_DATA_DIR: db.dataDir,
        MAILROOM_WEB_DIST: path.join(db.dataDir, 'no-web'),
      });
      await addAdmin(db.handle.db, 'bench@example.com', 'bench-password-1');
      const app = await buildApp({ config, database: db.handle, host: new Host(config.hostRoot, false) });
      try {
        const login = await app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: 'bench@example.com', password: 'bench-password-1' },
        });
        const headers = { authorization: `Bearer ${login.json<{ api_key: string }>().api_key}` };
        // The app makes DKIM keys for the seeded domains in the background: let it finish first.
        for (let i = 0; i < 600; i++) {
          const keys = await app.inject({ method: 'GET', url: '/api/mail/dkim', headers });
          if (keys.json<unknown[]>().length >= DOMAINS) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        for (const s of SCENARIOS) {
          const rnd = lcg(42);
          for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: s.url(rnd), headers });
          const times: number[] = [];
          for (let i = 0; i < REQUESTS; i++) {
            const url = s.url(rnd);
            const start = performance.now();
            const res = await app.inject({ method: 'GET', url, headers });
            times.push(performance.now() - start);
            if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
          }
          times.sort((a, b) => a - b);
          const p50 = percentile(times, 50);
          const p99 = percentile(times, 99);
          rows.push({
            measure: `${s.measure}, ${name}`,
            value: `p50 ${ms(p50)}, p99 ${ms(p99)}`,
            ...(s.goal ? { goal: `p99 ≤ ${GOAL_P99} ms`, pass: p99 <= GOAL_P99 } : {}),
            raw: { p50, p99, requests: REQUESTS },
          });
        }
        // Keyset pages, the streamed export and alias add on the same 1M-alias database.
        const b = { app, headers };
        rows.push(...(await keysetFigures(b, name, ALIASES)));
        rows.push(...(await exportFigure(b, name, ALIASES)));
        rows.push(await aliasAddFigure(b, name, '1M', 'l'));
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
    }
  }
  return rows;
}
