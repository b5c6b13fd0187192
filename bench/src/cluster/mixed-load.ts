import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Busy and total jiffies of each core (/proc/stat). */
export function coreTimes(): { busy: number; total: number }[] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l))
    .map((l) => {
      const v = l.trim().split(/\s+/).slice(1).map(Number);
      const idle = (v[3] ?? 0) + (v[4] ?? 0);
      const total = v.reduce((a, b) => a + b, 0);
      return { busy: total - idle, total };
    });
}

/**
 * CPU seconds used so far by a process and its children that still run, including the children
 * they waited for (the checkers a request runs: cutime/cstime).
 */
export function processTreeCpu(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  const pids = [pid];
  try {
    pids.push(
      ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0),
    );
  } catch {
    /* no children */
  }
  let sum = 0;
  for (const p of pids) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      sum += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / tick;
    } catch {
      /* gone */
    }
  }
  return sum;
}

/** Resident memory of a process and its children (the cluster's workers), in bytes. */
export interface TreeMemory {
  rss: number;
  /** Private memory: the JavaScript heaps, native allocations (what a leak grows). */
  anon: number;
  /** Mapped files and shared memory (SQLite's WAL index, code): the kernel's to reclaim. */
  fileShared: number;
}

export function processTreeMemory(pid: number): TreeMemory {
  const pids = [pid];
  try {
    pids.push(
      ...execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split('\n')
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0),
    );
  } catch {
    /* no children */
  }
  const sum: TreeMemory = { rss: 0, anon: 0, fileShared: 0 };
  const kb = (status: string, field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      sum.rss += kb(status, 'VmRSS');
      sum.anon += kb(status, 'RssAnon');
      sum.fileShared += kb(status, 'RssFile') + kb(status, 'RssShmem');
    } catch {
      /* gone */
    }
  }
  return sum;
}

export interface MixedResult {
  requests: number;
  reads: number;
  writes: number;
  deletes: number;
  errors: number;
  errorSample: string[];
  rps: number;
  p50ms: number;
  p99ms: number;
  /** Aliases created (200) and not deleted that are missing afterwards. */
  lost: number;
  /** Busy share of each core over the run, 0–1. */
  coreBusy: number[];
  /** CPU seconds of the server's processes per wall second (1.0 = one core). */
  serverCores: number;
  /** CPU seconds of the load generator (this process) per wall second. */
  clientCores: number;
  /** Server RSS (all processes) at the end of the warm-up (the first fifth, at least 10 s), at the end, and its peak after the warm-up. */
  rssWarm: number;
  rssEnd: number;
  rssPeak: number;
  /** The same split into private and file/shared memory. */
  memWarm: TreeMemory;
  memEnd: TreeMemory;
  /** p99 (ms) of each kind of request. */
  p99ByKind: { reads: number; writes: number; deletes: number };
  /** Load average (1 min) at the start and the end of the run. */
  load: [number, number];
  /** p50 and p99 (ms) of each read path. */
  byRead: Record<string, { p50: number; p99: number; n: number }>;
}

/**
 * 50 clients, each a loop of requests over keep-alive: 70 % reads (alias, mailbox, domain and
 * zone lists, job list), 25 % writes (a new alias), 5 % deletes (an alias made earlier). The mix
 * is a fixed cycle per client (no randomness). Every non-2xx answer or network error counts as an
 * error; afterwards every alias that was created and not deleted must be in the list.
 */
export async function mixedLoad(opts: {
  baseURL: string;
  key: string;
  serverPid: number;
  clients: number;
  seconds: number;
  domain: string;
  /** Read paths added to the reads' cycle (e.g. the dashboards in the supervised setup). */
  extraReads?: string[];
}): Promise<MixedResult> {
  const headers = { authorization: `Bearer ${opts.key}`, 'content-type': 'application/json' };
  const created: string[] = [];
  const deleted = new Set<string>();
  const latencies: number[] = [];
  const byKind: Record<'R' | 'W' | 'D', number[]> = { R: [], W: [], D: [] };
  let reads = 0;
  let writes = 0;
  let deletes = 0;
  let errors = 0;
  const errorSample: string[] = [];
  let serial = 0;
  const READS = [
    '/api/mail/aliases?limit=25&sort=source',
    '/api/mail/users?limit=25',
    '/api/mail/domains',
    '/api/dns/zones',
    '/api/jobs?limit=10',
    '/api/mail/aliases?limit=25&q=load',
    '/api/audit?limit=10',
    ...(opts.extraReads ?? []),
  ];
  const readLatencies = new Map<string, number[]>();
  // 20 slots: 14 reads, 5 writes, 1 delete.
  const CYCLE = 'RRRWRRRWRRDRWRRRWRRW';

  const one = async (client: number, step: number) => {
    const kind = CYCLE[(client * 7 + step) % CYCLE.length]!;
    let url: string;
    let init: RequestInit;
    let source: string | null = null;
    if (kind === 'R') {
      url = READS[(client + step) % READS.length]!;
      init = { headers };
      reads++;
    } else if (kind === 'W') {
      source = `l${++serial}-${client}@${opts.domain}`;
      url = '/api/mail/aliases/add';
      init = {
        method: 'POST',
        headers,
        body: JSON.stringify({ createDomain: true, source, destination: `box@${opts.domain}` }),
      };
      writes++;
    } else {
      const victim = created.find((s) => !deleted.has(s));
      if (!victim) return;
      deleted.add(victim);
      url = `/api/mail/aliases/remove/${encodeURIComponent(victim)}`;
      init = { method: 'POST', headers, body: '{}' };
      deletes++;
    }
    const t0 = performance.now();
    const done = () => {
      const t = performance.now() - t0;
      latencies.push(t);
      byKind[kind === 'R' ? 'R' : kind === 'W' ? 'W' : 'D'].push(t);
      if (kind === 'R') {
        const list = readLatencies.get(url) ?? [];
        list.push(t);
        readLatencies.set(url, list);
      }
    };
    try {
      const res = await fetch(opts.baseURL + url, init);
      const text = await res.text();
      done();
      if (!res.ok) {
        errors++;
        if (errorSample.length < 5) errorSample.push(`${res.status} ${url}: ${text.slice(0, 160)}`);
      } else if (source) created.push(source);
    } catch (err) {
      done();
      errors++;
      if (errorSample.length < 5) errorSample.push(`${url}: ${String(err)}`);
    }
  };

  const cores0 = coreTimes();
  const cpu0 = processTreeCpu(opts.serverPid);
  const client0 = process.cpuUsage();
  const load0 = loadavg()[0]!;
  const start = performance.now();
  const end = start + opts.seconds * 1000;
  const warmUpMs = Math.max(10_000, (opts.seconds * 1000) / 5);
  let memWarm: TreeMemory | null = null;
  let rssPeak = 0;
  const sampler = setInterval(() => {
    const mem = processTreeMemory(opts.serverPid);
    if (performance.now() - start < warmUpMs) memWarm = mem;
    else {
      memWarm ??= mem;
      rssPeak = Math.max(rssPeak, mem.rss);
    }
  }, 2000);
  await Promise.all(
    Array.from({ length: opts.clients }, async (_, client) => {
      for (let step = 0; performance.now() < end; step++) await one(client, step);
    }),
  );
  clearInterval(sampler);
  const memEnd = processTreeMemory(opts.serverPid);
  memWarm ??= memEnd;
  rssPeak = Math.max(rssPeak, memEnd.rss);
  const load1 = loadavg()[0]!;
  const wall = (performance.now() - start) / 1000;
  const cpu = processTreeCpu(opts.serverPid) - cpu0;
  const client = process.cpuUsage(client0);
  const cores1 = coreTimes();

  // Lost writes: every alias created and not deleted must be listed.
  const expected = new Set(created.filter((s) => !deleted.has(s)));
  const found = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(
      `${opts.baseURL}/api/mail/aliases?limit=1000&offset=${offset}&q=${encodeURIComponent(opts.domain)}&sort=source`,
      { headers },
    );
    const page = (await res.json()) as { source: string }[];
    for (const a of page) found.add(a.source);
    if (page.length < 1000) break;
  }
  let lost = 0;
  for (const s of expected) if (!found.has(s)) lost++;

  const quantile = (list: number[], q: number) => {
    list.sort((a, b) => a - b);
    return list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  };
  const at = (q: number) => quantile(latencies, q);
  return {
    requests: latencies.length,
    reads,
    writes,
    deletes,
    errors,
    errorSample,
    rps: latencies.length / wall,
    p50ms: Math.round(at(0.5)),
    p99ms: Math.round(at(0.99)),
    lost,
    coreBusy: cores1.map((c, i) => (c.busy - cores0[i]!.busy) / Math.max(1, c.total - cores0[i]!.total)),
    serverCores: cpu / wall,
    clientCores: (client.user + client.system) / 1e6 / wall,
    rssWarm: memWarm.rss,
    rssEnd: memEnd.rss,
    rssPeak,
    memWarm,
    memEnd,
    p99ByKind: {
      reads: Math.round(quantile(byKind.R, 0.99)),
      writes: Math.round(quantile(byKind.W, 0.99)),
      deletes: Math.round(quantile(byKind.D, 0.99)),
    },
    load: [load0, load1],
    byRead: Object.fromEntries(
      [...readLatencies].map(([url, list]) => [
        url,
        { p50: Math.round(quantile(list, 0.5)), p99: Math.round(quantile(list, 0.99)), n: list.length },
      ]),
    ),
  };
}
