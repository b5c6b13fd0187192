// The server's Fastify type augmentations (request.admin, auditTarget…) come with its source.
import type {} from '../../../server/src/http/route-config.d.ts';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import type { Dialect } from '../../../server/src/db/database.ts';
import type { Database } from '../../../server/src/db/schema.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { mailboxJsonBatches } from '../../../server/src/features/mail/export/mail-export-json.repository.ts';
import { Host } from '../../../server/src/host/host.ts';
import { encodeCursor } from '../../../server/src/http/cursor.ts';
import { jsonArrayStream } from '../../../server/src/http/stream-export.ts';
import type { BenchContext, BenchRow } from '../suite.ts';
import { type BenchDb, benchCluster, ms, openBenchDb, percentile } from './bench-db.ts';
import { aliasSource, DOMAINS, seedMail } from './seed.ts';

const KEYSET_REQUESTS = 300;

/** A full garbage collection, so a memory figure starts from live data only. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const ADDS = 200;

/** A deterministic generator, so every run asks the same pages. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface BenchApp {
  app: FastifyInstance;
  headers: Record<string, string>;
}

/** An app on a seeded bench database, signed in, with the seeded domains' DKIM keys made. */
export async function benchApp(
  db: BenchDb,
  waitForDkim = true,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  const config = loadConfig({
    MAILROOM_DATA_DIR: db.dataDir,
    MAILROOM_WEB_DIST: path.join(db.dataDir, 'no-web'),
    ...env,
  });
  await addAdmin(db.handle.db, 'bench@example.com', 'bench-password-1');
  const app = await buildApp({ config, database: db.handle, host: new Host(config.hostRoot, false) });
  const login = await app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'bench@example.com', password: 'bench-password-1' },
  });
  const headers = { authorization: `Bearer ${login.json<{ api_key: string }>().api_key}` };
  if (waitForDkim)
    for (let i = 0; i < 600; i++) {
      const keys = await app.inject({ method: 'GET', url: '/api/mail/dkim', headers });
      if (keys.json<unknown[]>().length >= DOMAINS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  await untilIdle();
  return { app, headers };
}

/** CPU milliseconds of this process and its finished children (the checkers it ran). */
function processCpuMs(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

/**
 * Waits for the startup work to end (the first render of every zone and map after the DKIM keys,
 * with its checkers: about a second of CPU a few seconds after start): figures are of the steady
 * state, not of requests racing the startup apply for the two cores.
 */
async function untilIdle(): Promise<void> {
  let quiet = 0;
  let last = processCpuMs();
  for (let i = 0; i < 60 && quiet < 3; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = processCpuMs();
    quiet = now - last < 60 ? quiet + 1 : 0;
    last = now;
  }
}

async function timeRequests(
  b: BenchApp,
  url: (rnd: () => number) => string,
  n: number,
  extra: Record<string, string> = {},
  expect = 200,
): Promise<{ p50: number; p99: number; min: number; max: number; cpu: number }> {
  const rnd = lcg(7);
  for (let i = 0; i < 20; i++)
    await b.app.inject({ method: 'GET', url: url(rnd), headers: { ...b.headers, ...extra } });
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const u = url(rnd);
    const start = performance.now();
    const res = await b.app.inject({ method: 'GET', url: u, headers: { ...b.headers, ...extra } });
    times.push(performance.now() - start);
    if (res.statusCode !== expect) throw new Error(`${u}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
  const used = process.cpuUsage(cpu0);
  times.sort((a, c) => a - c);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    min: times[0]!,
    max: times[times.length - 1]!,
    // CPU time of this process per request (on SQLite the database works in-process too).
    cpu: (used.user + used.system) / 1000 / n,
  };
}

const after = (i: number) => encodeCursor({ sort: 'source', dir: 'after', keys: [aliasSource(i)] });
const before = (i: number) => encodeCursor({ sort: 'source', dir: 'before', keys: [aliasSource(i)] });

/** Keyset pages of the 1M-alias list: page 1 against page 10,000 and random deep positions. */
export async function keysetFigures(b: BenchApp, name: string, aliases: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const scenarios: [string, (r: () => number) => string, number?][] = [
    ['aliases: keyset page 1 (no cursor)', () => '/api/mail/aliases?limit=100&sort=source'],
    [
      'aliases: keyset page 10,000 (cursor after row 999,900)',
      () => `/api/mail/aliases?limit=100&sort=source&cursor=${after(aliases - 101)}`,
    ],
    [
      'aliases: keyset, next page at a random depth',
      (r) => `/api/mail/aliases?limit=100&sort=source&cursor=${after(Math.floor(r() * (aliases - 1)))}`,
    ],
    [
      'aliases: keyset, previous page at a random depth',
      (r) => `/api/mail/aliases?limit=100&sort=source&cursor=${before(1 + Math.floor(r() * (aliases - 1)))}`,
    ],
  ];
  for (const [measure, url] of scenarios) {
    const t = await timeRequests(b, url, KEYSET_REQUESTS);
    rows.push({
      measure: `${measure}, ${name}`,
      value: `p50 ${ms(t.p50)}, p99 ${ms(t.p99)} (min ${ms(t.min)}, max ${ms(t.max)}; CPU ${ms(t.cpu)}/request)`,
      goal: 'p99 ≤ 10 ms',
      pass: t.p99 <= 10,
      raw: { ...t, requests: KEYSET_REQUESTS },
    });
  }
  // A script re-reading an unchanged deep page: the ETag answers 304 without reading the list.
  const deep = `/api/mail/aliases?limit=100&sort=source&cursor=${after(aliases - 101)}`;
  const etag = (await b.app.inject({ method: 'GET', url: deep, headers: b.headers })).headers.etag as string;
  const t = await timeRequests(b, () => deep, KEYSET_REQUESTS, { 'if-none-match': etag }, 304);
  rows.push({
    measure: `aliases: unchanged deep page with If-None-Match (304), ${name}`,
    value: `p50 ${ms(t.p50)}, p99 ${ms(t.p99)}`,
    raw: { ...t, requests: KEYSET_REQUESTS },
  });
  return rows;
}

/**
 * The streamed CSV export of every alias over a real socket, read and thrown away by the client:
 * wall time, bytes, and the process's resident memory sampled every 10 ms while it runs.
 */
export async function exportFigure(b: BenchApp, name: string, aliases: number): Promise<BenchRow[]> {
  const address = await b.app.listen({ port: 0, host: '127.0.0.1' });
  const runs: {
    ms: number;
    cpu: number;
    bytes: number;
    rssStart: number;
    rssPeak: number;
    rssEnd: number;
    heapAfter: number;
  }[] = [];
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  for (let run = 0; run < 3; run++) {
    collectGarbage();
    const rssStart = process.memoryUsage.rss();
    const cpu0 = process.cpuUsage();
    let rssPeak = rssStart;
    const timer = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    }, 10);
    const start = performance.now();
    const bytes = await new Promise<number>((resolve, reject) => {
      http
        .get(`${address}/api/mail/aliases/export?format=csv`, { headers: b.headers }, (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => resolve(n));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    const elapsed = performance.now() - start;
    const used = process.cpuUsage(cpu0);
    clearInterval(timer);
    collectGarbage();
    runs.push({
      heapAfter: process.memoryUsage().heapUsed,
      ms: elapsed,
      cpu: (used.user + used.system) / 1000,
      bytes,
      rssStart,
      rssPeak,
      rssEnd: process.memoryUsage.rss(),
    });
  }
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const times = runs.map((r) => r.ms).sort((a, c) => a - c);
  const growth = Math.max(...runs.map((r) => r.rssPeak - r.rssStart));
  const median = times[1]!;
  return [
    {
      measure: `export ${aliases.toLocaleString('en')} aliases as streamed CSV (3 runs), ${name}`,
      value: `median ${(median / 1000).toFixed(2)} s (${times.map((t) => (t / 1000).toFixed(2)).join(' / ')} s; CPU of this process ${runs.map((r) => (r.cpu / 1000).toFixed(2)).join(' / ')} s), ${mb(runs[0]!.bytes)}`,
      goal: '≤ 3 s',
      pass: median <= 3000,
      raw: {
        medianMs: median,
        minMs: times[0]!,
        maxMs: times[2]!,
        cpuMs: Math.min(...runs.map((r) => r.cpu)),
        bytes: runs[0]!.bytes,
      },
    },
    {
      measure: `  resident memory during the export, ${name}`,
      value: `RSS after GC ${runs.map((r) => mb(r.rssStart)).join(' / ')}, peaks ${runs.map((r) => mb(r.rssPeak)).join(' / ')}, largest rise ${mb(growth)}; live heap ${mb(heapBefore)} before, ${runs.map((r) => mb(r.heapAfter)).join(' / ')} after each run`,
      // Garbage makes the resident size swing during a run; what stays alive must not grow.
      goal: 'flat: live heap after each run ≤ before + 5 MB',
      pass: Math.max(...runs.map((r) => r.heapAfter)) <= heapBefore + 5 * 1024 * 1024,
      raw: { rssStart: runs[0]!.rssStart, growth, bytes: runs[0]!.bytes },
    },
  ];
}

/** Median time of adding one alias (through the API, with its audit and DNS publication) at the current size. */
export async function aliasAddFigure(
  b: BenchApp,
  name: string,
  size: string,
  tag: string,
): Promise<BenchRow> {
  const times: number[] = [];
  let cpu0 = process.cpuUsage();
  for (let i = 0; i < ADDS + 20; i++) {
    if (i === 20) cpu0 = process.cpuUsage();
    const payload = {
      source: `add-${tag}-${i}@d${i % DOMAINS}.bench.test`,
      destination: `user${String(i % 5000).padStart(6, '0')}@d${i % DOMAINS}.bench.test`,
    };
    const start = performance.now();
    const res = await b.app.inject({
      method: 'POST',
      url: '/api/mail/aliases/add',
      headers: b.headers,
      payload,
    });
    if (i >= 20) times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`alias add: ${res.statusCode} ${res.body}`);
  }
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1000 / ADDS;
  times.sort((a, c) => a - c);
  const p50 = percentile(times, 50);
  return {
    measure: `alias add at ${size} aliases (${ADDS} adds), ${name}`,
    value: `median ${ms(p50)}, p90 ${ms(percentile(times, 90))}, min ${ms(times[0]!)}; CPU ${ms(cpu)}/add`,
    goal: '≤ 5 ms, flat',
    pass: p50 <= 5,
    raw: { p50, p90: percentile(times, 90), min: times[0]!, max: times[times.length - 1]!, cpu },
  };
}

/** All mailboxes of a 10k-mailbox server as one streamed JSON answer (server time, in process). */
/** p50 and min of `n` runs of `fn` (after 5 unmeasured), in ms. */
async function stageTime(fn: () => Promise<unknown>, n = 30): Promise<{ p50: number; min: number }> {
  for (let i = 0; i < 5; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    t.push(performance.now() - start);
  }
  t.sort((a, c) => a - c);
  return { p50: percentile(t, 50), min: t[0]! };
}

/**
 * Where the export's time goes, for the log: the database's batches alone; the same through the
 * answer's stream into a socket-like sink (each write acknowledged on the next turn, as the inject's
 * socket does); and a tiny authenticated request (routing, session, hooks). The figure minus the
 * stream stage is the inject's own handling of the body (a copy per write, one concat and decode).
 */
async function mailboxJsonStages(
  b: BenchApp,
  db: Kysely<Database>,
): Promise<Record<string, { p50: number; min: number }>> {
  const query = await stageTime(async () => {
    for await (const piece of mailboxJsonBatches(db)) void piece;
  });
  const stream = await stageTime(
    () =>
      new Promise<void>((resolve, reject) => {
        const sink = new Writable({ write: (_c, _e, cb) => setImmediate(cb) });
        jsonArrayStream(mailboxJsonBatches(db)).on('error', reject).pipe(sink).on('finish', resolve);
      }),
  );
  const tiny = await stageTime(() =>
    b.app.inject({ method: 'GET', url: '/auth/status', headers: b.headers }),
  );
  return { query, stream, tiny };
}

export async function mailboxJsonFigure(
  b: BenchApp,
  name: string,
  stages?: { db: Kysely<Database>; log: (m: string) => void },
): Promise<BenchRow> {
  const t = await timeRequests(b, () => '/api/mail/users/export?format=json', 100);
  const s = stages ? await mailboxJsonStages(b, stages.db) : undefined;
  if (s && stages)
    stages.log(
      `mailbox JSON export stages, ${name} (p50/min): ${Object.entries({ ...s, inject: t })
        .map(([k, v]) => `${k} ${v.p50.toFixed(2)}/${v.min.toFixed(2)} ms`)
        .join(', ')}`,
    );
  return {
    measure: `all 10,000 mailboxes as one streamed JSON answer, ${name}`,
    value: `p50 ${ms(t.p50)}, p99 ${ms(t.p99)} (min ${ms(t.min)}; CPU ${ms(t.cpu)}/request)`,
    goal: '≤ 15 ms',
    pass: t.p50 <= 15,
    raw: {
      ...t,
      requests: 100,
      ...Object.fromEntries(
        Object.entries(s ?? {}).flatMap(([k, v]) => [
          [`${k}P50`, v.p50],
          [`${k}Min`, v.min],
        ]),
      ),
    },
  };
}

/** The smaller sizes: 10k mailboxes as JSON, alias add at 10k and 100k aliases. */
export async function pagingBench(ctx: BenchContext): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const cluster = await benchCluster((m) => ctx.log(m));
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    if (dialect === 'postgres' && !cluster) {
      rows.push({ measure: `exports and alias add, ${name}`, value: 'skipped: no postgresql' });
      continue;
    }
    for (const aliases of [10_000, 100_000]) {
      const db = await openBenchDb(dialect, cluster?.url);
      try {
        ctx.log(`seeding 10000 mailboxes and ${aliases} aliases on ${dialect}`);
        await seedMail(db.handle, 10_000, aliases);
        const b = await benchApp(db);
        try {
          if (aliases === 10_000)
            rows.push(await mailboxJsonFigure(b, name, { db: db.handle.db, log: (m) => ctx.log(m) }));
          rows.push(await aliasAddFigure(b, name, aliases.toLocaleString('en'), `s${aliases}`));
        } finally {
          await b.app.close();
        }
      } finally {
        await db.close();
      }
    }
  }
  return rows;
}
