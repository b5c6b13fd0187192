import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApacheDaemon } from '../../src/features/web/web.module.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { freePort, openForApache, request } from './web-apache-helpers.ts';

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
    'apache2 (Debian package apache2), git (Debian package git) or root is missing: web applications are not deployed for real',
  );

/** A tiny Node app: answers "<version> <GREETING>" on /, /health 200 unless the release says otherwise. */
const serverJs = (version: string, healthy = true) => `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url === '/health') { res.writeHead(${healthy ? 200 : 500}); res.end('${healthy ? 'ok' : 'broken'}'); return; }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('${version} ' + (process.env.GREETING || '') + ' ' + process.env.PORT);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + process.env.PORT));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

describe.skipIf(!haveAll)(
  'web applications: deployed from git, health-gated switch, rollback, stop/start',
  () => {
    let t: TestContext;
    let httpPort: number;
    let repo: string;
    const domain = 'demo.example.com';
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
    const commit = (version: string, healthy = true) => {
      writeFileSync(path.join(repo, 'server.js'), serverJs(version, healthy));
      writeFileSync(
        path.join(repo, 'build.js'),
        "require('node:fs').writeFileSync('built.txt', 'yes');\nconsole.log('built');\n",
      );
      git('add', '-A');
      git('commit', '-q', '-m', version);
      return git('rev-parse', 'HEAD').trim();
    };
    const appBody = {
      name: 'demo',
      domain,
      version: '1.0.0',
      deploymentPath: '/var/www/apps/demo',
      startCommand: `${process.execPath} server.js`,
      buildCommand: `${process.execPath} build.js`,
      healthCheckInterval: 3,
      healthCheckTimeout: 2,
      shutdownTimeout: 1,
      customEnvironmentVariables: { GREETING: 'one' },
    };
    const waitJob = async (jobId: number) => {
      for (let i = 0; i < 600; i++) {
        const j = (await call('GET', `jobs/${jobId}`)).json();
        if (j.state !== 'running' && j.state !== 'queued') return j;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('job did not end');
    };
    const deploy = async (ref?: string) => {
      const res = await call('POST', 'web/applications/deploy/demo', ref ? { ref } : {});
      expect(res.statusCode, res.body).toBe(202);
      return waitJob(res.json().jobId);
    };
    const get = () => request(httpPort, domain);

    beforeAll(async () => {
      repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-app-repo-'));
      execFileSync('git', ['init', '-q', '-b', 'main', repo]);
      commit('v1');
      httpPort = await freePort();
      t = await startTestApp('sqlite', {
        env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(await freePort()) },
        webDaemon: (host, config) => localApacheDaemon(host, config),
      });
      openForApache(t.dataDir);
      const until = Date.now() + 20_000;
      while (Date.now() < until) {
        if ((await call('GET', 'web/dashboard')).json().status[0].state === 'running') break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      rmSync(repo, { recursive: true, force: true });
    });

    it('create → 503; deploy → the app answers through Apache by Host header, as its own user, with the split measured', async () => {
      const created = await call('POST', 'web/applications/add', { ...appBody, repository: repo });
      expect(created.statusCode, created.body).toBe(200);
      expect((await get()).status).toBe(503);
      const job = await deploy();
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      const r = await get();
      expect(r.status).toBe(200);
      expect(r.body).toMatch(/^v1 one \d+$/);
      const app = (await call('GET', 'web/applications/demo')).json();
      expect(app).toMatchObject({ status: 'active', runAs: 'mr-app-demo' });
      expect(app.runningPort).toBeGreaterThan(0);
      // The process runs as mr-app-demo.
      const owner = execFileSync('ps', ['-o', 'user=', '-p', String(app.pid)], { encoding: 'utf8' }).trim();
      expect(owner).toBe('mr-app-demo');
      const rel = (await call('GET', 'web/applications/demo/releases')).json()[0];
      expect(rel).toMatchObject({
        state: 'live',
        commit: git('rev-parse', 'HEAD').trim(),
        environmentVariableNames: ['GREETING'],
      });
      expect(rel.vhostConfigHash).toMatch(/^[0-9a-f]{64}$/);
      expect(existsSync(t.deps.host.path(`${rel.path}/built.txt`))).toBe(true);
      console.log(`deploy split (s): ${JSON.stringify(rel.timings)}`);
      // The job's event carries the last stored log line; the log resumes from any seq.
      const log = (await call('GET', `web/applications/demo/deploy-log?jobId=${job.id}`)).json();
      expect(log.done).toBe(true);
      expect(job.counts.logLines).toBe(log.lastSeq);
      const rest = (await call('GET', `web/applications/demo/deploy-log?jobId=${job.id}&after=3`)).json();
      expect(rest.lines.map((l: { seq: number }) => l.seq)).toEqual(
        log.lines.slice(3).map((l: { seq: number }) => l.seq),
      );
      const detail = (await call('GET', `web/applications/demo/releases/${rel.id}`)).json();
      expect(detail.buildLog).toContain('Healthy on 127.0.0.1');
      const dash = (await call('GET', 'web/dashboard')).json();
      expect(dash.stats).toMatchObject({ totalWebApplications: 1, activeWebApplications: 1 });
    }, 60_000);

    it('a second deploy (new commit, new env) while a client requests non-stop: zero non-2xx, then the new body', async () => {
      const upd = await call('POST', 'web/applications/update/demo', {
        ...appBody,
        repository: repo,
        customEnvironmentVariables: { GREETING: 'two' },
      });
      expect(upd.statusCode, upd.body).toBe(200);
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
      // Keep requesting through the drain of the old release.
      await new Promise((r) => setTimeout(r, 1500));
      stop = true;
      await loop;
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      console.log(`requests during the deploy: ${requests}, statuses ${JSON.stringify([...statuses])}`);
      expect([...statuses.keys()]).toEqual([200]);
      expect(requests).toBeGreaterThan(20);
      expect((await get()).body).toMatch(/^v2 two \d+$/);
      const rels = (await call('GET', 'web/applications/demo/releases')).json();
      console.log(`deploy split (s): ${JSON.stringify(rels[0].timings)}`);
    }, 90_000);

    it('a release whose health check fails: the old body keeps being served, the app shows error with the last lines', async () => {
      commit('v3', false);
      const job = await deploy();
      expect(job.state).toBe('failed');
      expect((await get()).body).toMatch(/^v2 two \d+$/);
      const app = (await call('GET', 'web/applications/demo')).json();
      expect(app.status).toBe('error');
      expect(app.statusMessage).toContain('did not answer 2xx on /health');
      const log = (await call('GET', `web/applications/demo/deploy-log?jobId=${job.id}`)).json();
      expect(log.done).toBe(true);
      expect(log.lines.at(-1).text).toContain('Failed');
    }, 60_000);

    it('rollback runs the previous release with its own environment through the same switch', async () => {
      const res = await call('POST', 'web/applications/rollback/demo');
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitJob(res.json().jobId);
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      expect((await get()).body).toMatch(/^v1 one \d+$/);
      const rels = (await call('GET', 'web/applications/demo/releases')).json();
      expect(rels[0]).toMatchObject({ trigger: 'rollback', state: 'live', sourceReleaseId: rels.at(-1).id });
    }, 60_000);

    it('stop → 503 (the process is gone), start → 200; toggle follows spec §4', async () => {
      const before = (await call('GET', 'web/applications/demo')).json();
      const stopped = await call('POST', 'web/applications/stop/demo');
      expect(stopped.statusCode, stopped.body).toBe(200);
      expect(stopped.json().application.status).toBe('inactive');
      expect((await get()).status).toBe(503);
      expect(() => process.kill(before.pid, 0)).toThrow();
      const started = await call('POST', 'web/applications/toggle/demo');
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().application.status).toBe('active');
      const r = await get();
      expect(r.status).toBe(200);
      expect(r.body).toMatch(/^v1 one \d+$/);
    }, 60_000);

    it('a malicious ref, repository or command is refused with nothing written', async () => {
      const rels = (await call('GET', 'web/applications/demo/releases')).json().length;
      const bad = await call('POST', 'web/applications/deploy/demo', { ref: 'main;touch /tmp/x' });
      expect(bad.statusCode).toBe(400);
      const badRepo = await call('POST', 'web/applications/update/demo', {
        ...appBody,
        repository: '-uhack',
      });
      expect(badRepo.statusCode).toBe(400);
      const badCmd = await call('POST', 'web/applications/update/demo', {
        ...appBody,
        repository: repo,
        buildCommand: 'sh -c "touch /tmp/x"; true',
      });
      expect(badCmd.statusCode).toBe(400);
      expect((await call('GET', 'web/applications/demo/releases')).json().length).toBe(rels);
      expect(existsSync('/tmp/x')).toBe(false);
    });

    it('a crashed app process is restarted by Mailroom (back-off) and serves again', async () => {
      const before = (await call('GET', 'web/applications/demo')).json();
      process.kill(before.pid, 'SIGKILL');
      let after = before;
      for (let i = 0; i < 50 && (after.pid === before.pid || after.pid === null); i++) {
        await new Promise((r) => setTimeout(r, 200));
        after = (await call('GET', 'web/applications/demo')).json();
      }
      expect(after.pid).not.toBe(before.pid);
      let r = await get();
      for (let i = 0; i < 20 && r.status !== 200; i++) {
        await new Promise((res) => setTimeout(res, 200));
        r = await get();
      }
      expect(r.status).toBe(200);
      expect(r.body).toMatch(/^v1 one \d+$/);
    }, 30_000);

    it('a Static application: Apache serves the built release folder itself, no process', async () => {
      const site = mkdtempSync(path.join(os.tmpdir(), 'mailroom-static-repo-'));
      try {
        execFileSync('git', ['init', '-q', '-b', 'main', site]);
        writeFileSync(path.join(site, 'index.html'), '<h1>static v1</h1>\n');
        execFileSync('git', ['-C', site, 'add', '-A']);
        execFileSync('git', [
          '-C',
          site,
          '-c',
          'user.email=t@example.com',
          '-c',
          'user.name=t',
          'commit',
          '-q',
          '-m',
          'v1',
        ]);
        const created = await call('POST', 'web/applications/add', {
          name: 'docs',
          domain: 'docs.example.com',
          version: '1',
          type: 'Static',
          deploymentPath: '/var/www/apps/docs',
          repository: site,
        });
        expect(created.statusCode, created.body).toBe(200);
        const res = await call('POST', 'web/applications/deploy/docs');
        expect(res.statusCode, res.body).toBe(202);
        expect((await waitJob(res.json().jobId)).state).toBe('succeeded');
        const r = await request(httpPort, 'docs.example.com');
        expect(r.status).toBe(200);
        expect(r.body).toContain('static v1');
        expect((await call('GET', 'web/applications/docs')).json()).toMatchObject({
          status: 'active',
          pid: null,
        });
      } finally {
        rmSync(site, { recursive: true, force: true });
      }
    }, 60_000);

    it('delete stops the process, removes its virtual host, its files and its Unix user', async () => {
      const pid = (await call('GET', 'web/applications/demo')).json().pid as number;
      for (const name of ['demo', 'docs']) {
        const del = await call('POST', `web/applications/remove/${name}`, { keepFiles: false });
        expect(del.statusCode, del.body).toBe(200);
      }
      expect(() => process.kill(pid, 0)).toThrow();
      expect((await get()).status).toBe(404);
      expect(existsSync(t.deps.host.path('/var/www/apps/demo'))).toBe(false);
      expect(() => execFileSync('id', ['mr-app-demo'], { stdio: 'ignore' })).toThrow();
    }, 60_000);
  },
);
