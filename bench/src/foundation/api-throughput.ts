import os from 'node:os';
import path from 'node:path';
import { measureLoad, type LoadResult } from '../lib/http-load.ts';
import { workerCount } from '../../../server/src/cluster.ts';
import { signInKey, startMailroom, startScriptServer, treeCpuMs, untilServerIdle } from '../lib/servers.ts';
import type { BenchContext, BenchRow } from '../suite.ts';

const GOAL = 0.5;

const figure = (r: LoadResult) =>
  `${Math.round(r.rps).toLocaleString('en-US')} req/s (p50 ${r.p50ms} ms, p99 ${r.p99ms} ms)`;

const raw = (r: LoadResult) => ({ rps: r.rps, p50ms: r.p50ms, p99ms: r.p99ms, requests: r.requests });

/** `--name=N` on the command line, else the environment variable, else the default. */
export function numericFlag(name: string, env: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const v = Number(arg ? arg.slice(name.length + 3) : (process.env[env] ?? fallback));
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/**
 * Small authenticated reads on the real server (production build, its default workers), as a ratio
 * to a bare Fastify route measured in the same run. The bare route is served the way Mailroom is:
 * by as many node:cluster workers as Mailroom runs (on this 2-core machine 2, which share the cores
 * with the load generator); that ratio carries the goal. The ratio to a bare route in one process
 * (how the figure was first taken, before Mailroom ran workers) is shown beside it: against it, a
 * second worker mostly adds the contention of three busy processes on two cores.
 *
 * The measurements are paired: every round measures the bare routes and then each Mailroom route
 * back to back, and the ratio is taken per round (a machine that is busier in one round slows both
 * sides of that round's ratio); the table shows the median ratio with each round. /auth/status
 * reads the session without the guard; /api/audit?limit=1 carries the whole guarded path (session,
 * rate limits, zod validation and serialisation, API monitoring's recorder, security headers, audit
 * query); /api/system/status adds systeminformation's reads of the machine, for information.
 *
 * The server is first left to finish its startup work (`untilServerIdle`).
 * `--rounds=N` (BENCH_ROUNDS, default 5) and `--seconds=N` per measurement (BENCH_SECONDS, default 5).
 */
export async function apiThroughput(ctx: BenchContext): Promise<BenchRow[]> {
  const rounds = numericFlag('rounds', 'BENCH_ROUNDS', 5);
  const seconds = numericFlag('seconds', 'BENCH_SECONDS', 5);
  const workers = workerCount(undefined);
  const script = path.join(ctx.root, 'bench/src/foundation/bare-server.ts');
  const baselines = [
    { label: `bare Fastify GET /bare, ${workers} workers as Mailroom`, workers, goal: true },
    ...(workers > 1 ? [{ label: 'bare Fastify GET /bare, one process', workers: 1, goal: false }] : []),
  ];
  const bares = await Promise.all(
    baselines.map((b) => startScriptServer(ctx.root, script, { WORKERS: String(b.workers) })),
  );
  const mailroom = await startMailroom(ctx.outDir);
  try {
    const key = await signInKey(mailroom.baseURL);
    const auth = { authorization: `Bearer ${key}` };
    ctx.log('waiting for the server to finish its startup work');
    await untilServerIdle(mailroom.pid);
    const targets = [
      { measure: 'GET /auth/status with bearer key', path: '/auth/status', goal: true },
      { measure: 'GET /api/audit?limit=1 (auth guard + query)', path: '/api/audit?limit=1', goal: true },
      { measure: 'GET /api/system/status (reads the machine)', path: '/api/system/status', goal: false },
    ];
    const loadBefore = load();
    const bareRuns = baselines.map(() => [] as LoadResult[]);
    // Server CPU per answered request (the warm-up's requests are counted in the CPU but not in
    // `requests`: both sides alike). Unlike req/s it hardly moves with the machine's other load.
    const bareCpu = baselines.map(() => [] as number[]);
    const runs = targets.map(() => [] as LoadResult[]);
    const cpus = targets.map(() => [] as number[]);
    // ratios[target][baseline][round]
    const ratios = targets.map(() => baselines.map(() => [] as number[]));
    for (let round = 1; round <= rounds; round++) {
      const bareRps: number[] = [];
      for (const [j, b] of baselines.entries()) {
        ctx.log(`round ${round}/${rounds}: ${b.label} (load ${load()})`);
        const cpu0 = treeCpuMs(bares[j]!.pid);
        const r = await measureLoad({ url: `${bares[j]!.baseURL}/bare`, seconds, warmupSeconds: 1 });
        bareCpu[j]!.push((treeCpuMs(bares[j]!.pid) - cpu0) / r.requests);
        bareRuns[j]!.push(r);
        bareRps.push(r.rps);
      }
      for (const [i, t] of targets.entries()) {
        ctx.log(`round ${round}/${rounds}: GET ${t.path}`);
        const cpu0 = treeCpuMs(mailroom.pid);
        const r = await measureLoad({
          url: mailroom.baseURL + t.path,
          headers: auth,
          seconds,
          warmupSeconds: 1,
        });
        runs[i]!.push(r);
        cpus[i]!.push((treeCpuMs(mailroom.pid) - cpu0) / r.requests);
        bareRps.forEach((b, j) => ratios[i]![j]!.push(r.rps / b));
        ctx.log(
          `  ${Math.round(r.rps)} req/s against ${bareRps.map((b) => Math.round(b)).join(' / ')}: ratio ${bareRps.map((b) => (r.rps / b).toFixed(2)).join(' / ')}`,
        );
      }
    }
    const loadAfter = load();
    const mid = (rs: LoadResult[]) => rs.slice().sort((a, c) => a.rps - c.rps)[Math.floor(rs.length / 2)]!;
    const rows: BenchRow[] = [];
    for (const [j, b] of baselines.entries()) {
      rows.push({
        measure: `${b.label} (baseline, median of ${rounds} rounds of ${seconds} s)`,
        value: figure(mid(bareRuns[j]!)),
        raw: { ...raw(mid(bareRuns[j]!)), workers: b.workers, rounds, seconds, loadBefore, loadAfter },
      });
      rows.push({
        measure: '  server CPU per request',
        value: `${(median(bareCpu[j]!) * 1000).toFixed(0)} µs`,
        raw: { cpuUs: median(bareCpu[j]!) * 1000 },
      });
    }
    for (const [i, t] of targets.entries()) {
      rows.push({ measure: t.measure, value: figure(mid(runs[i]!)), raw: raw(mid(runs[i]!)) });
      for (const [j, b] of baselines.entries()) {
        const rs = ratios[i]![j]!;
        const m = median(rs);
        rows.push({
          measure: `  ratio to bare, ${b.workers === 1 ? 'one process' : `${b.workers} workers`} (paired per round)`,
          value: `${m.toFixed(2)} (rounds ${rs.map((r) => r.toFixed(2)).join(' / ')}; load ${loadBefore} → ${loadAfter})`,
          ...(t.goal && b.goal ? { goal: `≥ ${GOAL.toFixed(2)}`, pass: m >= GOAL } : {}),
          raw: { ratio: m, min: Math.min(...rs), max: Math.max(...rs), bareWorkers: b.workers },
        });
      }
      const cpu = median(cpus[i]!);
      rows.push({
        measure: '  server CPU per request (all workers), and bare/Mailroom',
        value: `${(cpu * 1000).toFixed(0)} µs; ${(median(bareCpu[0]!) / cpu).toFixed(2)}`,
        raw: { cpuUs: cpu * 1000, cpuRatio: median(bareCpu[0]!) / cpu },
      });
    }
    return rows;
  } finally {
    await mailroom.stop();
    for (const b of bares) await b.stop();
  }
}
