// The server's Fastify type augmentations (request.admin, auditTarget…) come with its source.
import type {} from '../../../server/src/http/route-config.d.ts';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { VHOST_DEFAULTS, type VirtualHostValues } from '@mailroom/contract/web/vhosts';
import { buildApp } from '../../../server/src/app.ts';
import type { AppDeps } from '../../../server/src/app-deps.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { openDatabase } from '../../../server/src/db/database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { addAdmin } from '../../../server/src/features/auth/admin.service.ts';
import { APACHE_PATHS } from '../../../server/src/features/web/stack/apache-layout.ts';
import { rollUpAccessLog } from '../../../server/src/features/web/stats/log-rollup.service.ts';
import { insertVhost } from '../../../server/src/features/web/vhosts/vhost.repository.ts';
import { localApacheDaemon } from '../../../server/src/features/web/web.module.ts';
import { Host } from '../../../server/src/host/host.ts';
import { freePort } from '../../../e2e/server-process.ts';
import { measureLoad } from '../lib/http-load.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { stockApache } from './stock-apache.ts';

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

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const loadavg = () => os.loadavg()[0]!.toFixed(2);

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
  // A static site: PHP (its own pool and PHP-FPM reload) is not part of this figure.
  enablePhp: false,
});

/** The folders above the data folder must be traversable by Apache's user (www-data). */
function openForApache(dir: string): void {
  for (let d = dir; d !== '/' && d !== path.dirname(d); d = path.dirname(d)) {
    if (d === '/tmp') break;
    chmodSync(d, 0o755);
  }
}

/**
 * Web hosting (issue 19) through the real product, Mailroom running Apache itself (local mode,
 * supervised, loopback ports): adding one virtual host at 1,000 existing through the API; requests
 * per second of a static page through the Apache Mailroom renders against a stock Debian Apache
 * serving the same file, same client, same run; the access-log roll-up's speed and delay.
 */
const suite: BenchSuite = {
  name: 'web',
  description: `add a virtual host at ${EXISTING} existing (API, check, reload, probe); static page req/s vs stock Apache; access-log roll-up`,
  async run(ctx) {
    if (process.getuid?.() !== 0)
      throw new Error('the web bench runs Apache as Mailroom does: run it as root');
    const rows: BenchRow[] = [];
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
    const database = openDatabase(config);
    await migrateToLatest(database.db);
    await addAdmin(database.db, ADMIN.email, ADMIN.password);
    const host = new Host(config.hostRoot, false);

    // Seed: the hosts through the repository in one transaction, their folders with an index page;
    // Mailroom renders them all at start (one apply) and then starts Apache on them.
    const t0 = performance.now();
    const names = Array.from({ length: EXISTING }, (_, i) => `site${String(i).padStart(4, '0')}.bench.test`);
    await database.db.transaction().execute(async (trx) => {
      for (const d of [...names, STATIC_SITE]) await insertVhost(trx, siteValues(d));
    });
    for (const d of [...names, STATIC_SITE]) {
      const root = host.path(`/var/www/${d}`);
      mkdirSync(root, { recursive: true });
      writeFileSync(
        path.join(root, 'index.html'),
        `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${d}</title></head><body><h1>${d}</h1></body></html>\n`,
      );
    }
    ctx.log(`seeded ${EXISTING + 1} hosts in ${(performance.now() - t0).toFixed(0)} ms`);

    // Where an add's time goes: the checks Apache runs (host.run) and the graceful restart's signal.
    const marks: { at: number; what: string; ms?: number }[] = [];
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
    const kill = process.kill.bind(process);
    process.kill = ((pid: number, signal?: string | number) => {
      if (signal === 'SIGUSR1') marks.push({ at: performance.now(), what: 'SIGUSR1' });
      return kill(pid, signal);
    }) as typeof process.kill;

    const deps: AppDeps = { config, database, host };
    const daemon = await localApacheDaemon(host, config);
    if (!daemon) throw new Error('apache2 is missing (Debian package apache2)');
    deps.webDaemon = daemon;
    const tStart = performance.now();
    const app = await buildApp(deps, { logger: { level: 'warn' } });
    const apiPort = await freePort();
    await app.listen({ port: apiPort, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${apiPort}`;
    let stock: ReturnType<typeof stockApache> | null = null;
    try {
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
      // The other areas check their files at start too (postmap, rspamadm…): the adds run after.
      while (running > 0 || performance.now() - lastRunEnd < 1500)
        await new Promise((r) => setTimeout(r, 100));
      ctx.log(`Mailroom rendered ${EXISTING + 1} hosts and started Apache in ${startMs.toFixed(0)} ms`);
      rows.push({
        measure: `start: render + check ${EXISTING + 1} hosts, start Apache`,
        value: `${(startMs / 1000).toFixed(2)} s`,
        raw: { ms: startMs },
      });

      // 1. N adds, each one end to end through the API.
      marks.length = 0;
      const addMs: number[] = [];
      const parts = {
        before: [] as number[],
        check: [] as number[],
        swap: [] as number[],
        after: [] as number[],
      };
      for (let i = 0; i < ADDS; i++) {
        const domain = `add${String(i).padStart(3, '0')}-${Date.now().toString(36)}.bench.test`;
        marks.length = 0;
        const s = performance.now();
        const res = await api('web/vhosts/add', {
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
        const check = marks.find((m) => m.what.startsWith('apache2 -t'));
        const sig = marks.find((m) => m.what === 'SIGUSR1');
        if (check?.ms !== undefined && sig) {
          parts.before.push(check.at - s);
          parts.check.push(check.ms);
          parts.swap.push(sig.at - (check.at + check.ms));
          parts.after.push(e - sig.at);
        }
        // The new site answers with its own page.
        if (!(await getPage(httpPort, domain)).includes(domain))
          throw new Error(`${domain} does not answer with its page`);
        ctx.log(
          `add ${i + 1}/${ADDS}: ${(e - s).toFixed(0)} ms (${marks.map((m) => `${m.what}${m.ms ? ` ${m.ms.toFixed(0)} ms` : ''}`).join(', ')})`,
        );
      }
      const p50 = median(addMs);
      rows.push({
        measure: `add one virtual host at ${EXISTING + 1} existing, API end to end: p50 / p99 / max (${ADDS} adds)`,
        value: `${p50.toFixed(0)} / ${quantile(addMs, 0.99).toFixed(0)} / ${Math.max(...addMs).toFixed(0)} ms`,
        goal: `p50 ≤ ${ADD_GOAL_MS} ms`,
        pass: p50 <= ADD_GOAL_MS,
        raw: {
          p50,
          p99: quantile(addMs, 0.99),
          max: Math.max(...addMs),
          min: Math.min(...addMs),
          load1: Number(loadavg()),
        },
      });
      if (parts.check.length)
        rows.push({
          measure:
            'where an add goes (medians): validate+commit dry-run+render | apache2 -t | swap | reload+probe+commit+answer',
          value: `${median(parts.before).toFixed(0)} | ${median(parts.check).toFixed(0)} | ${median(parts.swap).toFixed(0)} | ${median(parts.after).toFixed(0)} ms`,
          raw: {
            before: median(parts.before),
            check: median(parts.check),
            swap: median(parts.swap),
            after: median(parts.after),
          },
        });

      // 2. A static page: the Apache Mailroom renders against a stock Debian Apache, same file.
      const docRoot = host.path(`/var/www/${STATIC_SITE}`);
      const stockPort = await freePort();
      stock = stockApache(path.join(dataDir, 'stock'), stockPort, docRoot, STATIC_SITE);
      await stock.start();
      const mailroomUrl = `http://127.0.0.1:${httpPort}/`;
      const stockUrl = `http://127.0.0.1:${stockPort}/`;
      const same = await Promise.all([httpPort, stockPort].map((p) => getPage(p, STATIC_SITE)));
      if (same[0] !== same[1] || !same[0]!.includes(STATIC_SITE))
        throw new Error(`the two Apaches do not serve the same page: ${JSON.stringify(same)}`);
      const logFile = host.path(APACHE_PATHS.statsLog);
      // Lines already read are not part of the roll-up figure below.
      await rollUpAccessLog(deps);
      const mr: number[] = [];
      const st: number[] = [];
      const loads: string[] = [];
      for (let r = 0; r < LOAD_REPEATS; r++) {
        // Alternating, the stock first on even runs: neither side always runs on a warmer machine.
        const order = r % 2 === 0 ? (['stock', 'mailroom'] as const) : (['mailroom', 'stock'] as const);
        for (const which of order) {
          const res = await measureLoad({
            url: which === 'stock' ? stockUrl : mailroomUrl,
            headers: { host: STATIC_SITE },
            connections: CONNECTIONS,
            seconds: LOAD_SECONDS,
            warmupSeconds: QUICK ? 1 : 2,
          });
          (which === 'stock' ? st : mr).push(res.rps);
          ctx.log(
            `${which} run ${r + 1}: ${res.rps.toFixed(0)} req/s (p50 ${res.p50ms} ms, p99 ${res.p99ms} ms), load ${loadavg()}`,
          );
        }
        loads.push(loadavg());
      }
      const ratios = mr.map((m, i) => m / st[i]!);
      const ratio = median(ratios);
      rows.push({
        measure: `static page, Mailroom's Apache (req/s, ${LOAD_REPEATS} runs of ${LOAD_SECONDS} s, ${CONNECTIONS} conns)`,
        value: `${median(mr).toFixed(0)} (${spread(mr)})`,
        raw: Object.fromEntries(mr.map((v, i) => [`run${i + 1}`, v])),
      });
      rows.push({
        measure: `static page, stock Debian Apache (req/s, same client, same run)`,
        value: `${median(st).toFixed(0)} (${spread(st)})`,
        raw: Object.fromEntries(st.map((v, i) => [`run${i + 1}`, v])),
      });
      rows.push({
        measure: `Mailroom / stock req/s, median of ${LOAD_REPEATS} paired runs (load avg ${loads.join(', ')})`,
        value: `${ratio.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
        goal: `≥ ${RATIO_GOAL}`,
        pass: ratio >= RATIO_GOAL,
        raw: { ratio, min: Math.min(...ratios), max: Math.max(...ratios) },
      });
      await stock.stop();
      stock = null;

      // 3. The roll-up: the load's lines (real Apache lines in the shared log), read at once.
      const bytes = statSync(logFile).size;
      const r0 = performance.now();
      const rolled = await rollUpAccessLog(deps);
      const rollMs = performance.now() - r0;
      rows.push({
        measure: `access-log roll-up: lines read per second (${rolled.lines} lines, ${(bytes / 1e6).toFixed(1)} MB log)`,
        value: `${((rolled.lines / rollMs) * 1000).toFixed(0)} lines/s`,
        raw: { lines: rolled.lines, ms: rollMs, skipped: rolled.skipped },
      });
      // Delay: one request to a site, then the site's figures as the list shows them.
      const delays: number[] = [];
      for (let i = 0; i < (QUICK ? 2 : 5); i++) {
        const traffic = async () => {
          type Item = { domain: string; traffic: number };
          const res = await api(`web/vhosts?q=${STATIC_SITE}&limit=5`);
          const page = (await res.json()) as Item[] | { items: Item[] };
          if (!res.ok) throw new Error(`the list answered ${res.status}: ${JSON.stringify(page)}`);
          const items = Array.isArray(page) ? page : page.items;
          return items.find((v) => v.domain === STATIC_SITE)?.traffic ?? 0;
        };
        const before = await traffic();
        await getPage(httpPort, STATIC_SITE);
        const s = performance.now();
        let reads = 0;
        for (;;) {
          reads++;
          if ((await traffic()) > before) break;
          if (performance.now() - s > 60_000)
            throw new Error('a request did not show in the figures within 60 s');
        }
        delays.push(performance.now() - s);
        ctx.log(`request visible after ${(performance.now() - s).toFixed(0)} ms (${reads} list reads)`);
      }
      rows.push({
        measure: `delay until a request shows in the figures (list read rolls up; else every 30 s)`,
        value: `${median(delays).toFixed(0)} ms (${spread(delays)})`,
        raw: { median: median(delays), max: Math.max(...delays) },
      });
      writeFileSync(
        path.join(ctx.outDir, 'web-rendered-conf.txt'),
        readFileSync(host.path(APACHE_PATHS.confAvailable), 'utf8') +
          '\n' +
          readFileSync(host.path(`${APACHE_PATHS.sitesAvailable}/mailroom-${STATIC_SITE}.conf`), 'utf8'),
      );
      return rows;
    } finally {
      await stock?.stop();
      await app.close();
      await database.close();
      process.kill = kill;
      if (process.env.BENCH_WEB_KEEP !== '1') rmSync(dataDir, { recursive: true, force: true });
      else ctx.log(`kept ${dataDir}`);
    }
  },
};

export default suite;
