import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPhpPools } from '../../src/host/php-fpm-host.ts';
import { isAlive } from '../../src/host/supervisor.ts';
import type { TestContext } from '../harness.ts';
import { phpStackHere, request, startWithLocalApache } from './web-apache-helpers.ts';

const here = phpStackHere('PHP through per-site PHP-FPM pools');

/** The PHP page: who runs it, its memory limit, and whether it can read a given file. */
const probePage = (other: string) => `<?php
header('Content-Type: application/json');
$who = posix_getpwuid(posix_geteuid());
$read = @file_get_contents(${JSON.stringify(other)});
echo json_encode([
  'user' => $who['name'],
  'memory' => ini_get('memory_limit'),
  'upload' => ini_get('upload_max_filesize'),
  'post' => ini_get('post_max_size'),
  'time' => ini_get('max_execution_time'),
  'read' => $read === false ? false : $read,
]);
`;

describe.skipIf(!here)('PHP through one PHP-FPM pool per site, as the site’s own user', () => {
  let t: TestContext;
  let httpPort: number;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    ({ t, httpPort } = await startWithLocalApache(20_000));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a PHP page runs as its site’s user with the set limits, and cannot read another site’s file', async () => {
    // The server-wide PHP limits are every host's ceiling: room for the limits this test sets.
    const settings = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const raised = await call('POST', 'web/settings', {
      ...settings,
      phpMemoryLimit: '256M',
      phpMaxExecutionTime: 60,
      phpUploadMaxFilesize: '16M',
      phpPostMaxSize: '32M',
    });
    expect(raised.statusCode, raised.body).toBe(200);
    const add = async (domain: string, extra: object) => {
      const res = await call('POST', 'web/vhosts/add', {
        domain,
        serverName: domain,
        documentRoot: `/var/www/${domain}`,
        enablePhp: true,
        phpVersion: '8.2',
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ vhost: { id: number; siteUser: string } }>().vhost;
    };
    const a = await add('php-a.example.com', {
      phpMemoryLimit: '96M',
      phpUploadMaxFilesize: '3M',
      phpPostMaxSize: '9M',
      phpMaxExecutionTime: 42,
    });
    const b = await add('php-b.example.com', { phpMemoryLimit: '64M' });
    expect(a.siteUser).toBe(`mr-site-${a.id}`);
    expect(b.siteUser).toBe(`mr-site-${b.id}`);
    const docA = t.deps.host.path('/var/www/php-a.example.com');
    const docB = t.deps.host.path('/var/www/php-b.example.com');
    // The document roots: the site's user, Apache's group, nobody else.
    expect(statSync(docA).mode & 0o7777).toBe(0o2750);
    expect(execFileSync('stat', ['-c', '%U:%G', docA], { encoding: 'utf8' }).trim()).toBe(
      `${a.siteUser}:www-data`,
    );
    writeFileSync(path.join(docB, 'secret.txt'), 'secret of B\n');
    writeFileSync(path.join(docA, 'secret.txt'), 'secret of A\n');
    writeFileSync(path.join(docA, 'index.php'), probePage(path.join(docB, 'secret.txt')));
    writeFileSync(path.join(docB, 'index.php'), probePage(path.join(docB, 'secret.txt')));

    // Site A's page runs as A's user with A's limits, and cannot read B's file.
    let ra = await request(httpPort, 'php-a.example.com', { path: '/index.php' });
    const until = Date.now() + 10_000;
    while (ra.status !== 200 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      ra = await request(httpPort, 'php-a.example.com', { path: '/index.php' });
    }
    expect(ra.status, ra.body).toBe(200);
    expect(JSON.parse(ra.body)).toEqual({
      user: a.siteUser,
      memory: '96M',
      upload: '3M',
      post: '9M',
      time: '42',
      read: false,
    });
    // Site B's page reads its own file (the refusal above is the other user, not a broken path).
    const rb = await request(httpPort, 'php-b.example.com', { path: '/index.php' });
    expect(rb.status, rb.body).toBe(200);
    expect(JSON.parse(rb.body)).toMatchObject({ user: b.siteUser, memory: '64M', read: 'secret of B\n' });

    // A changed limit reaches the pool through the checked reload.
    const cur = (await call('GET', 'web/vhosts/php-a.example.com')).json<Record<string, unknown>>();
    const body = Object.fromEntries(
      Object.entries({ ...cur, phpMemoryLimit: '160M' }).filter(
        ([k]) => !['id', 'lastModified', 'traffic', 'responseTime', 'siteUser', 'live'].includes(k),
      ),
    );
    const up = await call('POST', 'web/vhosts/update/php-a.example.com', body);
    expect(up.statusCode, up.body).toBe(200);
    let memory = '';
    const until2 = Date.now() + 10_000;
    while (Date.now() < until2) {
      const r = await request(httpPort, 'php-a.example.com', { path: '/index.php' });
      if (r.status === 200) memory = (JSON.parse(r.body) as { memory: string }).memory;
      if (memory === '160M') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(memory).toBe('160M');

    // The dashboard shows the real PHP-FPM master Mailroom runs.
    const d = (await call('GET', 'web/dashboard')).json<{
      status: { name: string; state: string; pid: number }[];
    }>();
    const php = d.status.find((s) => s.name === 'PHP')!;
    expect(php.state).toBe('running');
    expect(isAlive(php.pid)).toBe(true);
    const pid = Number(readFileSync(t.deps.host.path('/run/php/mailroom-php8.2-fpm.pid'), 'utf8').trim());
    expect(php.pid).toBe(pid);

    // PHP is off for B: its pool goes, and its scripts are no longer run.
    const curB = (await call('GET', 'web/vhosts/php-b.example.com')).json<Record<string, unknown>>();
    const offB = Object.fromEntries(
      Object.entries({ ...curB, enablePhp: false }).filter(
        ([k]) => !['id', 'lastModified', 'traffic', 'responseTime', 'siteUser', 'live'].includes(k),
      ),
    );
    expect((await call('POST', 'web/vhosts/update/php-b.example.com', offB)).statusCode).toBe(200);
    expect(t.deps.host.path('/etc/php/8.2/fpm/pool.d/mailroom-php-b.example.com.conf')).not.toSatisfy(
      (p: string) => {
        try {
          statSync(p);
          return true;
        } catch {
          return false;
        }
      },
    );
    const off = await request(httpPort, 'php-b.example.com', { path: '/index.php' });
    expect(off.body).not.toContain('"user"');

    // A pool php-fpm8.2 -t refuses (its user was removed by hand) is refused with its words; the
    // last good pool stays in place and nothing is saved.
    const poolA = t.deps.host.path('/etc/php/8.2/fpm/pool.d/mailroom-php-a.example.com.conf');
    const goodPool = readFileSync(poolA, 'utf8');
    execFileSync('userdel', [a.siteUser]);
    try {
      const cur2 = (await call('GET', 'web/vhosts/php-a.example.com')).json<Record<string, unknown>>();
      const bad = await call(
        'POST',
        'web/vhosts/update/php-a.example.com',
        Object.fromEntries(
          Object.entries({ ...cur2, phpMemoryLimit: '200M' }).filter(
            ([k]) => !['id', 'lastModified', 'traffic', 'responseTime', 'siteUser', 'live'].includes(k),
          ),
        ),
      );
      expect(bad.statusCode, bad.body).toBe(422);
      expect(bad.body).toContain(`cannot get uid for user '${a.siteUser}'`);
      expect(readFileSync(poolA, 'utf8')).toBe(goodPool);
      expect(
        (await call('GET', 'web/vhosts/php-a.example.com')).json<{ phpMemoryLimit: string }>().phpMemoryLimit,
      ).toBe('160M');
    } finally {
      execFileSync('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        a.siteUser,
      ]);
    }

    await t.app.close();
    expect(isAlive(pid)).toBe(false);
  }, 60_000);

  it('php-fpm8.2 -t refuses a pool it cannot run (here: a user that does not exist), in its own words', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-pool-'));
    try {
      const staged = path.join(dir, 'pool.conf');
      const content =
        '[mailroom-broken.example.com]\nuser = mr-no-such-user\ngroup = mr-no-such-user\nlisten = /tmp/x.sock\npm = ondemand\npm.max_children = 1\n';
      writeFileSync(staged, content);
      const r = await checkPhpPools(t.deps.host, '8.2', [
        { target: '/etc/php/8.2/fpm/pool.d/mailroom-broken.example.com.conf', staged, content },
      ]);
      expect(r.checked).toBe(true);
      expect(r.ok).toBe(false);
      expect(r.output).toContain("cannot get uid for user 'mr-no-such-user'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
