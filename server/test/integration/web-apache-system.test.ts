import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/host.ts';
import { DEBIAN_APACHE_ENV } from '../../src/host/apache-host.ts';
import { renderWeb } from '../../src/features/web/stack/web-render.service.ts';
import { insertVhost } from '../../src/features/web/vhosts/vhost.repository.ts';
import { VirtualHostInput } from '@mailroom/contract/web/vhosts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';

const stock = (() => {
  try {
    execFileSync('apache2', ['-v']);
    readFileSync('/etc/apache2/apache2.conf');
    return true;
  } catch {
    return false;
  }
})();
if (!stock)
  skipLoudly(
    'apache2 or its /etc/apache2 is missing (Debian package apache2): the system-mode render check is skipped',
  );

describe.skipIf(!stock)('system-mode render on a copy of Debian’s stock /etc/apache2', () => {
  let t: TestContext;
  let root: string;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apache-system-'));
    cpSync('/etc/apache2', path.join(root, 'etc/apache2'), { recursive: true, verbatimSymlinks: true });
    // libapache2-mod-qos 11.63 enables itself but does not load into this Apache (built against
    // PCRE 1: "undefined symbol: pcre_free"): the stock copy fails apache2 -t without Mailroom.
    for (const f of ['qos.load', 'qos.conf'])
      rmSync(path.join(root, 'etc/apache2/mods-enabled', f), { force: true });
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await t.close();
  });

  it('renders Mailroom’s files beside Debian’s (ports.conf, conf-available + enabled, sites) and apache2 -t accepts them', async () => {
    const host = new Host(root, false);
    const certDir = path.join(root, 'certs');
    mkdirSync(certDir);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=secure.example.com',
        '-keyout',
        path.join(certDir, 'k.pem'),
        '-out',
        path.join(certDir, 'c.pem'),
      ],
      { stdio: 'ignore' },
    );
    const db = t.deps.database.db;
    await insertVhost(
      db,
      VirtualHostInput.parse({
        domain: 'plain.example.com',
        serverName: 'plain.example.com',
        documentRoot: '/var/www/plain',
      }),
    );
    await insertVhost(
      db,
      VirtualHostInput.parse({
        domain: 'secure.example.com',
        serverName: 'secure.example.com',
        documentRoot: '/var/www/secure',
        sslEnabled: true,
        sslCertificate: path.join(certDir, 'c.pem'),
        sslPrivateKey: path.join(certDir, 'k.pem'),
        redirectHttpToHttps: true,
        enableRateLimiting: true,
        status: 'maintenance',
        allowedIps: ['10.0.0.0/8'],
      }),
    );
    const mode = { system: true, httpPort: 80, httpsPort: 443, hostPath: (p: string) => host.path(p) };
    const render = await renderWeb(db, {
      mode,
      tls: null,
      reloadCommand: '/usr/bin/systemctl reload apache2.service',
      defaultTls: false,
    });
    const paths = render.files.map((f) => f.path);
    expect(paths).toContain('/etc/apache2/ports.conf');
    expect(paths).toContain('/etc/apache2/conf-available/zz-mailroom.conf');
    expect(paths).toContain('/etc/apache2/conf-enabled/zz-mailroom.conf');
    expect(paths).toContain('/etc/apache2/sites-available/mailroom-secure.example.com.conf');
    expect(paths).toContain('/etc/apache2/sites-enabled/mailroom-secure.example.com.conf');
    // System mode keeps Debian's apache2.conf.
    expect(paths).not.toContain('/etc/apache2/apache2.conf');
    for (const f of render.files) {
      const p = host.path(f.path);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, f.content);
    }
    // What WebContext.prepare() makes before the first apply.
    for (const d of [
      '/var/log/apache2',
      '/var/lib/mailroom/acme-webroot/.well-known/acme-challenge',
      '/var/lib/mailroom/modsecurity',
    ])
      mkdirSync(host.path(d), { recursive: true });
    mkdirSync(host.path('/var/www/plain'), { recursive: true });
    mkdirSync(host.path('/var/www/secure'), { recursive: true });
    const dir = host.path('/etc/apache2');
    const out = execFileSync('apache2', ['-t', '-d', dir, '-f', path.join(dir, 'apache2.conf')], {
      env: { ...process.env, ...DEBIAN_APACHE_ENV },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
    expect(readFileSync(host.path('/etc/apache2/ports.conf'), 'utf8')).toMatch(
      /^Listen 80\nListen 443 https\n$/m,
    );
    // Debian's own default site stays; Mailroom's catch-all sorts before it.
    expect(['00-mailroom-default.conf', '000-default.conf'].sort()[0]).toBe('00-mailroom-default.conf');
  });
});
