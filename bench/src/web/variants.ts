// Where the static-page cost of Mailroom's Apache goes: a copy of a rendered tree (kept by
// `BENCH_WEB_KEEP=1 npm run bench -- web`), edited by hand one directive at a time, each measured
// against the stock Debian Apache with the same client.
//   npx tsx bench/src/web/variants.ts /tmp/mailroom-bench-web-XXXX [seconds] [only-variant,...]
// BENCH_WEB_COUNT=1: no load; each tree's cost of one request counted instead of timed (a loaded
// machine makes req/s and even CPU time per request move): instructions (callgrind) and system
// calls (strace -c) per request, for each variant and for the stock Apache with 1 and with the same
// number of sites (variant names `stock` and `stockMany`). Run as root.
import { execFileSync } from 'node:child_process';
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
  // Stock's site has FollowSymLinks; Mailroom's SymLinksIfOwnerMatch lstat()s each path part.
  followSymLinks: { site: (s) => s.replace('Options SymLinksIfOwnerMatch', 'Options FollowSymLinks') },
  // The figures fields after the chosen format, and the probe's exclusion.
  plainCombinedLog: {
    conf: (s) =>
      s.replace(/^CustomLog (".*?") mailroom_stats env=!mailroom_probe$/m, 'CustomLog $1 combined'),
  },
  // The figures' time as it was rendered before: `%{%s}t` (strftime, whose tzset() stats
  // /etc/localtime on every call) in place of `%{sec}t`.
  statsStrftimeTime: { conf: (s) => s.replace('%{sec}t', '%{%s}t') },
  // mod_reqtimeout as the SSL settings render it (Debian's stock Apache loads it with its defaults).
  addRequestReadTimeout: {
    conf: (s) =>
      `${s}<IfModule !reqtimeout_module>\n  LoadModule reqtimeout_module /usr/lib/apache2/modules/mod_reqtimeout.so\n</IfModule>\nRequestReadTimeout handshake=60 header=60 body=60\n`,
  },
  logNoCondition: { conf: (s) => s.replace(/( mailroom_stats) env=!mailroom_probe/, '$1') },
  noProbe: {
    site: (s) =>
      s
        .replace(/^ {2}Header always set X-Mailroom-Probe.*\n/m, '')
        .replace(/^ {2}SetEnvIf Request_URI "\^\/\\\.well-known\/mailroom-probe\$".*\n/m, '')
        .replace(/^ {2}RedirectMatch gone.*\n/m, ''),
  },
  // The probe in a <Location> of its own: no regular expression run for the site's other requests.
  probeLocation: {
    site: (s) =>
      s.replace(
        /^ {2}SetEnvIf Request_URI "\^\/\\\.well-known\/mailroom-probe\$" mailroom_probe\n {2}RedirectMatch gone .*\n/m,
        '  <Location "/.well-known/mailroom-probe">\n    SetEnvIf Request_URI ^ mailroom_probe\n    Redirect gone\n  </Location>\n',
      ),
  },
  noAcmeAlias: { site: drop(/^ {2}Alias \/\.well-known\/acme-challenge\/.*\n/m) },
  // The HSTS header's per-request `expr` (server-wide, evaluated for every request of every site).
  noHsts: { conf: drop(/^Header always set Strict-Transport-Security .*\n/m) },
  hstsEnvNotExpr: {
    conf: (s) =>
      s.replace(
        /^(Header always set Strict-Transport-Security "[^"]*") "expr=[^\n]*/m,
        '$1 env=mailroom_https',
      ),
  },
  noSecurityHeaders: {
    conf: drop(/^Header always set .*\n/gm),
    site: drop(/^ {2}SetEnvIf Request_URI \^ mailroom_secure=1\n/m),
  },
  noRewriteEngine: { conf: drop(/^RewriteEngine On\n/m) },
  noDeflate: { site: drop(/^ {2}AddOutputFilterByType DEFLATE.*\n/m) },
  noExpires: { site: drop(/^ {2}Expires.*\n/gm), conf: drop(/^Expires.*\n/gm) },
  noETag: { conf: (s) => s.replace('FileETag MTime Size', 'FileETag None') },
  noRequestReadTimeout: { conf: drop(/^RequestReadTimeout .*\n/m) },
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

/** Instructions and system calls per request of a tree (the two counting scripts beside this file). */
function counted(dir: string, p: number, env: NodeJS.ProcessEnv = {}): string {
  const run = (script: string) =>
    execFileSync('bash', [path.join(import.meta.dirname, script), dir, String(p), SITE], {
      env: { ...process.env, LANG: 'C', ...env },
      encoding: 'utf8',
    }).trim();
  return `${run('per-request-instructions.sh')}  ${run('per-request-cost.sh')}`;
}

if (process.env.BENCH_WEB_COUNT === '1') {
  const p = Number(/Listen 127\.0\.0\.1:(\d+)/.exec(readFileSync(path.join(live, 'ports.conf'), 'utf8'))![1]);
  const docRoot = path.join(dataDir, 'root/var/www', SITE);
  const sites = readdirSync(path.join(live, 'sites-enabled'))
    .map((f) => /^mailroom-(.+)\.conf$/.exec(f)?.[1])
    .filter((d): d is string => !!d && d !== SITE);
  for (const name of onlyArg ? onlyArg.split(',') : ['stock', 'stockMany', ...Object.keys(VARIANTS)]) {
    const work = path.join(os.tmpdir(), `mailroom-bench-count-${process.pid}`);
    try {
      let line: string;
      if (name === 'stock' || name === 'stockMany') {
        const others =
          name === 'stock'
            ? []
            : sites.map((d) => ({ name: d, docRoot: path.join(dataDir, 'root/var/www', d) }));
        const a = stockApache(work, p, docRoot, SITE, others);
        line = counted(a.dir, p, a.env);
        if (name === 'stockMany') line += `  (${others.length + 1} sites)`;
      } else {
        const parts = name.split('+').map((n) => {
          const e = VARIANTS[n];
          if (!e) throw new Error(`no variant ${n}`);
          return e;
        });
        const compose = (fs: ((s: string) => string)[]) =>
          fs.length ? (x: string) => fs.reduce((acc, f) => f(acc), x) : undefined;
        line = counted(
          variantTree(work, {
            conf: compose(parts.flatMap((e) => (e.conf ? [e.conf] : []))),
            site: compose(parts.flatMap((e) => (e.site ? [e.site] : []))),
            onlySite: parts.some((e) => e.onlySite),
          }),
          p,
        );
      }
      process.stdout.write(`${name.padEnd(28)} ${line}\n`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  process.exit(0);
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
