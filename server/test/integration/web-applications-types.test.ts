import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const haveAll =
  have('apache2', ['-v']) &&
  have('git', ['--version']) &&
  have('/usr/bin/python3', ['--version']) &&
  process.getuid?.() === 0;
if (!haveAll)
  skipLoudly(
    'apache2 (Debian package apache2), git (Debian package git), python3 (Debian package python3) or root is missing: Restart Command, Python and Angular applications are not deployed for real',
  );

/** A git repository made by the test; `commit` writes the files given and answers the commit. */
function makeRepo(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  return {
    dir,
    commit(files: Record<string, string>, message: string): string {
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), text);
      }
      const git = (...args: string[]) =>
        execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
          encoding: 'utf8',
        });
      git('add', '-A');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD').trim();
    },
  };
}

/** A Python HTTP app, standard library only: "<version> <GREETING>" on /, 200 on /health. */
const appPy = (version: string) => `
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'ok' if self.path == '/health' else ('${version} ' + os.environ.get('GREETING', '')).encode()
        self.send_response(200)
        self.send_header('content-type', 'text/plain')
        self.send_header('content-length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, fmt, *args):
        pass

server = ThreadingHTTPServer(('127.0.0.1', int(os.environ['PORT'])), Handler)
print('listening on', os.environ['PORT'])
server.serve_forever()
`;

/** A Node app for the Restart Command: "<version> <pid>" on /, 200 on /health. */
const serverJs = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(req.url === '/health' ? 'ok' : 'rs ' + process.pid);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

/** The Restart Command: writes who ran it, where, and the release's PORT. */
const restartJs = `
require('node:fs').writeFileSync('restarted-by-command', JSON.stringify({ uid: process.getuid(), port: process.env.PORT, cwd: process.cwd() }));
console.log('restart command ran');
`;

/** An "Angular" build without a shell: writes dist/index.html and an asset. */
const buildJs = (version: string) => `
const fs = require('node:fs');
fs.mkdirSync('dist/assets', { recursive: true });
fs.writeFileSync('dist/index.html', '<!doctype html><html><body><app-root>ng ${version}</app-root></body></html>\\n');
fs.writeFileSync('dist/assets/app.js', 'console.log("${version}")\\n');
console.log('built ${version}');
`;

describe.skipIf(!haveAll)(
  'web applications: Restart Command, Python (standard library HTTP app), Angular (built files, SPA fallback)',
  () => {
    let t: TestContext;
    let httpPort: number;
    const repos: string[] = [];
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.call({
        method,
        url: `/api/${url}`,
        ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
      });
    const waitJob = async (jobId: number) => {
      for (let i = 0; i < 900; i++) {
        const j = (await call('GET', `jobs/${jobId}`)).json();
        if (j.state !== 'running' && j.state !== 'queued') return j;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('job did not end');
    };
    const deploy = async (name: string) => {
      const res = await call('POST', `web/applications/deploy/${name}`);
      expect(res.statusCode, res.body).toBe(202);
      return waitJob(res.json().jobId);
    };
    const logText = async (name: string, jobId: number) =>
      (await call('GET', `web/applications/${name}/deploy-log?jobId=${jobId}`))
        .json()
        .lines.map((l: { text: string }) => l.text)
        .join('\n');

    beforeAll(async () => {
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
      for (const r of repos) rmSync(r, { recursive: true, force: true });
    });

    it('restart runs the Restart Command as the app user in the release folder with its environment; the app answers afterwards', async () => {
      const repo = makeRepo('mailroom-rs-repo-');
      repos.push(repo.dir);
      repo.commit({ 'server.js': serverJs, 'restart.js': restartJs }, 'v1');
      const created = await call('POST', 'web/applications/add', {
        name: 'rs',
        domain: 'rs.example.com',
        version: '1',
        deploymentPath: '/var/www/apps/rs',
        repository: repo.dir,
        startCommand: `${process.execPath} server.js`,
        restartCommand: `${process.execPath} restart.js`,
        healthCheckInterval: 3,
        healthCheckTimeout: 2,
        shutdownTimeout: 1,
      });
      expect(created.statusCode, created.body).toBe(200);
      expect((await deploy('rs')).state).toBe('succeeded');
      const before = (await call('GET', 'web/applications/rs')).json();
      const rel = (await call('GET', `web/applications/rs/releases/${before.currentReleaseId}`)).json();
      const marker = t.deps.host.path(`${rel.path}/restarted-by-command`);
      expect(existsSync(marker)).toBe(false);
      const res = await call('POST', 'web/applications/restart/rs');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ message: 'rs restarted', application: { status: 'active' } });
      // The command ran: as mr-app-rs, in the live release's folder, with the release's PORT.
      const ran = JSON.parse(readFileSync(marker, 'utf8'));
      const uid = Number(execFileSync('id', ['-u', 'mr-app-rs'], { encoding: 'utf8' }).trim());
      expect(ran).toEqual({ uid, port: String(before.runningPort), cwd: path.dirname(marker) });
      expect(statSync(marker).uid).toBe(uid);
      // It replaced the stop+start: the same process serves on, and answers through Apache.
      const after = (await call('GET', 'web/applications/rs')).json();
      expect(after.pid).toBe(before.pid);
      const r = await request(httpPort, 'rs.example.com');
      expect(r.status).toBe(200);
      expect(r.body).toBe(`rs ${before.pid}`);
      // A Restart Command that fails: 409 naming its exit code, the app in error.
      const upd = await call('POST', 'web/applications/update/rs', {
        ...created.json().application,
        restartCommand: `${process.execPath} -e process.exit(3)`,
      });
      expect(upd.statusCode, upd.body).toBe(400);
      const upd2 = await call('POST', 'web/applications/update/rs', {
        ...created.json().application,
        restartCommand: `${process.execPath} missing-restart.js`,
      });
      expect(upd2.statusCode, upd2.body).toBe(200);
      const bad = await call('POST', 'web/applications/restart/rs');
      expect(bad.statusCode, bad.body).toBe(409);
      expect(bad.json().message).toContain('The Restart Command exited with code 1');
      expect((await call('GET', 'web/applications/rs')).json().status).toBe('error');
    }, 90_000);

    it('Python: create → deploy → answers through Apache; a second release while a client requests non-stop: zero non-2xx, then the new body', async () => {
      const repo = makeRepo('mailroom-py-repo-');
      repos.push(repo.dir);
      repo.commit({ 'app.py': appPy('py1'), 'requirements.txt': '# standard library only\n' }, 'v1');
      const created = await call('POST', 'web/applications/add', {
        name: 'py',
        domain: 'py.example.com',
        type: 'Python',
        version: '1',
        deploymentPath: '/var/www/apps/py',
        repository: repo.dir,
        startCommand: 'python3 app.py',
        healthCheckInterval: 5,
        healthCheckTimeout: 2,
        shutdownTimeout: 1,
        customEnvironmentVariables: { GREETING: 'hello' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const job = await deploy('py');
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      // requirements.txt without a Build Command: the log says plainly nothing was installed.
      expect(await logText('py', job.id)).toContain(
        'requirements.txt is not installed without a Build Command',
      );
      const r = await request(httpPort, 'py.example.com');
      expect(r.status).toBe(200);
      expect(r.body).toBe('py1 hello');
      const app = (await call('GET', 'web/applications/py')).json();
      expect(
        execFileSync('ps', ['-o', 'user:20=,comm=', '-p', String(app.pid)], { encoding: 'utf8' }).trim(),
      ).toMatch(/^mr-app-py\s+python3/);

      repo.commit({ 'app.py': appPy('py2') }, 'v2');
      const statuses = new Map<number, number>();
      let stop = false;
      let requests = 0;
      const loop = (async () => {
        while (!stop) {
          const x = await request(httpPort, 'py.example.com').catch(() => ({ status: 0, body: '' }));
          requests++;
          statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
        }
      })();
      const second = await deploy('py');
      await new Promise((res) => setTimeout(res, 1500));
      stop = true;
      await loop;
      expect(second.state, JSON.stringify(second)).toBe('succeeded');
      console.log(
        `python: requests during the deploy: ${requests}, statuses ${JSON.stringify([...statuses])}`,
      );
      expect([...statuses.keys()]).toEqual([200]);
      expect(requests).toBeGreaterThan(20);
      expect((await request(httpPort, 'py.example.com')).body).toBe('py2 hello');
    }, 120_000);

    it('Angular: the Build Command (argv, no shell) writes dist/; Apache serves it, a deep link answers index.html; rollback switches back', async () => {
      const repo = makeRepo('mailroom-ng-repo-');
      repos.push(repo.dir);
      repo.commit({ 'build.js': buildJs('v1') }, 'v1');
      const created = await call('POST', 'web/applications/add', {
        name: 'ng',
        domain: 'ng.example.com',
        type: 'Angular',
        version: '1',
        deploymentPath: '/var/www/apps/ng',
        repository: repo.dir,
        buildCommand: `${process.execPath} build.js`,
      });
      expect(created.statusCode, created.body).toBe(200);
      const job = await deploy('ng');
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      const home = await request(httpPort, 'ng.example.com');
      expect(home.status).toBe(200);
      expect(home.body).toContain('<app-root>ng v1</app-root>');
      const deep = await request(httpPort, 'ng.example.com', { path: '/some/route' });
      expect(deep.status).toBe(200);
      expect(deep.body).toContain('<app-root>ng v1</app-root>');
      const asset = await request(httpPort, 'ng.example.com', { path: '/assets/app.js' });
      expect(asset.body).toBe('console.log("v1")\n');
      // The build folder is what Apache serves, not the repository (build.js is not reachable).
      expect((await request(httpPort, 'ng.example.com', { path: '/build.js' })).body).not.toContain(
        'writeFileSync',
      );
      expect((await call('GET', 'web/applications/ng')).json()).toMatchObject({
        status: 'active',
        pid: null,
      });

      repo.commit({ 'build.js': buildJs('v2') }, 'v2');
      expect((await deploy('ng')).state).toBe('succeeded');
      expect((await request(httpPort, 'ng.example.com', { path: '/some/route' })).body).toContain('ng v2');

      const back = await call('POST', 'web/applications/rollback/ng');
      expect(back.statusCode, back.body).toBe(202);
      expect((await waitJob(back.json().jobId)).state).toBe('succeeded');
      expect((await request(httpPort, 'ng.example.com')).body).toContain('ng v1');
      expect((await request(httpPort, 'ng.example.com', { path: '/another/deep/link' })).body).toContain(
        'ng v1',
      );

      // A build that writes no dist/index.html fails plainly; the live release keeps serving.
      repo.commit(
        {
          'build.js':
            "require('node:fs').mkdirSync('out/app/browser', { recursive: true }); require('node:fs').writeFileSync('out/app/browser/index.html', 'x');\n",
        },
        'v3',
      );
      const failed = await deploy('ng');
      expect(failed.state).toBe('failed');
      expect(await logText('ng', failed.id)).toContain(
        'The build wrote no dist/index.html (there is out/app/browser/index.html: set the output path to dist/)',
      );
      expect((await request(httpPort, 'ng.example.com')).body).toContain('ng v1');
    }, 120_000);

    it('delete removes the applications', async () => {
      for (const name of ['rs', 'py', 'ng']) {
        const del = await call('POST', `web/applications/remove/${name}`, { keepFiles: false });
        expect(del.statusCode, del.body).toBe(200);
      }
    }, 60_000);
  },
);
