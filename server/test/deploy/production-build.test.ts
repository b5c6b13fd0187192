import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';
import { makeSandbox, type Sandbox, sandboxSkipReason } from './system-sandbox.ts';

// The production path: `npm run build` compiles the server to server/dist/, and the service runs
// `node server/dist/main.js` with no TypeScript loader (docs/install.md, deploy/mailroom.service).
const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIST = path.join(ROOT, 'server', 'dist');

/** Environment of a production start: no NODE_OPTIONS (so no tsx loader sneaks in), no daemons. */
function prodEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
    MAILROOM_RUN_DAEMONS: '0',
    MAILROOM_ADMIN_EMAIL: 'ops@example.com',
    MAILROOM_ADMIN_PASSWORD: 'a-long-passphrase',
    LOG_LEVEL: 'warn',
  };
}

// One build for the file: both scenarios below run the same server/dist.
beforeAll(() => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
});

describe('the production build', () => {
  let dataDir: string;
  let server: ChildProcess | null = null;
  let output = '';

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-build-'));
  });
  afterAll(() => {
    if (server?.pid && server.exitCode === null) process.kill(server.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is plain JavaScript that imports only the server’s runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'server', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const files = readdirSync(DIST).filter((f) => f.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['main.js', 'cli.js']));
    // esbuild's own account of what every output file imports.
    const meta = JSON.parse(readFileSync(path.join(DIST, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    const imported = new Set<string>();
    for (const [out, o] of Object.entries(meta.outputs)) {
      if (!out.endsWith('.js')) continue;
      for (const i of o.imports) if (i.external) imported.add(i.path);
    }
    const packages = [...imported]
      .filter((s) => !s.startsWith('.') && !builtins.has(s))
      .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
    expect(packages.length).toBeGreaterThan(3);
    for (const p of packages) expect(Object.keys(pkg.dependencies), `${p} imported at run time`).toContain(p);
    // Nothing TypeScript is left to load: our own code and the contract are inside the bundle.
    expect(
      [...imported].filter((s) => s.endsWith('.ts') || s.startsWith('@mailroom/') || s === 'tsx'),
    ).toEqual([]);
  });

  it('`node server/dist/main.js` serves /auth/status and stops on SIGTERM', async () => {
    const port = await freePort();
    server = spawn(process.execPath, [path.join(DIST, 'main.js')], {
      cwd: os.tmpdir(),
      env: prodEnv(dataDir, port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => server!.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (Date.now() < deadline && server.exitCode === null) {
      try {
        status = (await fetch(`http://127.0.0.1:${port}/auth/status`)).status;
        if (status === 200) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status, output).toBe(200);
    const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: 'a-long-passphrase' }),
    });
    expect(login.status, output).toBe(200);
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('`node server/dist/cli.js` runs the mailroom command on the same data', () => {
    const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), 'admin', 'list'], {
      cwd: os.tmpdir(),
      env: prodEnv(dataDir, 0),
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('ops@example.com');
  });
});

const sandboxSkip = sandboxSkipReason();
if (sandboxSkip) process.stderr.write(`\n!!! system-mode service test SKIPPED: ${sandboxSkip} !!!\n\n`);

describe.skipIf(sandboxSkip !== null)('the compiled server in system mode, as the unit runs it', () => {
  let box: Sandbox;
  let server: ChildProcess | null = null;
  let output = '';
  const debianMainCf = readFileSync('/etc/postfix/main.cf', 'utf8');
  const debianMasterCf = readFileSync('/etc/postfix/master.cf', 'utf8');

  beforeAll(() => {
    const unit = readFileSync(path.join(ROOT, 'deploy/mailroom.service'), 'utf8');
    const writable = unit
      .split('\n')
      .filter((l) => l.startsWith('ReadWritePaths='))
      .flatMap((l) => l.slice('ReadWritePaths='.length).trim().split(/\s+/));
    box = makeSandbox(writable);
  });
  afterAll(() => {
    if (server?.pid && server.exitCode === null) process.kill(server.pid, 'SIGKILL');
    box?.cleanup();
  });

  it('runs unprivileged on a read-only /etc, takes over Debian’s Postfix files and backs them up first', async () => {
    const port = await freePort();
    server = spawn(
      '/usr/bin/unshare',
      [
        '-m',
        '--propagation',
        'private',
        '/bin/sh',
        box.wrapper,
        process.execPath,
        path.join(DIST, 'main.js'),
      ],
      {
        env: {
          ...prodEnv(box.dataDir, port),
          MAILROOM_ROOT: '/',
          MAILROOM_RELOAD: '1',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => server!.on('exit', (code) => resolve(code)));

    const backups = path.join(box.dataDir, 'backups', 'system-files');
    const backupOf = (rel: string) => {
      const stamps = existsSync(backups) ? readdirSync(backups) : [];
      return stamps.map((s) => path.join(backups, s, rel)).find((p) => existsSync(p)) ?? null;
    };
    const deadline = Date.now() + 40_000;
    let status = 0;
    while (Date.now() < deadline && server.exitCode === null) {
      try {
        status = (await fetch(`http://127.0.0.1:${port}/auth/status`)).status;
      } catch {
        /* not listening yet */
      }
      // At start Mailroom renders the mail configuration with the saved (default) settings.
      // (The originals are copied before the swap: wait for the rendered file too.)
      const rendered = path.join(box.etc, 'postfix/main.cf');
      if (
        status === 200 &&
        backupOf('etc/postfix/master.cf') &&
        readFileSync(rendered, 'utf8').includes('virtual_mailbox_maps')
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status, output).toBe(200);

    // Debian's main.cf and master.cf were copied, as they were, before Mailroom replaced them…
    const mainCopy = backupOf('etc/postfix/main.cf');
    expect(mainCopy, output).not.toBeNull();
    expect(readFileSync(mainCopy!, 'utf8')).toBe(debianMainCf);
    expect(readFileSync(backupOf('etc/postfix/master.cf')!, 'utf8')).toBe(debianMasterCf);
    // …and replaced, by the mailroom user, in the sandbox's /etc only.
    const rendered = path.join(box.etc, 'postfix/main.cf');
    expect(readFileSync(rendered, 'utf8'), output).toContain('virtual_mailbox_maps');
    expect(statSync(rendered).uid).toBe(box.uid);
    expect(readFileSync('/etc/postfix/main.cf', 'utf8')).toBe(debianMainCf);
    expect(existsSync(path.join(box.etc, 'postfix/mailroom/virtual-mailboxes.cf'))).toBe(true);
    // Debian's commented dovecot-sql.conf.ext (0640 root:dovecot) was taken over the same way.
    if (existsSync('/etc/dovecot/dovecot-sql.conf.ext')) {
      const copy = backupOf('etc/dovecot/dovecot-sql.conf.ext');
      expect(copy, output).not.toBeNull();
      expect(readFileSync(copy!, 'utf8')).toBe(readFileSync('/etc/dovecot/dovecot-sql.conf.ext', 'utf8'));
      expect(statSync(copy!).mode & 0o777).toBe(statSync('/etc/dovecot/dovecot-sql.conf.ext').mode & 0o777);
    }

    server.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  }, 90_000);

  it('`deploy/mailroom` runs the compiled CLI as mailroom with the settings file, also when root calls it', () => {
    const envFile = path.join(box.dir, 'mailroom.env');
    writeFileSync(envFile, `MAILROOM_DATA_DIR=${box.dataDir}\nMAILROOM_ROOT=/\nMAILROOM_RUN_DAEMONS=0\n`);
    chmodSync(envFile, 0o644);
    for (const wrapper of [box.wrapper, box.rootWrapper]) {
      const r = spawnSync(
        '/usr/bin/unshare',
        [
          '-m',
          '--propagation',
          'private',
          '/bin/sh',
          wrapper,
          path.join(ROOT, 'deploy/mailroom'),
          'admin',
          'list',
        ],
        {
          env: { PATH: process.env.PATH, MAILROOM_HOME: ROOT, MAILROOM_ENV_FILE: envFile },
          encoding: 'utf8',
        },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('ops@example.com');
    }
    // Run by root, it still ran as mailroom: nothing in the data folder became root's.
    for (const f of readdirSync(box.dataDir).filter((n) => n.startsWith('mailroom.db')))
      expect(statSync(path.join(box.dataDir, f)).uid, f).toBe(box.uid);
  });
});
