// The server's Fastify type augmentations (request.admin, auditTarget…) come with its source.
import type {} from '../../../server/src/http/route-config.d.ts';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { VHOST_DEFAULTS, type VirtualHostValues } from '@mailroom/contract/web/vhosts';
import { buildApp } from '../../../server/src/app.ts';
import type { AppDeps } from '../../../server/src/app-deps.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../../server/src/db/database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { APACHE_PATHS } from '../../../server/src/features/web/stack/apache.layout.ts';
import { rollUpAccessLog } from '../../../server/src/features/web/stats/log-rollup.service.ts';
import { figuresLogPath } from '../../../server/src/features/web/settings/apache-conf.renderer.ts';
import { readWebSettings } from '../../../server/src/features/web/settings/web-settings.repository.ts';
import { insertVhost } from '../../../server/src/features/web/vhosts/vhost.repository.ts';
import { localApacheDaemon } from '../../../server/src/features/web/web.module.ts';
import { Host } from '../../../server/src/host/host.ts';
import { freePort } from '../../../e2e/server-process.ts';
import type { LoadOptions, LoadResult } from '../lib/http-load.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';
import { type PlainApache, stockApache } from './stock-apache.ts';

const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };
const QUICK = process.env.BENCH_WEB_QUICK === '1';
/** Hosts already there when the timed adds run. */
const EXISTING = Number(process.env.BENCH_WEB_HOSTS ?? 1_000);
const ADDS = Number(process.env.BENCH_WEB_ADDS ?? (QUICK ? 3 : 20));
const LOAD_SECONDS = Number(process.env.BENCH_WEB_SECONDS ?? (QUICK ? 2 : 10));
const LOAD_REPEATS = Number(process.env.BENCH_WEB_REPEATS ?? (QUICK ? 1 : 3));
const CONNECTIONS = 8;
const ADD_GOAL_MS = 300;
const RATIO_GOAL = 0.95;
const STATIC_SITE = 'static.bench.test';
/** BENCH_WEB_LOAD=0: the adds and the roll-up only (no load runs). */
const LOAD = process.env.BENCH_WEB_LOAD !== '0';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const spread = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const loadavg = () => os.loadavg()[0]!.toFixed(2);
const seededName = (i: number) => `site${String(i).padStart(4, '0')}.bench.test`;

/** GET / on a port with a Host header (fetch cannot set Host): the body. */
function getPage(port: number, hostName: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', headers: { host: hostName }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      })
      .on('error', reject);
  });
}

const siteValues = (domain: string): VirtualHostValues => ({
  ...VHOST_DEFAULTS,
  domain,
  serverName: domain,
  documentRoot: `/var/www/${domain}`,
  // A static site: PHP (its own pool and PHP-FPM reload) is not part of these figures.
  enablePhp: false,
});

/** The folders above the data folder must be traversable by Apache's user (www-data). */
function openForApache(dir: string): void {
  for (let d = dir; d !== '/' && d !== path.dirname(d); d = path.dirname(d)) {
    if (d === '/tmp') break;
    chmodSync(d, 0o755);
  }
}

/** When the host runs a program, and for how long; when Apache is sent its graceful restart. */
interface Mark {
  at: number;
  what: string;
  ms?: number;
}

export interface MailroomWeb {
  dataDir: string;
  host: Host;
  deps: AppDeps;
  httpPort: number;
  api(p: string, init?: RequestInit): Promise<Response>;
  marks: Mark[];
  /** Resolves once no program the host runs has been running for a while (start-up checks done). */
  quiet(): Promise<void>;
  startMs: number;
  close(): Promise<void>;
}

/**
 * Mailroom in this process as main.ts builds it in local mode as root: its database (`existing`
 * hosts seeded through the repository, plus the static site), Apache supervised on loopback ports
 * from the files it renders at start, the API on a loopback port.
 */
export async function startMailroomWeb(ctx: BenchContext, existing: number): Promise<MailroomWeb> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-web-'));
  openForApache(dataDir);
  const httpPort = await freePort();
  const config = loadConfig({
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
    MAILROOM_HTTP_PORT: String(httpPort),
    MAILROOM_HTTPS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  });
  const database: DatabaseHandle = openDatabase(config);
  await migrateToLatest(database.db);
  await addAdmin(database.db, ADMIN.email, ADMIN.password);
  const host = new Host(config.hostRoot, false);

  // Seed: the hosts through the repository in one transaction, their folders with an index page;
  // Mailroom renders them all at start (one apply) and then starts Apache on them.
  const t0 = performance.now();
  const names = [...Array.from({ length: existing }, (_, i) => seededName(i)), STATIC_SITE];
  await database.db.transaction().execute(async (trx) => {
    for (const d of names) await insertVhost(trx, siteValues(d));
  });
  for (const d of names) {
    const root = host.path(`/var/www/${d}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, 'index.html'),
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${d}</title></head><body><h1>${d}</h1></body></html>\n`,
    );
  }
  ctx.log(`seeded ${names.length} hosts in ${(performance.now() - t0).toFixed(0)} ms`);

  const marks: Mark[] = [];
  let running = 0;
  let lastRunEnd = performance.now();
  const run = host.run.bind(host);
  host.run = async (bin, args, opts) => {
    const s = performance.now();
    running++;
    try {
      return await run(bin, args, opts);
    } finally {
      running--;
      lastRunEnd = performance.now();
      marks.push({ at: s, what: `${path.basename(bin)} ${args[0] ?? ''}`, ms: lastRunEnd - s });
    }
  };

  const deps: AppDeps = { config, database, host };
  const daemon = await localApacheDaemon(host, config);
  if (!daemon) throw new Error('apache2 is missing (Debian package apache2)');
  deps.webDaemon = daemon;
  const tStart = performance.now();
  let app: FastifyInstance | null = null;
  const close = async () => {
    await app?.close();
    await database.close();
    if (process.env.BENCH_WEB_KEEP !== '1') rmSync(dataDir, { recursive: true, force: true });
    else ctx.log(`kept ${dataDir}`);
  };
  try {
    app = await buildApp(deps, { logger: { level: 'warn' } });
    const apiPort = await freePort();
    await app.listen({ port: apiPort, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${apiPort}`;
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const key = ((await login.json()) as { api_key: string }).api_key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const api = (p: string, init: RequestInit = {}) => fetch(`${base}/api/${p}`, { ...init, headers });
    // Apache is up once the startup render of every host has been checked and it runs.
    for (let until = Date.now() + 120_000; ;) {
      const d = (await (await api('web/dashboard')).json()) as { status: { state: string }[] };
      if (d.status[0]?.state === 'running') break;
      if (Date.now() > until) throw new Error('Apache did not start within 120 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    const startMs = performance.now() - tStart;
    ctx.log(`Mailroom rendered ${names.length} hosts and started Apache in ${startMs.toFixed(0)} ms`);
    const quiet = async () => {
      // The other areas check their files at start too (postmap, rspamadm…).
      while (running > 0 || performance.now() - lastRunEnd < 1500)
        await new Promise((r) => setTimeout(r, 100));
    };
    return { dataDir, host, deps, httpPort, api, marks, quiet, startMs, close };
  } catch (err) {
    await close();
    throw err;
  }
}

interface Side {
  label: string;
  port: number;
  /** Apache's CPU seconds so far (null: not known for this side). */
  cpu: () => number | null;
}

/** Mailroom's supervised Apache: its master's pid file, its children by parent pid. */
export function mailroomCpu(host: Host): () => number | null {
  return () => {
    const pid = Number(readFileSync(host.path(APACHE_PATHS.pidFile), 'utf8').trim());
    return procCpu(pid);
  };
}

/** CPU seconds of a process, the children it reaped, and its live children (/proc). */
export function procCpu(pid: number): number | null {
  const fields = (p: string | number) => {
    try {
      const st = readFileSync(`/proc/${p}/stat`, 'utf8');
      return st.slice(st.lastIndexOf(')') + 2).split(' ');
    } catch {
      return null;
    }
  };
  const m = fields(pid);
  if (!m) return null;
  let ticks = Number(m[11]) + Number(m[12]) + Number(m[13]) + Number(m[14]);
  for (const d of readdirProc()) {
    const f = fields(d);
    if (f && Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / 100;
}
const readdirProc = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d));

const apacheSide = (label: string, a: PlainApache, port: number): Side => ({
  label,
  port,
  cpu: () => a.cpuSeconds(),
});

/** autocannon in its own process (load-child.ts): Mailroom's timers here never pause the client. */
export function loadInChild(opts: LoadOptions): Promise<LoadResult & { clientUs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'load-child.ts'), JSON.stringify(opts)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load run failed (${code}): ${err.trim()}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult & { clientUs: number });
    });
  });
}

/**
 * Paired load runs, alternating which side goes first: requests per second and Apache's CPU per
 * request (which a busy machine changes far less than requests per second) of each side.
 */
async function compare(
  ctx: BenchContext,
  sides: Side[],
): Promise<Map<string, { rps: number[]; cpuUs: number[] }>> {
  const out = new Map(sides.map((s) => [s.label, { rps: [] as number[], cpuUs: [] as number[] }]));
  for (let r = 0; r < LOAD_REPEATS; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const c0 = side.cpu();
      const res = await loadInChild({
        url: `http://127.0.0.1:${side.port}/`,
        headers: { host: STATIC_SITE },
        connections: CONNECTIONS,
        seconds: LOAD_SECONDS,
        warmupSeconds: QUICK ? 1 : 2,
      });
      const c1 = side.cpu();
      // The warm-up's requests are not counted but its CPU is: a slight overestimate, the same for every side.
      const cpuUs = c0 !== null && c1 !== null ? ((c1 - c0) / res.requests) * 1e6 : NaN;
      out.get(side.label)!.rps.push(res.rps);
      out.get(side.label)!.cpuUs.push(cpuUs);
      ctx.log(
        `${side.label} run ${r + 1}: ${res.rps.toFixed(0)} req/s, Apache CPU ${cpuUs.toFixed(1)} µs/request, client ${res.clientUs.toFixed(1)} µs/request (p50 ${res.p50ms} ms, p99 ${res.p99ms} ms), load ${loadavg()}`,
      );
    }
  }
  return out;
}

function ratioRows(
  figures: Map<string, { rps: number[]; cpuUs: number[] }>,
  mailroom: string,
  stock: string,
  what: string,
  goal: boolean,
): BenchRow[] {
  const m = figures.get(mailroom)!;
  const s = figures.get(stock)!;
  const ratios = m.rps.map((v, i) => v / s.rps[i]!);
  const cpu = m.cpuUs.map((v, i) => s.cpuUs[i]! / v);
  return [
    {
      measure: `${what}: req/s Mailroom / stock, median of ${ratios.length} paired runs (range)`,
      value: `${median(m.rps).toFixed(0)} / ${median(s.rps).toFixed(0)} = ${median(ratios).toFixed(2)} (${spread(ratios, 2)})`,
      ...(goal ? { goal: `≥ ${RATIO_GOAL}`, pass: median(ratios) >= RATIO_GOAL } : {}),
      raw: {
        ratio: median(ratios),
        ...Object.fromEntries(m.rps.map((v, i) => [`mailroom${i + 1}`, v])),
        ...Object.fromEntries(s.rps.map((v, i) => [`stock${i + 1}`, v])),
      },
    },
    {
      measure: `${what}: Apache CPU per request, Mailroom vs stock (stock/Mailroom)`,
      value: `${median(m.cpuUs).toFixed(0)} vs ${median(s.cpuUs).toFixed(0)} µs (${median(cpu).toFixed(2)}, ${spread(cpu, 2)})`,
      raw: { mailroomUs: median(m.cpuUs), stockUs: median(s.cpuUs), ratio: median(cpu) },
    },
  ];
}

/**
 * Web hosting (issue 19) through the real product, Mailroom running Apache itself (local mode,
 * supervised, loopback ports): requests per second of a static page through the Apache Mailroom
 * renders against a stock Debian Apache serving the same file (same client, same run); adding one
 * virtual host at 1,000 existing through the API; the access-log roll-up's speed and delay.
 */
const suite: BenchSuite = {
  name: 'web',
  description: `static page req/s vs stock Apache; add a virtual host at ${EXISTING} existing (API, check, reload, probe); access-log roll-up`,
  async run(ctx) {
    if (process.getuid?.() !== 0)
      throw new Error('the web bench runs Apache as Mailroom does (local mode as root): run it as root');
    const rows: BenchRow[] = [];
    ctx.log(
      `load average at start: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    // A. One site: what Mailroom's configuration costs a static page, against a stock Apache.
    if (LOAD) {
      const mr = await startMailroomWeb(ctx, 0);
      let stock: PlainApache | null = null;
      try {
        await mr.quiet();
        const docRoot = mr.host.path(`/var/www/${STATIC_SITE}`);
        const stockPort = await freePort();
        stock = stockApache(path.join(mr.dataDir, 'stock'), stockPort, docRoot, STATIC_SITE);
        await stock.start();
        const same = await Promise.all([mr.httpPort, stockPort].map((p) => getPage(p, STATIC_SITE)));
        if (same[0] !== same[1] || !same[0]!.includes(STATIC_SITE))
          throw new Error(`the two Apaches do not serve the same page: ${JSON.stringify(same)}`);
        const figures = await compare(ctx, [
          { label: 'mailroom (1 site)', port: mr.httpPort, cpu: mailroomCpu(mr.host) },
          apacheSide('stock (1 site)', stock, stockPort),
        ]);
        rows.push(
          ...ratioRows(figures, 'mailroom (1 site)', 'stock (1 site)', 'static page, 1 site each', true),
        );
        writeFileSync(
          path.join(ctx.outDir, 'web-rendered-conf.txt'),
          readFileSync(mr.host.path(APACHE_PATHS.main), 'utf8') +
            '\n' +
            readFileSync(mr.host.path(APACHE_PATHS.confAvailable), 'utf8') +
            '\n' +
            readFileSync(mr.host.path(`${APACHE_PATHS.sitesAvailable}/mailroom-${STATIC_SITE}.conf`), 'utf8'),
        );
      } finally {
        await stock?.stop();
        await mr.close();
      }
    }

    // B. 1,000 sites: adds, the static page among them, the roll-up.
    const mr = await startMailroomWeb(ctx, EXISTING);
    let stocks: PlainApache[] = [];
    try {
      rows.push({
        measure: `start: render + check ${EXISTING + 1} hosts, start Apache`,
        value: `${(mr.startMs / 1000).toFixed(2)} s`,
        raw: { ms: mr.startMs },
      });
      await mr.quiet();
      const kill = process.kill.bind(process);
      process.kill = (pid: number, signal?: string | number) => {
        if (signal === 'SIGUSR1') mr.marks.push({ at: performance.now(), what: 'SIGUSR1' });
        return kill(pid, signal);
      };
      const addMs: number[] = [];
      const parts = {
        before: [] as number[],
        check: [] as number[],
        swap: [] as number[],
        reload: [] as number[],
        user: [] as number[],
        rest: [] as number[],
      };
      try {
        for (let i = 0; i < ADDS; i++) {
          const domain = `add${String(i).padStart(3, '0')}-${Date.now().toString(36)}.bench.test`;
          mr.marks.length = 0;
          const s = performance.now();
          const res = await mr.api('web/vhosts/add', {
            method: 'POST',
            body: JSON.stringify({
              domain,
              serverName: domain,
              documentRoot: `/var/www/${domain}`,
              enablePhp: false,
            }),
          });
          const body = await res.text();
          const e = performance.now();
          if (!res.ok) throw new Error(`add ${domain} answered ${res.status}: ${body}`);
          addMs.push(e - s);
          const check = mr.marks.find((m) => m.what.startsWith('apache2 -t'));
          const sig = mr.marks.find((m) => m.what === 'SIGUSR1');
          const user = mr.marks.find((m) => m.what.startsWith('useradd'));
          if (check?.ms !== undefined && sig) {
            parts.before.push(check.at - s);
            parts.check.push(check.ms);
            parts.swap.push(sig.at - (check.at + check.ms));
            const reloadEnd = user ? user.at : e;
            parts.reload.push(reloadEnd - sig.at);
            // A site user is made once per site id on a machine (useradd); a rerun finds it there.
            if (user) parts.user.push(user.ms!);
            parts.rest.push(e - (user ? user.at + user.ms! : e));
          }
          // The new site answers with its own page.
          if (!(await getPage(mr.httpPort, domain)).includes(domain))
            throw new Error(`${domain} does not answer with its page`);
          ctx.log(
            `add ${i + 1}/${ADDS}: ${(e - s).toFixed(0)} ms (${mr.marks.map((m) => `${m.what}${m.ms ? ` ${m.ms.toFixed(0)} ms` : ''}`).join(', ')})`,
          );
        }
      } finally {
        process.kill = kill;
      }
      const p50 = median(addMs);
      rows.push({
        measure: `add one virtual host at ${EXISTING + 1} existing, API end to end: p50 / p99 / min–max (${ADDS} adds, load ${loadavg()})`,
        value: `${p50.toFixed(0)} / ${quantile(addMs, 0.99).toFixed(0)} / ${spread(addMs)} ms`,
        goal: `p50 ≤ ${ADD_GOAL_MS} ms`,
        pass: p50 <= ADD_GOAL_MS,
        raw: { p50, p99: quantile(addMs, 0.99), max: Math.max(...addMs), min: Math.min(...addMs) },
      });
      if (parts.check.length)
        rows.push({
          measure: `where an add goes (medians): validate+dry-run+render | apache2 -t | commit+swap | graceful restart+probe | useradd (new site user, ${parts.user.length} of ${parts.check.length} adds) | answer`,
          value: (['before', 'check', 'swap', 'reload', 'user', 'rest'] as const)
            .map((k) => (parts[k].length ? median(parts[k]).toFixed(0) : '–'))
            .join(' | ')
            .concat(' ms'),
          raw: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, median(v)])),
        });

      // The static page among the 1,000 sites, against a stock Apache with one site and with the same sites.
      for (let i = 0; LOAD === false && i < 2000; i++) await getPage(mr.httpPort, STATIC_SITE);
      if (LOAD) {
        const docRoot = mr.host.path(`/var/www/${STATIC_SITE}`);
        const onePort = await freePort();
        const manyPort = await freePort();
        const one = stockApache(path.join(mr.dataDir, 'stock-one'), onePort, docRoot, STATIC_SITE);
        const others = Array.from({ length: EXISTING }, (_, i) => ({
          name: seededName(i),
          docRoot: mr.host.path(`/var/www/${seededName(i)}`),
        }));
        const many = stockApache(path.join(mr.dataDir, 'stock-many'), manyPort, docRoot, STATIC_SITE, others);
        stocks = [one, many];
        await one.start();
        await many.start();
        // Lines already there are not part of the roll-up figure below.
        await rollUpAccessLog(mr.deps);
        const label = `mailroom (${EXISTING + ADDS + 1} sites)`;
        const figures = await compare(ctx, [
          { label, port: mr.httpPort, cpu: mailroomCpu(mr.host) },
          apacheSide('stock (1 site)', one, onePort),
          apacheSide(`stock (${EXISTING + 1} sites)`, many, manyPort),
        ]);
        rows.push(
          ...ratioRows(
            figures,
            label,
            'stock (1 site)',
            `static page, Mailroom with ${EXISTING + ADDS + 1} sites vs stock with 1`,
            true,
          ),
          ...ratioRows(
            figures,
            label,
            `stock (${EXISTING + 1} sites)`,
            `static page, Mailroom with ${EXISTING + ADDS + 1} sites vs stock with the same ${EXISTING + 1}`,
            true,
          ),
        );
        for (const s of stocks) await s.stop();
        stocks = [];
      }

      // C. The roll-up: the load's lines (real Apache lines in the shared log), read at once.
      // Mailroom's own roll-up (every 30 s) has read the log during the load: a second database,
      // which has read nothing yet, reads the whole log at once.
      const bytes = statSync(mr.host.path(figuresLogPath(await readWebSettings(mr.deps.database.db)))).size;
      const fresh = openDatabase({ dataDir: mkdtempSync(path.join(mr.dataDir, 'rollup-db-')) });
      await migrateToLatest(fresh.db);
      const r0 = performance.now();
      const rolled = await rollUpAccessLog({ ...mr.deps, database: fresh });
      const rollMs = performance.now() - r0;
      await fresh.close();
      rows.push({
        measure: `access-log roll-up: lines read per second (${rolled.lines} lines in ${rollMs.toFixed(0)} ms, log ${(bytes / 1e6).toFixed(1)} MB)`,
        value: `${((rolled.lines / rollMs) * 1000).toFixed(0)} lines/s`,
        raw: { lines: rolled.lines, ms: rollMs, skipped: rolled.skipped },
      });
      // Delay: one request to a site, then the site's figures as the list shows them.
      const delays: number[] = [];
      const readsNeeded: number[] = [];
      for (let i = 0; i < (QUICK ? 2 : 10); i++) {
        const traffic = async () => {
          type Item = { domain: string; traffic: number };
          const res = await mr.api(`web/vhosts?q=${STATIC_SITE}&limit=5`);
          const page = (await res.json()) as Item[] | { items: Item[] };
          if (!res.ok) throw new Error(`the list answered ${res.status}: ${JSON.stringify(page)}`);
          const items = Array.isArray(page) ? page : page.items;
          return items.find((v) => v.domain === STATIC_SITE)?.traffic ?? 0;
        };
        const before = await traffic();
        await getPage(mr.httpPort, STATIC_SITE);
        const s = performance.now();
        let reads = 0;
        for (;;) {
          reads++;
          if ((await traffic()) > before) break;
          if (performance.now() - s > 60_000)
            throw new Error('a request did not show in the figures within 60 s');
        }
        delays.push(performance.now() - s);
        readsNeeded.push(reads);
      }
      rows.push({
        measure: `delay from a response to its request in the list's figures (list reads roll up; else every 30 s), ${delays.length} requests`,
        value: `${median(delays).toFixed(0)} ms (${spread(delays)}), ${median(readsNeeded)} list read(s)`,
        raw: { median: median(delays), max: Math.max(...delays), reads: Math.max(...readsNeeded) },
      });
      return rows;
    } finally {
      for (const s of stocks) await s.stop();
      await mr.close();
    }
  },
};

export default suite;
