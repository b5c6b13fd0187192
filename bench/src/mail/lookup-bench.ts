import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialect } from '../../../server/src/db/database.ts';
import { mailDbConn } from '../../../server/src/features/mail/stack/mail-db.connection.ts';
import {
  POSTFIX_QUERIES,
  postfixMapType,
  renderPostfixMap,
} from '../../../server/src/features/mail/stack/postfix.renderer.ts';
import type { BenchContext, BenchRow } from '../suite.ts';
import { benchCluster, openBenchDb, percentile } from './bench-db.ts';
import { aliasDestination, aliasSource, DOMAINS, mailboxEmail, seedMail } from './seed.ts';

const MAILBOXES = 100_000;
const ALIASES = 1_000_000;
const WARMUP = 200;
const LOOKUPS = 2000;
const REPEATS = 3;
/** Keys per batch for the cross-check: one postmap process answering many keys at once. */
const BATCH = 5000;

/**
 * `postmap -q -` answers every key with the real Postfix map code, but keeps its answers in its
 * output buffer until it exits (or 4 KB fill up). This shim, loaded with LD_PRELOAD, flushes
 * postmap's standard output each time it is about to wait for the next key, so one long-lived
 * process answers key by key, as proxymap answers smtpd. The lookup code itself is untouched.
 */
const FLUSH_SHIM = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
static ssize_t (*real_read)(int, void *, size_t);
static int (*flush)(void *);
static void *out;
ssize_t read(int fd, void *buf, size_t n) {
  if (!real_read) real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
  if (fd == 0) {
    if (!flush) {
      flush = (int (*)(void *))dlsym(RTLD_DEFAULT, "vstream_fflush");
      void *fstd = dlsym(RTLD_DEFAULT, "vstream_fstd");
      Dl_info info;
      const ElfW(Sym) *sym = 0;
      /* vstream_fstd is VSTREAM[3] (in, out, err): the second one is VSTREAM_OUT. */
      if (fstd && dladdr1(fstd, &info, (void **)&sym, RTLD_DL_SYMENT) && sym)
        out = (char *)fstd + sym->st_size / 3;
    }
    if (flush && out) flush(out);
  }
  return real_read(fd, buf, n);
}
`;

/** A deterministic generator, so every run asks the same keys. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  for (const d of dirs) if (d && existsSync(path.join(d, name))) return path.join(d, name);
  return null;
}

/** The flush shim built into `dir`, or the reason it could not be. */
function buildShim(dir: string): { so: string } | { why: string } {
  const cc = findProgram('cc') ?? findProgram('gcc');
  if (!cc) return { why: 'no C compiler (Debian package: gcc)' };
  const src = path.join(dir, 'postmap-flush.c');
  const so = path.join(dir, 'postmap-flush.so');
  writeFileSync(src, FLUSH_SHIM);
  const r = spawnSync(cc, ['-O2', '-shared', '-fPIC', '-o', so, src, '-ldl'], { encoding: 'utf8' });
  return r.status === 0 ? { so } : { why: `shim did not compile: ${r.stderr.slice(0, 200)}` };
}

/** One long-lived `postmap -q - <table>`: a key written, its answer line read. */
class MapClient {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buf = '';
  private waiting: { resolve: (line: string) => void; reject: (e: Error) => void } | null = null;
  private stderr = '';

  constructor(postmap: string, table: string, shim: string) {
    this.proc = spawn(postmap, ['-q', '-', table], { env: { ...process.env, LD_PRELOAD: shim } });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d: string) => (this.stderr += d));
    this.proc.stdout.on('data', (d: string) => {
      this.buf += d;
      const nl = this.buf.indexOf('\n');
      if (nl < 0) return;
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      const w = this.waiting;
      this.waiting = null;
      w?.resolve(line);
    });
    this.proc.on('exit', (code) => {
      this.waiting?.reject(new Error(`postmap exited (${code}): ${this.stderr.slice(0, 300)}`));
      this.waiting = null;
    });
  }

  /** The answer line (`key<TAB>value`); rejects when postmap says nothing (a missing key) for 5 s. */
  lookup(key: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error(`postmap gave no answer for ${key} in 5 s: ${this.stderr.slice(0, 300)}`));
      }, 5000);
      this.waiting = {
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.proc.stdin.write(`${key}\n`);
    });
  }

  close(): void {
    this.proc.stdin.end();
  }
}

/** Wall time of one plain `postmap -q -` process answering `keys` (start, map open, lookups, exit). */
function batchMs(postmap: string, table: string, keys: string[]): Promise<{ ms: number; answers: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const proc = spawn(postmap, ['-q', '-', table]);
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (d: string) => (out += d));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`postmap exited ${code}: ${err.slice(0, 300)}`));
      else resolve({ ms, answers: out.split('\n').filter(Boolean).length });
    });
    proc.stdin.end(keys.map((k) => `${k}\n`).join(''));
  });
}

interface MapCase {
  measure: string;
  file: string;
  /** A random existing key and, when it is known, the answer it must get. */
  key: (r: () => number) => { key: string; want?: string };
}

const cases = (mailboxes: number, aliases: number): MapCase[] => [
  {
    measure: 'virtual_mailbox_maps (mailbox → maildir)',
    file: 'virtual-mailboxes.cf',
    key: (r) => {
      const i = Math.floor(r() * mailboxes);
      const [local, domain] = mailboxEmail(i).split('@') as [string, string];
      return { key: mailboxEmail(i), want: `${domain}/${local}/` };
    },
  },
  {
    measure: 'virtual_alias_maps (alias → members, split in SQL)',
    file: 'virtual-aliases.cf',
    key: (r) => {
      const i = Math.floor(r() * aliases);
      return { key: aliasSource(i), want: aliasDestination(i) };
    },
  },
  {
    measure: 'smtpd_sender_login_maps, mailbox address',
    file: 'sender-logins.cf',
    key: (r) => {
      const e = mailboxEmail(Math.floor(r() * mailboxes));
      return { key: e, want: e };
    },
  },
  {
    measure: 'smtpd_sender_login_maps, alias address',
    file: 'sender-logins.cf',
    key: (r) => {
      const i = Math.floor(r() * aliases);
      return { key: aliasSource(i), want: aliasDestination(i) };
    },
  },
  {
    measure: 'virtual_mailbox_domains',
    file: 'virtual-domains.cf',
    key: (r) => {
      const d = `d${Math.floor(r() * DOMAINS)}.bench.test`;
      return { key: d, want: d };
    },
  },
];

const us = (n: number) => `${Math.round(n * 1000)} µs`;

async function measureMap(
  postmap: string,
  table: string,
  shim: string | null,
  c: MapCase,
  name: string,
): Promise<BenchRow> {
  const measure = `Postfix lookup, ${c.measure}, ${name}`;
  const raw: Record<string, number> = {};
  let value = '';
  if (shim) {
    const client = new MapClient(postmap, table, shim);
    try {
      const check = async (k: { key: string; want?: string }) => {
        const line = await client.lookup(k.key);
        const [got, answer] = line.split('\t');
        if (got !== k.key || (k.want !== undefined && answer !== k.want))
          throw new Error(`${table}: asked ${k.key} (want ${k.want}), got ${line}`);
      };
      const warm = lcg(1);
      for (let i = 0; i < WARMUP; i++) await check(c.key(warm));
      const runs: { p50: number; p99: number; max: number }[] = [];
      for (let run = 0; run < REPEATS; run++) {
        const rnd = lcg(100 + run);
        const times: number[] = [];
        for (let i = 0; i < LOOKUPS; i++) {
          const k = c.key(rnd);
          const start = performance.now();
          const line = await client.lookup(k.key);
          times.push(performance.now() - start);
          if (!line.startsWith(`${k.key}\t`)) throw new Error(`${table}: asked ${k.key}, got ${line}`);
        }
        times.sort((a, b) => a - b);
        runs.push({ p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1]! });
      }
      const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
      const p99s = runs.map((r) => r.p99).sort((a, b) => a - b);
      const med = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
      value = `p50 ${us(med(p50s))}, p99 ${us(med(p99s))} (median of ${REPEATS} runs of ${LOOKUPS}; p50 ${runs.map((r) => us(r.p50)).join(' / ')}, p99 ${runs.map((r) => us(r.p99)).join(' / ')}, max ${runs.map((r) => us(r.max)).join(' / ')})`;
      Object.assign(raw, {
        p50Ms: med(p50s),
        p99Ms: med(p99s),
        p99MinMs: p99s[0]!,
        p99MaxMs: p99s[p99s.length - 1]!,
        lookups: LOOKUPS,
        repeats: REPEATS,
      });
    } finally {
      client.close();
    }
  } else value = 'per-lookup figures skipped (see the shim row)';
  // Cross-check without the shim: per-lookup mean of one plain postmap over BATCH keys, less startup.
  const means: number[] = [];
  for (let run = 0; run < REPEATS; run++) {
    const rnd = lcg(200 + run);
    const keys = Array.from({ length: BATCH }, () => c.key(rnd).key);
    const one = await batchMs(postmap, table, keys.slice(0, 1));
    const all = await batchMs(postmap, table, keys);
    if (all.answers !== BATCH) throw new Error(`${table}: ${all.answers} answers for ${BATCH} keys`);
    means.push((all.ms - one.ms) / (BATCH - 1));
  }
  value += `; batch mean ${means.map(us).join(' / ')}/lookup`;
  raw.batchMeanMs = means.sort((a, b) => a - b)[1]!;
  return { measure, value, raw };
}

/**
 * Postfix's lookups through Mailroom's rendered map files at 100k mailboxes / 1M aliases: the real
 * map code (`postmap -q -`, one long-lived process per map, as proxymap keeps its tables open),
 * timed per answer from this process (pipe round trip included), for random existing keys.
 */
export async function lookupBench(
  ctx: BenchContext,
  { mailboxes = MAILBOXES, aliases = ALIASES } = {},
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const postmap = findProgram('postmap');
  const postconf = findProgram('postconf');
  if (!postmap || !postconf) {
    ctx.log('!!! postmap missing (Debian package: postfix): Postfix lookup figures SKIPPED !!!');
    return [
      { measure: 'Postfix lookup latency through the maps', value: 'skipped: postmap missing (postfix)' },
    ];
  }
  const types = spawnSync(postconf, ['-m'], { encoding: 'utf8' }).stdout;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mailroom-lookup-'));
  try {
    const built = buildShim(tmp);
    const shim = 'so' in built ? built.so : null;
    if (!shim) {
      ctx.log(`per-lookup Postfix figures skipped: ${'why' in built ? built.why : ''}`);
      rows.push({
        measure: 'Postfix lookup, per-answer timing',
        value: `skipped (${'why' in built ? built.why : ''}); batch means only`,
      });
    }
    const cluster = await benchCluster((m) => ctx.log(m));
    for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
      const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      const type = dialect === 'sqlite' ? 'sqlite' : 'pgsql';
      if (!new RegExp(`^${type}$`, 'm').test(types)) {
        rows.push({ measure: `Postfix lookup, ${name}`, value: `skipped: postfix-${type} missing` });
        continue;
      }
      if (dialect === 'postgres' && !cluster) {
        rows.push({ measure: `Postfix lookup, ${name}`, value: 'skipped: no postgresql' });
        continue;
      }
      const db = await openBenchDb(dialect, cluster?.url);
      try {
        ctx.log(`seeding ${mailboxes} mailboxes and ${aliases} aliases on ${dialect}`);
        const t0 = performance.now();
        await seedMail(db.handle, mailboxes, aliases);
        ctx.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        const conn = mailDbConn(db.handle);
        const dir = path.join(tmp, dialect);
        mkdirSync(dir);
        const files: Record<string, string> = {
          'virtual-domains.cf': POSTFIX_QUERIES.domains(),
          'virtual-mailboxes.cf': POSTFIX_QUERIES.mailboxes(),
          'virtual-aliases.cf': POSTFIX_QUERIES.aliases(conn),
          'sender-logins.cf': POSTFIX_QUERIES.senderLogins(conn),
        };
        for (const [file, query] of Object.entries(files))
          writeFileSync(path.join(dir, file), renderPostfixMap(conn, query));
        for (const c of cases(mailboxes, aliases)) {
          const table = `${postfixMapType(conn)}:${path.join(dir, c.file)}`;
          ctx.log(`timing ${c.measure} on ${dialect}`);
          rows.push(await measureMap(postmap, table, shim, c, name));
        }
      } finally {
        await db.close();
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}
