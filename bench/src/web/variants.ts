// Where the static-page cost of Mailroom's Apache goes: a copy of a rendered tree (kept by
// `BENCH_WEB_KEEP=1 npm run bench -- web`), edited by hand one directive at a time, each measured
// against the stock Debian Apache with the same client.
//   npx tsx bench/src/web/variants.ts /tmp/mailroom-bench-web-XXXX [seconds] [only-variant,...]
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../e2e/server-process.ts';
import { measureLoad } from '../lib/http-load.ts';
import { PlainApache, stockApache } from './stock-apache.ts';

const [dataDir, secondsArg, onlyArg] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: variants.ts <kept data folder> [seconds] [variants]');
const SECONDS = Number(secondsArg ?? 3);
const SITE = 'static.bench.test';
const live = path.join(dataDir, 'root/etc/apache2');
const CONF = 'conf-available/zz-mailroom.conf';
const SITE_FILE = `sites-available/mailroom-${SITE}.conf`;

type Edit = { conf?: (s: string) => string; site?: (s: string) => string; onlySite?: boolean };
const drop = (re: RegExp) => (s: string) => s.replace(re, '');
const VARIANTS: Record<string, Edit> = {
  base: {},
  followSymLinks: { site: (s) => s.replace('Options SymLinksIfOwnerMatch', 'Options FollowSymLinks') },
  noCombinedLog: { conf: drop(/^CustomLog .*access\.log" combined\n/m) },
  statsLogNoExpr: { conf: (s) => s.replace(/(mailroom_stats) "expr=[^\n]*/, '$1') },
  noStatsLog: { conf: drop(/^CustomLog .*mailroom-access\.log.*\n/m) },
  noProbeHeader: { site: drop(/^ {2}Header always set X-Mailroom-Probe.*\n/m) },
  noSecurityHeaders: {
    conf: drop(/^Header always set .*\n/gm),
    site: drop(/^ {2}SetEnvIf Request_URI.*\n/gm),
  },
  noRewrite: { site: drop(/^ {2}Rewrite.*\n/gm), conf: drop(/^RewriteEngine On\n/m) },
  noDeflate: { site: drop(/^ {2}AddOutputFilterByType DEFLATE.*\n/m) },
  noExpires: { site: drop(/^ {2}Expires.*\n/gm), conf: drop(/^Expires.*\n/gm) },
  noETag: { conf: (s) => s.replace('FileETag MTime Size', 'FileETag None') },
  maxConnPerChild0: { conf: (s) => s.replace(/MaxConnectionsPerChild \d+/, 'MaxConnectionsPerChild 0') },
  logLevelWarn: { conf: (s) => s.replace(/^LogLevel \w+/m, 'LogLevel warn') },
  onlyThisSite: { onlySite: true },
};

/** A copy of the rendered tree with `edit` applied, served on the live port by a plain apache2. */
function variantTree(work: string, edit: Edit): string {
  const dir = path.join(work, 'apache2');
  rmSync(work, { recursive: true, force: true });
  cpSync(live, dir, { recursive: true, verbatimSymlinks: true });
  const patch = (rel: string, f?: (s: string) => string) => {
    if (!f) return;
    const file = path.join(dir, rel);
    const before = readFileSync(file, 'utf8');
    const after = f(before);
    if (after === before) throw new Error(`the edit changed nothing in ${rel}`);
    writeFileSync(file, after);
  };
  if (edit.conf) patch(CONF, edit.conf);
  if (edit.site) patch(SITE_FILE, edit.site);
  if (edit.onlySite)
    for (const f of readdirSync(path.join(dir, 'sites-enabled')))
      if (f !== `mailroom-${SITE}.conf` && !f.startsWith('00-')) rmSync(path.join(dir, 'sites-enabled', f));
  return dir;
}

const port = Number(
  /Listen 127\.0\.0\.1:(\d+)/.exec(readFileSync(path.join(live, 'ports.conf'), 'utf8'))![1],
);
const stockPort = await freePort();
const stockWork = path.join(os.tmpdir(), `mailroom-bench-stock-${process.pid}`);
const stock = stockApache(stockWork, stockPort, path.join(dataDir, 'root/var/www', SITE), SITE);
await stock.start();
const load = (p: number) =>
  measureLoad({
    url: `http://127.0.0.1:${p}/`,
    headers: { host: SITE },
    connections: 8,
    seconds: SECONDS,
    warmupSeconds: 1,
  });
try {
  const names = onlyArg ? onlyArg.split(',') : Object.keys(VARIANTS);
  for (const name of names) {
    // `a+b`: both edits on the same copy.
    const parts = name.split('+').map((n) => {
      const e = VARIANTS[n];
      if (!e) throw new Error(`no variant ${n}`);
      return e;
    });
    const compose = (fs: ((s: string) => string)[]) =>
      fs.length ? (s: string) => fs.reduce((acc, f) => f(acc), s) : undefined;
    const edit: Edit = {
      conf: compose(parts.flatMap((e) => (e.conf ? [e.conf] : []))),
      site: compose(parts.flatMap((e) => (e.site ? [e.site] : []))),
      onlySite: parts.some((e) => e.onlySite),
    };
    const work = path.join(os.tmpdir(), `mailroom-bench-variant-${process.pid}`);
    const a = new PlainApache(variantTree(work, edit), port);
    await a.start();
    try {
      if (process.env.SHOW_HEADERS === '1')
        for (const p of [stockPort, port]) {
          const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
            http
              .get({ host: '127.0.0.1', port: p, path: '/', headers: { host: SITE }, agent: false }, resolve)
              .on('error', reject),
          );
          res.resume();
          process.stdout.write(
            `${p === port ? name : 'stock'}: ${res.statusCode}\n${res.rawHeaders.map((h, i) => (i % 2 ? `${h}\n` : `  ${h}: `)).join('')}`,
          );
        }
      const measured = async (apache: PlainApache, p: number) => {
        const c0 = apache.cpuSeconds();
        const u0 = process.cpuUsage();
        const r = await load(p);
        const u = process.cpuUsage(u0);
        // Warm-up requests are not counted in r.requests: CPU per request is a slight overestimate for both.
        return {
          ...r,
          cpuUs: ((apache.cpuSeconds() - c0) / r.requests) * 1e6,
          clientUs: (u.user + u.system) / r.requests,
        };
      };
      const s = await measured(stock, stockPort);
      const m = await measured(a, port);
      process.stdout.write(
        `${name.padEnd(18)} ${m.rps.toFixed(0).padStart(6)} req/s  stock ${s.rps.toFixed(0).padStart(6)}  ratio ${(m.rps / s.rps).toFixed(2)}  CPU/req ${m.cpuUs.toFixed(1)} µs vs stock ${s.cpuUs.toFixed(1)} µs (${(s.cpuUs / m.cpuUs).toFixed(2)})  client ${m.clientUs.toFixed(1)} vs ${s.clientUs.toFixed(1)} µs/req  load ${os.loadavg()[0]!.toFixed(2)}\n`,
      );
    } finally {
      await a.stop();
      rmSync(work, { recursive: true, force: true });
    }
  }
} finally {
  await stock.stop();
  rmSync(stockWork, { recursive: true, force: true });
}
