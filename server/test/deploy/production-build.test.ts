import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../postgres-cluster.ts';

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

describe('the production build', () => {
  let dataDir: string;
  let server: ChildProcess | null = null;
  let output = '';

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-build-'));
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
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
    const imported = new Set<string>();
    for (const f of files) {
      const text = readFileSync(path.join(DIST, f), 'utf8');
      for (const m of text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/g))
        imported.add(m[1]!);
      for (const m of text.matchAll(/(?:^|[\s;])import\s*["']([^"']+)["']/g)) imported.add(m[1]!);
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
