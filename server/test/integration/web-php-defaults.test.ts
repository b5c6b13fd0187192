import { execFileSync } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../harness.ts';
import { phpStackHere, request, startWithLocalApache } from './web-apache-helpers.ts';

const here = phpStackHere('the server-wide PHP defaults in the pools');

/** A PHP page that starts a session and says where it is kept, who owns it, and the ini values. */
const sessionPage = `<?php
session_start();
$_SESSION['seen'] = 1;
session_write_close();
$file = session_save_path() . '/sess_' . session_id();
header('Content-Type: application/json');
echo json_encode([
  'user' => posix_getpwuid(posix_geteuid())['name'],
  'savePath' => session_save_path(),
  'fileOwner' => is_file($file) ? posix_getpwuid(fileowner($file))['name'] : null,
  'maxInputTime' => ini_get('max_input_time'),
  'maxFileUploads' => ini_get('max_file_uploads'),
  'cookieLifetime' => ini_get('session.cookie_lifetime'),
  'cookieSecure' => ini_get('session.cookie_secure'),
  'cookieHttpOnly' => ini_get('session.cookie_httponly'),
  'memory' => ini_get('memory_limit'),
]);
`;

/** The four limits as the running script sees them. */
const limitsPage = `<?php
header('Content-Type: application/json');
echo json_encode([
  'memory' => ini_get('memory_limit'),
  'execution' => ini_get('max_execution_time'),
  'upload' => ini_get('upload_max_filesize'),
  'post' => ini_get('post_max_size'),
]);
`;

describe.skipIf(!here)('server-wide PHP defaults in every site’s PHP-FPM pool (issue 19 item 4)', () => {
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

  const page = async (domain: string, want: (b: Record<string, unknown>) => boolean) => {
    let last: { status: number; body: string; headers: Record<string, unknown> } | null = null;
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      last = await request(httpPort, domain, { path: '/session.php' });
      if (last.status === 200 && want(JSON.parse(last.body) as Record<string, unknown>)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(last?.status, last?.body).toBe(200);
    return { body: JSON.parse(last!.body) as Record<string, unknown>, headers: last!.headers };
  };

  it('input time, file uploads, the site’s own session folder and the cookie flags reach the pool; a change renders every pool', async () => {
    const s = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const saved = await call('POST', 'web/settings', {
      ...s,
      phpMaxInputTime: 77,
      phpMaxFileUploads: 7,
      phpSessionCookieLifetime: 1200,
      phpSessionCookieSecure: true,
      phpSessionCookieHttpOnly: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const sites: { domain: string; id: number; siteUser: string }[] = [];
    for (const domain of ['sess-a.example.com', 'sess-b.example.com']) {
      const res = await call('POST', 'web/vhosts/add', {
        domain,
        serverName: domain,
        documentRoot: `/var/www/${domain}`,
        enablePhp: true,
        phpVersion: '8.2',
        phpMemoryLimit: '96M',
      });
      expect(res.statusCode, res.body).toBe(200);
      const v = res.json<{ vhost: { id: number; siteUser: string } }>().vhost;
      sites.push({ domain, ...v });
      writeFileSync(t.deps.host.path(`/var/www/${domain}/session.php`), sessionPage);
    }
    const [a, b] = sites as [(typeof sites)[0], (typeof sites)[0]];
    const ra = await page(a.domain, () => true);
    const dirA = t.deps.host.path(`/var/lib/php/sessions/${a.domain}`);
    expect(ra.body).toEqual({
      user: a.siteUser,
      savePath: dirA,
      fileOwner: a.siteUser,
      maxInputTime: '77',
      maxFileUploads: '7',
      cookieLifetime: '1200',
      cookieSecure: '1',
      cookieHttpOnly: '1',
      // The site's own limit stays its pool's.
      memory: '96M',
    });
    const cookie = String(ra.headers['set-cookie']);
    expect(cookie).toMatch(
      /PHPSESSID=\w+; expires=[^;]+; Max-Age=1200; path=\/; secure; HttpOnly; SameSite=Lax/,
    );
    // The site's session folder: its user only.
    expect(statSync(dirA).mode & 0o777).toBe(0o700);
    expect(execFileSync('stat', ['-c', '%U', dirA], { encoding: 'utf8' }).trim()).toBe(a.siteUser);
    const rb = await page(b.domain, () => true);
    expect(rb.body.savePath).toBe(t.deps.host.path(`/var/lib/php/sessions/${b.domain}`));
    expect(rb.body.fileOwner).toBe(b.siteUser);

    // A changed default reaches every site's pool (both re-rendered and reloaded).
    const cur = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const again = await call('POST', 'web/settings', {
      ...cur,
      phpMaxInputTime: 88,
      phpSessionCookieSecure: false,
      phpSessionSavePath: '/var/lib/mailroom-php-sessions',
      phpSessionCookieSameSite: 'Strict',
    });
    expect(again.statusCode, again.body).toBe(200);
    for (const site of [a, b]) {
      const r = await page(site.domain, (x) => x.maxInputTime === '88');
      expect(r.body).toMatchObject({
        maxInputTime: '88',
        cookieSecure: '0',
        savePath: t.deps.host.path(`/var/lib/mailroom-php-sessions/${site.domain}`),
        fileOwner: site.siteUser,
      });
      expect(String(r.headers['set-cookie'])).not.toContain('secure');
      expect(String(r.headers['set-cookie'])).toContain('SameSite=Strict');
    }
    // A path PHP would read as "depth;path" is refused at the field.
    const bad = await call('POST', 'web/settings', { ...cur, phpSessionSavePath: '/var/lib/2;sessions' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toEqual({
      field: 'phpSessionSavePath',
      message: expect.stringContaining('PHP Session Save Path'),
    });
  }, 90_000);

  it('the server-wide PHP limits: a new host runs with them (ini_get through Apache + PHP-FPM), a host asking more is refused, a lower ceiling is refused naming the host', async () => {
    const limitsOf = async (domain: string, want: (b: Record<string, unknown>) => boolean) => {
      let last: { status: number; body: string } | null = null;
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        last = await request(httpPort, domain, { path: '/limits.php' });
        if (last.status === 200 && want(JSON.parse(last.body) as Record<string, unknown>)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(last?.status, last?.body).toBe(200);
      return JSON.parse(last!.body) as Record<string, unknown>;
    };
    const cur = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const server = {
      phpMemoryLimit: '192M',
      phpMaxExecutionTime: 45,
      phpUploadMaxFilesize: '12M',
      phpPostMaxSize: '24M',
    };
    const saved = await call('POST', 'web/settings', { ...cur, ...server });
    expect(saved.statusCode, saved.body).toBe(200);
    const domain = 'limits.example.com';
    const base = { domain, serverName: domain, documentRoot: `/var/www/${domain}`, phpVersion: '8.2' };
    // No limits given: the server-wide ones, in the rendered pool and in the running script.
    const res = await call('POST', 'web/vhosts/add', base);
    expect(res.statusCode, res.body).toBe(200);
    writeFileSync(t.deps.host.path(`/var/www/${domain}/limits.php`), limitsPage);
    expect(await limitsOf(domain, () => true)).toEqual({
      memory: '192M',
      execution: '45',
      upload: '12M',
      post: '24M',
    });
    // More than the server allows: refused at the field, and the running pool keeps its values.
    const over = await call('POST', `web/vhosts/update/${domain}`, { ...base, phpMemoryLimit: '256M' });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json().details[0]).toEqual({
      field: 'phpMemoryLimit',
      message:
        'PHP Memory Limit must be at most 192M, the server-wide PHP Memory Limit (Server Configuration, PHP)',
    });
    // Within it: the host's own lower value reaches its pool.
    const lower = await call('POST', `web/vhosts/update/${domain}`, { ...base, phpMemoryLimit: '100M' });
    expect(lower.statusCode, lower.body).toBe(200);
    expect((await limitsOf(domain, (b) => b.memory === '100M')).memory).toBe('100M');
    // A ceiling below the host is refused, naming it; the host's pool is untouched.
    const now = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const refused = await call('POST', 'web/settings', { ...now, phpMaxExecutionTime: 30 });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().details[0]).toEqual({
      field: 'phpMaxExecutionTime',
      message: expect.stringContaining(
        `PHP Max Execution Time cannot be lowered to 30: a virtual host asks for more (${domain} 45 s)`,
      ),
    });
    expect(await limitsOf(domain, () => true)).toEqual({
      memory: '100M',
      execution: '45',
      upload: '12M',
      post: '24M',
    });
  }, 90_000);
});
