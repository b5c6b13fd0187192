import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
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
    'apache2 (Debian package apache2), git (Debian package git) or root is missing: auto deploy of web applications is not tested for real',
  );

/** A tiny Node app answering "<version>" on / and 200 on /health. */
const serverJs = (version: string) => `
const http = require('node:http');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(req.url === '/health' ? 'ok' : '${version}');
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

describe.skipIf(!haveAll)(
  'web application auto deploy: push → webhook or poll → the new release through Apache',
  () => {
    let t: TestContext;
    let httpPort: number;
    let repo: string;
    let secret = '';
    let n = 0;
    const domain = 'hooked.example.com';
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        encoding: 'utf8',
      });
    const commit = (version: string, branch = 'main') => {
      if (git('branch', '--list', branch).trim()) git('checkout', '-q', branch);
      else git('checkout', '-q', '-b', branch);
      writeFileSync(path.join(repo, 'server.js'), serverJs(version));
      git('add', '-A');
      git('commit', '-q', '-m', version);
      return git('rev-parse', 'HEAD').trim();
    };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.call({
        method,
        url: `/api/${url}`,
        ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
      });
    const push = (ref: string, key = secret) => {
      const raw = JSON.stringify({ ref, after: git('rev-parse', 'HEAD').trim() });
      return t.app.inject({
        method: 'POST',
        url: '/api/web/hooks/applications/hooked',
        headers: {
          'content-type': 'application/json',
          'x-gitea-event': 'push',
          'x-gitea-delivery': `delivery-${++n}`,
          'x-hub-signature-256': `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`,
        },
        payload: raw,
      });
    };
    const waitJob = async (id: number): Promise<Job> => {
      for (let i = 0; i < 900; i++) {
        const j = (await call('GET', `jobs/${id}`)).json<Job>();
        if (j.state !== 'running' && j.state !== 'queued') return j;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('job did not end');
    };
    const releases = async () =>
      (await call('GET', 'web/applications/hooked/releases')).json<{ commit: string }[]>();
    const body = async () => (await request(httpPort, domain)).body;

    beforeAll(async () => {
      repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-hooked-repo-'));
      execFileSync('git', ['init', '-q', '-b', 'main', repo]);
      commit('v1');
      ({ t, httpPort } = await startWithLocalApache());
      const created = await call('POST', 'web/applications/add', {
        name: 'hooked',
        domain,
        version: '1',
        deploymentPath: '/var/www/apps/hooked',
        repository: repo,
        startCommand: `${process.execPath} server.js`,
        healthCheckInterval: 2,
        healthCheckTimeout: 2,
        shutdownTimeout: 1,
        enableAutoDeploy: true,
      });
      expect(created.statusCode, created.body).toBe(200);
      secret = (await call('POST', 'web/applications/webhook-secret/hooked')).json<{ secret: string }>()
        .secret;
    }, 90_000);
    afterAll(async () => {
      await t?.close();
      rmSync(repo, { recursive: true, force: true });
    });

    it('a signed push to main deploys it (health-gated): Apache serves the new body', async () => {
      const res = await push('refs/heads/main');
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitJob(res.json<{ jobId: number }>().jobId);
      expect(job.state, job.message ?? '').toBe('succeeded');
      expect(await body()).toBe('v1');
      const v2 = commit('v2');
      const again = await push('refs/heads/main');
      expect(again.statusCode, again.body).toBe(202);
      expect((await waitJob(again.json<{ jobId: number }>().jobId)).state).toBe('succeeded');
      expect(await body()).toBe('v2');
      expect((await releases())[0]).toMatchObject({
        commit: v2,
        state: 'live',
        startedBy: 'auto-deploy (webhook)',
      });
    }, 120_000);

    it('a wrong signature is a 401 and nothing moves; a push to another branch is ignored with its reason', async () => {
      const before = (await releases()).length;
      commit('v3');
      const bad = await push('refs/heads/main', 'wrong-secret');
      expect(bad.statusCode).toBe(401);
      commit('feature', 'feature');
      const other = await push('refs/heads/feature');
      expect(other.statusCode).toBe(200);
      expect(other.json()).toMatchObject({
        outcome: 'ignored',
        reason: 'refs/heads/feature is not the auto-deploy branch refs/heads/main: nothing deployed',
      });
      await new Promise((r) => setTimeout(r, 500));
      expect((await releases()).length).toBe(before);
      expect(await body()).toBe('v2');
      git('checkout', '-q', 'main');
    }, 60_000);

    it('without any webhook the poll (git ls-remote) finds the new commit of main and deploys it', async () => {
      const v3 = git('rev-parse', 'main').trim();
      // The poll reads each remote every 60 s: move this server's clock past that instead of waiting.
      t.deps.clock = () => Date.now() + 120_000;
      const until = Date.now() + 60_000;
      while (Date.now() < until && (await releases())[0]?.commit !== v3)
        await new Promise((r) => setTimeout(r, 500));
      const rel = (await releases())[0] as { commit: string; jobId: number; startedBy: string };
      expect(rel).toMatchObject({ commit: v3, startedBy: 'auto-deploy (poll)' });
      expect((await waitJob(rel.jobId)).state).toBe('succeeded');
      expect(await body()).toBe('v3');
    }, 90_000);
  },
);
