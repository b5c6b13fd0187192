import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { loadInChild, mailroomCpu, procCpu, startMailroomWeb } from '../web/index.ts';

const QUICK = process.env.BENCH_WEB_QUICK === '1';
const LOAD_SECONDS = Number(process.env.BENCH_WEB_SECONDS ?? (QUICK ? 2 : 10));
const LOAD_REPEATS = Number(process.env.BENCH_WEB_REPEATS ?? (QUICK ? 1 : 3));
const CONNECTIONS = 8;
const DOMAIN = 'app.bench.test';

/** The tiny Node app of the integration tests: a short text body on /, 200 on /health. */
const SERVER_JS = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(req.url === '/health' ? 'ok' : 'hello from the tiny app');
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
};
const spread = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const loadavg = () => os.loadavg()[0]!.toFixed(2);

/**
 * Web applications (issue 20): what Apache's reverse proxy costs the tiny Node app. Mailroom runs
 * Apache itself (local mode as root), the app is deployed from a local git repository through the
 * API (the real deploy job), then paired load runs alternate between the app through Apache (Host
 * header, mod_proxy to the release's loopback port) and the app's port directly: requests per second
 * (ratio through Apache / direct) and CPU per request (Apache + app through Apache, app alone direct).
 */
const suite: BenchSuite = {
  name: 'web-app',
  description: 'tiny Node app: req/s and CPU per request through Apache (mod_proxy) vs the app directly',
  async run(ctx) {
    if (process.getuid?.() !== 0)
      throw new Error('the web-app bench runs Apache and the app as Mailroom does (local mode as root)');
    ctx.log(`load average at start: ${loadavg()}`);
    const repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-app-'));
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(path.join(repo, 'server.js'), SERVER_JS);
    const git = (...a: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.email=b@example.com', '-c', 'user.name=b', ...a]);
    git('add', '-A');
    git('commit', '-q', '-m', 'tiny app');
    const mr = await startMailroomWeb(ctx, 0);
    try {
      await mr.quiet();
      const json = async (p: string, init?: RequestInit) => {
        const res = await mr.api(p, init);
        const body = (await res.json()) as Record<string, unknown>;
        if (!res.ok) throw new Error(`${p} answered ${res.status}: ${JSON.stringify(body)}`);
        return body;
      };
      await json('web/applications/add', {
        method: 'POST',
        body: JSON.stringify({
          name: 'bench',
          domain: DOMAIN,
          version: '1',
          deploymentPath: '/var/www/apps/bench',
          repository: repo,
          startCommand: `${process.execPath} server.js`,
          healthCheckInterval: 1,
          healthCheckTimeout: 2,
          shutdownTimeout: 1,
        }),
      });
      const accepted = await json('web/applications/deploy/bench', { method: 'POST', body: '{}' });
      for (let until = Date.now() + 120_000; ;) {
        const j = await json(`jobs/${accepted.jobId as number}`);
        if (j.state === 'succeeded') break;
        if (j.state !== 'running' && j.state !== 'queued')
          throw new Error(`the deploy ended ${String(j.state)}: ${String(j.message)}`);
        if (Date.now() > until) throw new Error('the deploy did not end within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
      const app = await json('web/applications/bench');
      const appPort = app.runningPort as number;
      const appPid = app.pid as number;
      const apache = mailroomCpu(mr.host);
      const appCpu = () => procCpu(appPid);
      const sides = [
        {
          label: 'through Apache',
          port: mr.httpPort,
          cpu: () => {
            const a = apache();
            const b = appCpu();
            return a === null || b === null ? null : a + b;
          },
        },
        { label: 'direct', port: appPort, cpu: appCpu },
      ];
      const figures = new Map(sides.map((s) => [s.label, { rps: [] as number[], cpuUs: [] as number[] }]));
      for (let r = 0; r < LOAD_REPEATS; r++) {
        for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
          const c0 = side.cpu();
          const res = await loadInChild({
            url: `http://127.0.0.1:${side.port}/`,
            headers: { host: DOMAIN },
            connections: CONNECTIONS,
            seconds: LOAD_SECONDS,
            warmupSeconds: QUICK ? 1 : 2,
          });
          const c1 = side.cpu();
          const cpuUs = c0 !== null && c1 !== null ? ((c1 - c0) / res.requests) * 1e6 : NaN;
          figures.get(side.label)!.rps.push(res.rps);
          figures.get(side.label)!.cpuUs.push(cpuUs);
          ctx.log(
            `${side.label} run ${r + 1}: ${res.rps.toFixed(0)} req/s, server CPU ${cpuUs.toFixed(1)} µs/request (p50 ${res.p50ms} ms, p99 ${res.p99ms} ms), load ${loadavg()}`,
          );
        }
      }
      const via = figures.get('through Apache')!;
      const direct = figures.get('direct')!;
      const ratios = via.rps.map((v, i) => v / direct.rps[i]!);
      const cpuRatios = via.cpuUs.map((v, i) => v / direct.cpuUs[i]!);
      const rows: BenchRow[] = [
        {
          measure: `tiny Node app: req/s through Apache / direct, median of ${ratios.length} paired runs (range), ${CONNECTIONS} connections, load ${loadavg()}`,
          value: `${median(via.rps).toFixed(0)} / ${median(direct.rps).toFixed(0)} = ${median(ratios).toFixed(2)} (${spread(ratios, 2)})`,
          raw: {
            ratio: median(ratios),
            ...Object.fromEntries(via.rps.map((v, i) => [`apache${i + 1}`, v])),
            ...Object.fromEntries(direct.rps.map((v, i) => [`direct${i + 1}`, v])),
          },
        },
        {
          measure:
            'tiny Node app: server CPU per request, through Apache (Apache + app) vs direct (app), ratio',
          value: `${median(via.cpuUs).toFixed(0)} vs ${median(direct.cpuUs).toFixed(0)} µs (${median(cpuRatios).toFixed(2)}×, ${spread(cpuRatios, 2)})`,
          raw: { apacheUs: median(via.cpuUs), directUs: median(direct.cpuUs), ratio: median(cpuRatios) },
        },
      ];
      return rows;
    } finally {
      await mr.close();
      rmSync(repo, { recursive: true, force: true });
    }
  },
};

export default suite;
