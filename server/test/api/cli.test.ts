import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli.ts';
import { buildOpenApiDocument, openApiText } from '../../src/openapi.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(argv: string[], env: NodeJS.ProcessEnv, stdin: string | null = null): Promise<Run> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (s) => (out += s), err: (s) => (err += s), readStdin: async () => stdin, env };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe.each(dialects())('mailroom CLI on %s', (dialect) => {
  let t: TestContext;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    // The CLI opens the same database the app uses, from the same settings.
    env = {
      MAILROOM_DATA_DIR: t.dataDir,
      ...(t.deps.database.postgresUrl ? { DATABASE_URL: t.deps.database.postgresUrl } : {}),
    };
  });
  afterAll(async () => t.close());

  const signIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });

  it('admin add takes the password from --password, --password=, the environment or stdin', async () => {
    const a = await cli(['admin', 'add', 'Ops@Example.com', '--password', 'flag-password-1'], env);
    expect(a).toEqual({ code: 0, out: 'Administrator ops@example.com created.\n', err: '' });
    expect((await signIn('ops@example.com', 'flag-password-1')).statusCode).toBe(200);

    expect((await cli(['admin', 'add', 'eq@example.com', '--password=equals-password-1'], env)).code).toBe(0);
    expect((await signIn('eq@example.com', 'equals-password-1')).statusCode).toBe(200);

    expect(
      (await cli(['admin', 'add', 'env@example.com'], { ...env, MAILROOM_ADMIN_PASSWORD: 'env-password-1' }))
        .code,
    ).toBe(0);
    expect((await signIn('env@example.com', 'env-password-1')).statusCode).toBe(200);

    expect(
      (await cli(['admin', 'add', 'pipe@example.com'], env, 'piped-password-1\nignored second line\n')).code,
    ).toBe(0);
    expect((await signIn('pipe@example.com', 'piped-password-1')).statusCode).toBe(200);
  });

  it('writes what it did to the audit log', async () => {
    const { entries } = (await t.call({ url: '/api/audit?action=auth.admin.add&limit=1' })).json();
    expect(entries[0]).toMatchObject({
      action: 'auth.admin.add',
      target: 'pipe@example.com',
      outcome: 'success',
      ip: null,
    });
    expect(entries[0].actor).toBe(`cli:${os.userInfo().username}`);
  });

  it('never prompts: no password anywhere is a usage error (exit 2)', async () => {
    const r = await cli(['admin', 'add', 'nopw@example.com'], env, null);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'no password given: use --password, set MAILROOM_ADMIN_PASSWORD, or pipe it on standard input',
    );
    expect(r.err).toContain('Usage: mailroom');
    expect((await cli(['admin', 'add', 'nopw@example.com'], env, '\n')).code).toBe(2);
    expect((await cli(['admin', 'add', 'nopw@example.com', '--password'], env)).code).toBe(2);
  });

  it('refuses bad input and duplicates with exit 1 and a clear message', async () => {
    const dup = await cli(['admin', 'add', 'ops@example.com', '--password', 'whatever-pass'], env);
    expect(dup).toMatchObject({ code: 1, out: '' });
    expect(dup.err).toBe('mailroom: An administrator ops@example.com already exists\n');
    const badEmail = await cli(['admin', 'add', 'not-an-email', '--password', 'whatever-pass'], env);
    expect(badEmail).toMatchObject({ code: 1, err: 'mailroom: Please enter a valid email address\n' });
    const short = await cli(['admin', 'add', 'short@example.com', '--password', 'short'], env);
    expect(short).toMatchObject({ code: 1, err: 'mailroom: Password must be at least 8 characters\n' });
  });

  it('admin list prints every administrator, sorted', async () => {
    const r = await cli(['admin', 'list'], env);
    expect(r.code).toBe(0);
    const emails = r.out
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0]);
    expect(emails).toEqual([
      'admin@example.com',
      'env@example.com',
      'eq@example.com',
      'ops@example.com',
      'pipe@example.com',
    ]);
    for (const line of r.out.trim().split('\n')) expect(Date.parse(line.split('\t')[1]!)).not.toBeNaN();
  });

  it('admin passwd changes the password and signs that administrator out', async () => {
    const token = (await signIn('ops@example.com', 'flag-password-1')).json().api_key;
    const r = await cli(['admin', 'passwd', 'ops@example.com', '--password', 'rotated-password-2'], env);
    expect(r).toEqual({
      code: 0,
      out: 'Password of ops@example.com changed; its sessions were signed out.\n',
      err: '',
    });
    expect(
      (await t.app.inject({ url: '/api/audit', headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(401);
    expect((await signIn('ops@example.com', 'flag-password-1')).statusCode).toBe(401);
    expect((await signIn('ops@example.com', 'rotated-password-2')).statusCode).toBe(200);
    const missing = await cli(['admin', 'passwd', 'ghost@example.com', '--password', 'whatever-pass'], env);
    expect(missing).toMatchObject({ code: 1, err: 'mailroom: No administrator ghost@example.com\n' });
  });

  it('admin remove deletes one, but never the last', async () => {
    for (const e of ['env@example.com', 'eq@example.com', 'pipe@example.com', 'ops@example.com']) {
      expect((await cli(['admin', 'remove', e], env)).code).toBe(0);
    }
    expect((await signIn('env@example.com', 'env-password-1')).statusCode).toBe(401);
    const last = await cli(['admin', 'remove', ADMIN.email], env);
    expect(last).toMatchObject({ code: 1, err: 'mailroom: The last administrator cannot be removed\n' });
    expect((await signIn(ADMIN.email, ADMIN.password)).statusCode).toBe(200);
    expect((await cli(['admin', 'remove', 'ghost@example.com'], env)).code).toBe(1);
  });

  it('migrate reports an up-to-date database', async () => {
    expect(await cli(['migrate'], env)).toEqual({ code: 0, out: 'The database is up to date.\n', err: '' });
  });

  it('answers bad usage and bad settings with exit 2', async () => {
    for (const argv of [
      [],
      ['frobnicate'],
      ['admin'],
      ['admin', 'grant', 'x@example.com'],
      ['admin', 'list', 'extra'],
      ['admin', 'add'],
      ['admin', 'remove', 'a@b.co', 'c@d.co'],
      ['migrate', 'now'],
      ['admin', 'add', 'a@b.co', '--force'],
    ]) {
      const r = await cli(argv, env);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^mailroom: /);
      expect(r.out).toBe('');
    }
    const badEnv = await cli(['admin', 'list'], { ...env, PORT: 'eighty' });
    expect(badEnv.code).toBe(2);
    expect(badEnv.err).toContain('PORT: must be a whole number from 0 to 65535');
    expect((await cli(['help'], env)).out).toContain('admin add <email> [--password P]');
  });
});

describe('mailroom CLI without a database', () => {
  it('migrate creates and migrates a fresh data folder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-cli-'));
    try {
      const r = await cli(['migrate'], { MAILROOM_DATA_DIR: dir });
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Applied 0001-core/);
      expect((await cli(['migrate'], { MAILROOM_DATA_DIR: dir })).out).toBe('The database is up to date.\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('openapi prints the generated document', async () => {
    const r = await cli(['openapi'], { DATABASE_URL: 'postgres://nowhere.invalid/x' });
    expect(r.code).toBe(0);
    expect(r.out).toBe(openApiText(await buildOpenApiDocument()));
  });

  it('runs as server/bin/mailroom.mjs with exit codes and piped input', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/mailroom.mjs');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bin-'));
    const run = (args: string[], input?: string) =>
      spawnSync(process.execPath, [bin, ...args], {
        input,
        encoding: 'utf8',
        cwd: os.tmpdir(),
        env: { PATH: process.env.PATH, MAILROOM_DATA_DIR: dir },
        timeout: 30_000,
      });
    try {
      const add = run(['admin', 'add', 'bin@example.com'], 'bin-password-1\n');
      expect(add.stderr).toBe('');
      expect(add.status).toBe(0);
      expect(add.stdout).toBe('Administrator bin@example.com created.\n');
      const list = run(['admin', 'list']);
      expect(list.status).toBe(0);
      expect(list.stdout).toMatch(/^bin@example\.com\t/);
      const bad = run(['frobnicate']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('mailroom: unknown command frobnicate');
      const refused = run(['admin', 'remove', 'bin@example.com']);
      expect(refused.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
