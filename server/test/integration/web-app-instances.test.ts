import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { request, startWithLocalApache } from './web-apache-helpers.ts';

const have = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const haveAll = have('apache2', ['-v']) && have('git', ['--version']) && process.getuid?.() === 0;
if (!haveAll)
  skipLoudly(
    'apache2 (Debian package apache2), git (Debian package git) or root is missing: application instances behind mod_proxy_balancer are not tested',
  );

/** A tiny Node app answering "<version> <instance id> <port>" (MAILROOM_INSTANCE: which instance it is). */
const serverJs = (version: string) => `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/health') { res.writeHead(200); res.end('ok'); return; }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('${version} ' + process.env.MAILROOM_INSTANCE + ' ' + process.env.PORT);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

describe.skipIf(!haveAll)('web applications: instances behind mod_proxy_balancer, scaling', () => {
  let t: TestContext;
  let httpPort: number;
  let repo: string;
  const domain = 'lb.example.com';
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      encoding: 'utf8',
    });
  const commit = (version: string) => {
    writeFileSync(path.join(repo, 'server.js'), serverJs(version));
    git('add', '-A');
    git('commit', '-q', '-m', version);
  };
  const appBody = () => ({
    name: 'lb',
    domain,
    version: '1.0.0',
    repository: repo,
    deploymentPath: '/var/www/apps/lb',
    // Ports from a range of this test's own: other Mailroom tests on this machine start apps from 3000.
    port: 20_000 + (process.pid % 20) * 1000,
    startCommand: `${process.execPath} server.js`,
    healthCheckInterval: 3,
    healthCheckTimeout: 2,
    shutdownTimeout: 1,
    enableLoadBalancing: true,
    enableScaling: true,
    minInstances: 2,
    maxInstances: 3,
  });
  const waitJob = async (jobId: number) => {
    for (let i = 0; i < 600; i++) {
      const j = (await call('GET', `jobs/${jobId}`)).json();
      if (j.state !== 'running' && j.state !== 'queued') return j;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('job did not end');
  };
  const deploy = async () => {
    const res = await call('POST', 'web/applications/deploy/lb', {});
    expect(res.statusCode, res.body).toBe(202);
    return waitJob(res.json().jobId);
  };
  const get = () => request(httpPort, domain);
  /** Instance ids seen in `n` requests through Apache. */
  const idsSeen = async (n: number) => {
    const ids = new Set<string>();
    for (let i = 0; i < n; i++) {
      const r = await get();
      expect(r.status, r.body).toBe(200);
      expect(r.body).toMatch(/^v\d \d+ \d+$/);
      ids.add(r.body.split(' ')[1]!);
    }
    return ids;
  };

  beforeAll(async () => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-lb-repo-'));
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    commit('v1');
    // The scaling rule checked every second (30 s by default).
    ({ t, httpPort } = await startWithLocalApache(30_000, { MAILROOM_APP_SCALE_TICK_SECONDS: '1' }));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('Min Instances 2: two instances answer through Apache (distinct MAILROOM_INSTANCE), shown on the app', async () => {
    const created = await call('POST', 'web/applications/add', appBody());
    expect(created.statusCode, created.body).toBe(200);
    const job = await deploy();
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    const conf = readFileSync(
      t.deps.host.path(`/etc/apache2/sites-available/mailroom-${domain}.conf`),
      'utf8',
    );
    expect(conf).toMatch(/BalancerMember http:\/\/127\.0\.0\.1:\d+ retry=0\n\s+BalancerMember/);
    expect(await idsSeen(12)).toEqual(new Set(['1', '2']));
    const app = (await call('GET', 'web/applications/lb')).json();
    expect(app.instances).toHaveLength(2);
    expect(app.instances.map((i: { id: number }) => i.id)).toEqual([1, 2]);
    for (const i of app.instances) {
      expect(i.state).toBe('running');
      expect(i.pid).toBeGreaterThan(0);
      expect(i.memoryBytes).toBeGreaterThan(0);
    }
  }, 90_000);

  it('a deploy switches every instance health-gated while a client requests non-stop: zero non-2xx', async () => {
    commit('v2');
    const statuses = new Map<number, number>();
    let stop = false;
    let requests = 0;
    const loop = (async () => {
      while (!stop) {
        const r = await get().catch(() => ({ status: 0, body: '' }));
        requests++;
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    })();
    const job = await deploy();
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await loop;
    expect(job.state, JSON.stringify(job)).toBe('succeeded');
    console.log(
      `requests during the 2-instance deploy: ${requests}, statuses ${JSON.stringify([...statuses])}`,
    );
    expect([...statuses.keys()]).toEqual([200]);
    const bodies = new Set<string>();
    for (let i = 0; i < 8; i++) bodies.add((await get()).body.split(' ').slice(0, 2).join(' '));
    // The loop above is itself load for the scaling rule (checked every second here): it may have
    // added a third instance, which serves v2 too.
    expect(
      [...bodies].every((b) => b.startsWith('v2 ')),
      [...bodies].join(', '),
    ).toBe(true);
    expect(bodies.has('v2 1') && bodies.has('v2 2'), [...bodies].join(', ')).toBe(true);
  }, 90_000);

  it('load above the rule adds an instance (health-gated, audited); never above Max Instances', async () => {
    // > 300 requests per instance per minute over 2 minutes with 2 instances: > 1200 requests.
    const workers = Array.from({ length: 10 }, async () => {
      for (let i = 0; i < 130; i++) expect((await get()).status).toBe(200);
    });
    await Promise.all(workers);
    let app = (await call('GET', 'web/applications/lb')).json();
    for (let i = 0; i < 100 && app.instances.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 300));
      app = (await call('GET', 'web/applications/lb')).json();
    }
    expect(app.instances.map((i: { id: number }) => i.id)).toEqual([1, 2, 3]);
    // Apache's graceful reload puts the third member in the balancer (its old processes finish first).
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 3; i++) for (const id of await idsSeen(5)) seen.add(id);
    expect(seen).toEqual(new Set(['1', '2', '3']));
    const audit = (await call('GET', 'audit?limit=20')).json();
    const line = audit.entries.find((a: { action: string }) => a.action === 'web.app.scale');
    expect(line, JSON.stringify(audit.entries.slice(0, 5))).toBeTruthy();
    expect(line).toMatchObject({ target: 'lb', actor: null, outcome: 'success' });
    expect(JSON.stringify(line.details)).toMatch(/requests per instance per minute > 300/);
    // Still loaded, but Max Instances is 3: a few more checks add nothing.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await call('GET', 'web/applications/lb')).json().instances).toHaveLength(3);
  }, 120_000);
});
