// The server's Fastify type augmentations (request.admin, auditTarget…) come with its source.
import type {} from '../../../server/src/http/route-config.d.ts';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import type { DatabaseHandle, Dialect } from '../../../server/src/db/database.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { search } from '../../../server/src/features/search/search.repository.ts';
import { Host } from '../../../server/src/host/host.ts';
import { benchCluster, ms, openBenchDb, percentile, stopBenchCluster } from '../mail/bench-db.ts';
import { bulkInsert, seedMail } from '../mail/seed.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const MAILBOXES = Number(process.env.BENCH_SEARCH_MAILBOXES ?? 100_000);
const ALIASES = Number(process.env.BENCH_SEARCH_ALIASES ?? 1_000_000);
const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 1_000_000);
const ZONES = 1_000;
const REQUESTS = 400;
const GOAL_P99 = 50;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const zoneName = (z: number) => `z${pad(z, 4)}.bench.test`;

/** `ZONES` zones and `RECORDS` records over them (names host<i>, mx<i>, txt<i>…), as a big DNS host has. */
async function seedDns(handle: DatabaseHandle): Promise<void> {
  const now = new Date().toISOString();
  const T = { name: '', pg: 'text' as const };
  const B = { name: '', pg: 'bigint' as const };
  await bulkInsert(
    handle,
    'dns_zones',
    [
      { ...T, name: 'domain' },
      { ...T, name: 'zone_type' },
      { ...T, name: 'status' },
      { ...T, name: 'primary_ns' },
      { ...T, name: 'admin_email' },
      { ...B, name: 'serial' },
      { ...B, name: 'refresh' },
      { ...B, name: 'retry' },
      { ...B, name: 'expire' },
      { ...B, name: 'minimum' },
      { ...B, name: 'default_ttl' },
      { ...T, name: 'created_at' },
      { ...T, name: 'updated_at' },
    ],
    ZONES,
    (z) => [
      zoneName(z),
      'primary',
      'active',
      'ns1.bench.test',
      'hostmaster@bench.test',
      1,
      3600,
      1800,
      604800,
      300,
      3600,
      now,
      now,
    ],
  );
  const PREFIX = ['host', 'mx', 'txt', 'alias', 'www', 'api'];
  await bulkInsert(
    handle,
    'dns_records',
    [
      { ...T, name: 'zone' },
      { ...T, name: 'qname' },
      { ...T, name: 'rtype' },
      { ...T, name: 'value' },
      { ...B, name: 'ttl' },
    ],
    RECORDS,
    (n) => {
      const i = Math.floor(n / ZONES);
      return [
        zoneName(n % ZONES),
        `${PREFIX[i % PREFIX.length]}${i}`,
        'A',
        `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        3600,
      ];
    },
  );
  if (handle.dialect === 'postgres') await sql`vacuum analyze`.execute(handle.db);
  else await sql`analyze`.execute(handle.db);
}

interface Scenario {
  measure: string;
  q: (r: () => number) => string;
}

/** What people type: a few letters of an address, a domain, a record name, and broad two-letter prefixes. */
const SCENARIOS: Scenario[] = [
  { measure: 'mailbox address prefix', q: (r) => `user${pad(Math.floor(r() * 10_000), 4)}` },
  { measure: 'alias source prefix', q: (r) => `alias${pad(Math.floor(r() * 100_000), 5)}` },
  {
    measure: 'domain / zone prefix',
    q: (r) => (r() < 0.5 ? `d${Math.floor(r() * 20)}.bench` : `z${pad(Math.floor(r() * 1000), 3)}`),
  },
  { measure: 'record name prefix', q: (r) => `host${Math.floor(r() * 1000)}` },
  {
    measure: 'broad 2-letter prefix (every group full)',
    q: (r) => ['us', 'al', 'ho', 'mx', 'd1', 'z0'][Math.floor(r() * 6)]!,
  },
  { measure: 'no match', q: (r) => `qq${Math.floor(r() * 1000)}` },
];

async function run(log: (m: string) => void): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cluster = await benchCluster(log);
  try {
    for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
      const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      if (dialect === 'postgres' && !cluster) {
        rows.push({ measure: `global search, ${name}`, value: 'skipped: no postgresql' });
        continue;
      }
      const db = await openBenchDb(dialect, cluster?.url);
      try {
        log(
          `seeding ${MAILBOXES} mailboxes, ${ALIASES} aliases, ${ZONES} zones, ${RECORDS} records on ${dialect}`,
        );
        const t0 = performance.now();
        await seedMail(db.handle, MAILBOXES, ALIASES);
        await seedDns(db.handle);
        log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
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
          for (const s of SCENARIOS) {
            const rnd = lcg(7);
            const url = () => `/api/search?q=${encodeURIComponent(s.q(rnd))}`;
            for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: url(), headers });
            const times: number[] = [];
            let hits = 0;
            for (let i = 0; i < REQUESTS; i++) {
              const u = url();
              const start = performance.now();
              const res = await app.inject({ method: 'GET', url: u, headers });
              times.push(performance.now() - start);
              if (res.statusCode !== 200) throw new Error(`${u}: ${res.statusCode} ${res.body}`);
              hits += res
                .json<{ groups: { hits: unknown[] }[] }>()
                .groups.reduce((n, g) => n + g.hits.length, 0);
            }
            times.sort((a, b) => a - b);
            const p50 = percentile(times, 50);
            const p99 = percentile(times, 99);
            rows.push({
              measure: `search: ${s.measure}, ${name}`,
              value: `p50 ${ms(p50)}, p99 ${ms(p99)}, ${(hits / REQUESTS).toFixed(1)} hits/answer`,
              goal: `p99 ≤ ${GOAL_P99} ms`,
              pass: p99 <= GOAL_P99,
              raw: { p50, p99, requests: REQUESTS, hitsPerAnswer: hits / REQUESTS },
            });
          }
          // The same queries without the HTTP stack (session check, validation, serialisation):
          // how much of the figure above is the database.
          const mix = SCENARIOS.map((s) => s.q);
          const rnd = lcg(11);
          const direct: number[] = [];
          for (let i = 0; i < REQUESTS * 2; i++) {
            const q = mix[i % mix.length]!(rnd);
            const start = performance.now();
            await search(db.handle.db, q);
            direct.push(performance.now() - start);
          }
          direct.sort((a, b) => a - b);
          rows.push({
            measure: `search service alone (all scenarios, no HTTP stack), ${name}`,
            value: `p50 ${ms(percentile(direct, 50))}, p99 ${ms(percentile(direct, 99))}`,
            raw: { p50: percentile(direct, 50), p99: percentile(direct, 99), calls: direct.length },
          });
        } finally {
          await app.close();
        }
      } finally {
        await db.close();
      }
    }
  } finally {
    await stopBenchCluster();
  }
  return rows;
}

const suite: BenchSuite = {
  name: 'search',
  description: `global search (GET /api/search, through the API stack) at ${MAILBOXES} mailboxes / ${ALIASES} aliases / ${RECORDS} records`,
  run: (ctx) => run((m) => ctx.log(m)),
};

export default suite;
