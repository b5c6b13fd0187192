import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitSupport } from '../../src/host/app-limits.ts';
import type { TestContext } from '../harness.ts';
import { type MailDaemons, missingMailPackages, startMailDaemons } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { freePort, request, startWithLocalApache } from './web-apache-helpers.ts';

const have = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const support = await limitSupport(false);
const why = [
  !have('apache2', ['-v']) ? 'apache2 (Debian package apache2)' : '',
  !have('git', ['--version']) ? 'git (Debian package git)' : '',
  process.getuid?.() !== 0 ? 'root' : '',
  ...missingMailPackages('sqlite').map((p) => `${p} (Debian package ${p})`),
  support.mechanism === 'none' ? `a writable cgroup (${support.reason})` : '',
].filter(Boolean);
if (why.length)
  skipLoudly(
    `${why.join(', ')} missing: an application past its Memory Limit is not proved to be killed inside its own cgroup`,
  );

/** Answers on / and /health; GET /eat allocates (and touches) 16 MiB every 20 ms until it is killed. */
const serverJs = `
const http = require('node:http');
const hold = [];
const server = http.createServer((req, res) => {
  if (req.url === '/eat') {
    res.writeHead(202); res.end('eating');
    setInterval(() => { const b = Buffer.alloc(16 * 1024 * 1024, 1); hold.push(b); }, 20);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('up ' + process.pid);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

function greeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = '';
    sock.setTimeout(5000, () => {
      sock.destroy();
      reject(new Error(`no greeting on ${port}`));
    });
    sock.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) {
        sock.destroy();
        resolve(buf.split('\n')[0]!.trim());
      }
    });
    sock.on('error', reject);
  });
}

/** The cgroup folder of a process's memory controller, and its OOM kill count. */
function memoryCgroup(pid: number): { dir: string; oomKills: () => number } {
  const lines = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  const v1 = lines.map((l) => l.split(':')).find((f) => (f[1] ?? '').split(',').includes('memory'));
  const mounts = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((l) => l.split(' '));
  if (support.mechanism === 'cgroup1' && v1) {
    const mount = mounts.find((m) => m[2] === 'cgroup' && (m[3] ?? '').split(',').includes('memory'))![1]!;
    const dir = path.join(mount, v1[2]!);
    return {
      dir,
      oomKills: () =>
        Number(/^oom_kill (\d+)$/m.exec(readFileSync(`${dir}/memory.oom_control`, 'utf8'))?.[1] ?? 0),
    };
  }
  const mount = mounts.find((m) => m[2] === 'cgroup2')![1]!;
  const v2 = lines.find((l) => l.startsWith('0::'))!.slice(3);
  const dir = path.join(mount, v2);
  return {
    dir,
    oomKills: () => Number(/^oom_kill (\d+)$/m.exec(readFileSync(`${dir}/memory.events`, 'utf8'))?.[1] ?? 0),
  };
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

describe.skipIf(why.length > 0)(
  'web applications: Memory Limit enforced in the app instance’s own cgroup',
  () => {
    let t: TestContext;
    let httpPort: number;
    let repo: string;
    let daemons: MailDaemons | null = null;
    const ports = { smtp: 0, submission: 0, imap: 0, imaps: 0, milter: 0, dns: 0 };
    const domain = 'hog.example.com';
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.call({
        method,
        url: `/api/${url}`,
        ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
      });
    const app = async () => (await call('GET', 'web/applications/hog')).json();

    beforeAll(async () => {
      repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-hog-repo-'));
      execFileSync('git', ['init', '-q', '-b', 'main', repo]);
      writeFileSync(path.join(repo, 'server.js'), serverJs);
      execFileSync('git', ['-C', repo, 'add', '-A']);
      execFileSync('git', [
        '-C',
        repo,
        '-c',
        'user.email=t@e.com',
        '-c',
        'user.name=t',
        'commit',
        '-q',
        '-m',
        'hog',
      ]);
      for (const k of Object.keys(ports) as (keyof typeof ports)[]) ports[k] = await freePort();
      ({ t, httpPort } = await startWithLocalApache(30_000, {
        MAILROOM_SMTP_PORT: String(ports.smtp),
        MAILROOM_SUBMISSION_PORT: String(ports.submission),
        MAILROOM_IMAP_PORT: String(ports.imap),
        MAILROOM_IMAPS_PORT: String(ports.imaps),
        MAILROOM_MILTER_PORT: String(ports.milter),
        MAILROOM_DNS_PORT: String(ports.dns),
      }));
      chmodSync(t.dataDir, 0o755);
      // The mail files are rendered at start (the settings' check answers once they are).
      expect((await call('GET', 'mail/settings')).json().check).toMatchObject({ ok: true });
      const conf = t.deps.host.path('/etc/dovecot/dovecot.conf');
      for (let i = 0; i < 150 && !existsSync(conf); i++) await new Promise((r) => setTimeout(r, 200));
      daemons = await startMailDaemons(t.deps.host.path('/'), ports);
    }, 120_000);
    afterAll(async () => {
      await daemons?.stop();
      await t?.close();
      rmSync(repo, { recursive: true, force: true });
    });

    it('past 96Mi the kernel kills it inside its cgroup (oom_kill > 0); the supervisor restarts it; Postfix and Dovecot stay up', async () => {
      const created = await call('POST', 'web/applications/add', {
        name: 'hog',
        domain,
        version: '1.0.0',
        repository: repo,
        deploymentPath: '/var/www/apps/hog',
        // Ports from a range of this test's own: other Mailroom tests on this machine start apps from 3000.
        port: 21_000 + (process.pid % 20) * 1000,
        startCommand: `${process.execPath} server.js`,
        // The build prints the cgroups it runs in: the build's own, capped.
        buildCommand: 'cat /proc/self/cgroup',
        enableHealthChecks: false,
        healthCheckTimeout: 2,
        shutdownTimeout: 1,
        memoryLimit: '96Mi',
        cpuLimit: '500m',
      });
      expect(created.statusCode, created.body).toBe(200);
      const res = await call('POST', 'web/applications/deploy/hog', {});
      expect(res.statusCode, res.body).toBe(202);
      let job = (await call('GET', `jobs/${res.json().jobId}`)).json();
      for (let i = 0; i < 600 && (job.state === 'running' || job.state === 'queued'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        job = (await call('GET', `jobs/${res.json().jobId}`)).json();
      }
      expect(job.state, JSON.stringify(job)).toBe('succeeded');
      const deployLog = (await call('GET', `web/applications/hog/deploy-log?jobId=${job.id}`)).json();
      const deployText = deployLog.lines.map((l: { text: string }) => l.text).join('\n');
      expect(deployText).toMatch(
        /Building: cat \/proc\/self\/cgroup as mr-app-hog \(nice 10, memory 2048 MiB, CPU \d+% of one CPU/,
      );
      expect(deployText).toMatch(/memory:.*\/mailroom-build-hog$/m);
      const before = await app();
      expect(before.resourceLimits).toMatchObject({ enforced: true });
      const pid = before.instances[0].pid as number;
      const group = memoryCgroup(pid);
      // Its own cgroup, named after the app and its port, below Mailroom's own; Mailroom is not in it.
      expect(path.basename(group.dir)).toBe(`mailroom-app-hog-${before.instances[0].port}`);
      expect(memoryCgroup(process.pid).dir).not.toBe(group.dir);
      expect(group.oomKills()).toBe(0);
      const postfix = daemons!.postfixPid;
      const dovecot = daemons!.dovecot.pid!;

      expect((await request(httpPort, domain, { path: '/eat' })).status).toBe(202);
      const until = Date.now() + 30_000;
      while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(alive(pid)).toBe(false);
      expect(group.oomKills()).toBeGreaterThan(0);
      console.log(`OOM kills in ${group.dir}: ${group.oomKills()}`);
      // Restarted with back-off (1 s first), in the same cgroup; it answers through Apache again.
      let after = await app();
      for (let i = 0; i < 100 && (after.instances[0]?.pid ?? pid) === pid; i++) {
        await new Promise((r) => setTimeout(r, 200));
        after = await app();
      }
      const again = after.instances[0].pid as number;
      expect(again).not.toBe(pid);
      // In its cgroup from its first instruction: held at the start gate until its pid is in cgroup.procs.
      expect(memoryCgroup(again).dir, after.statusMessage).toBe(group.dir);
      let r = await request(httpPort, domain);
      for (let i = 0; i < 50 && r.status !== 200; i++) {
        await new Promise((res2) => setTimeout(res2, 200));
        r = await request(httpPort, domain);
      }
      expect(r.body).toBe(`up ${again}`);
      // The mail daemons never noticed.
      expect(alive(postfix) && alive(dovecot)).toBe(true);
      expect(await greeting(ports.smtp)).toMatch(/^220 /);
      expect(await greeting(ports.imap)).toMatch(/^\* OK/);
    }, 180_000);
  },
);
