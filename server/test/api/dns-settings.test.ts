import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DNS_SETTINGS_DEFAULTS } from '@mailroom/contract/dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('DNS settings on %s', (dialect) => {
  let t: TestContext;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const options = () => readFileSync(t.deps.host.path('/etc/bind/mailroom/options.conf'), 'utf8');
  const logging = () => readFileSync(t.deps.host.path('/etc/bind/mailroom/logging.conf'), 'utf8');

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('starts from the spec defaults, with this machine as host and nameserver', async () => {
    const res = await call('GET', 'dns/settings');
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({ ...DNS_SETTINGS_DEFAULTS, version: 1 });
    expect(s).toMatchObject({
      serverPort: 53,
      serverProtocol: 'both',
      enableIPv6: true,
      defaultTtl: 3600,
      maxTtl: 86400,
      minTtl: 300,
      zoneRefreshInterval: 3600,
      zoneRetryInterval: 1800,
      zoneExpireTime: 604800,
      enableDnssec: true,
      enableDnsOverHttps: false,
      enableDnsOverTls: false,
      allowRecursiveQueries: true,
      allowTransfer: true,
      enableWildcardQueries: true,
      maxCacheSize: 100,
      maxCacheEntries: 10000,
      queryTimeout: 30,
      maxConcurrentQueries: 100,
      maxResponseSize: 65535,
      enableCnameFlattening: false,
      enableQueryLogging: false,
      enableErrorLogging: true,
      logLevel: 'info',
      logRetentionDays: 30,
    });
    // Issue 12: never a single label (`NS vm.`): the mail host name, the machine's FQDN, or
    // the machine's name in .localdomain.
    const host = os.hostname().toLowerCase();
    expect(s.serverHostname).toContain('.');
    if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) expect(s.serverHostname).toBe(host);
    else expect(s.serverHostname).toBe(`${host}.localdomain`);
    expect(s.primaryNameserver).toBe(s.serverHostname);
    const status = (await call('GET', 'dns/status')).json();
    expect(status.ok).toBeNull();
    expect(status.checkedAt).toBeNull();
  });

  it('saves, renders named.conf from the settings, and moves the version', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    const res = await call('POST', 'dns/settings', {
      ...s,
      serverPort: 5353,
      enableIPv6: false,
      allowRecursiveQueries: false,
      allowTransfer: false,
      enableDnssec: false,
      maxCacheSize: 256,
      queryTimeout: 10,
      maxConcurrentQueries: 500,
      maxResponseSize: 1232,
      enableQueryLogging: true,
      enableErrorLogging: false,
      logLevel: 'warning',
      logRetentionDays: 7,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ serverPort: 5353, version: 2 });
    expect((await call('GET', 'dns/settings')).json()).toMatchObject({
      serverPort: 5353,
      logLevel: 'warning',
      version: 2,
    });
    const o = options();
    for (const line of [
      'listen-on port 5353 { 127.0.0.1; };',
      'listen-on-v6 { none; };',
      'recursion no;',
      'allow-recursion { none; };',
      'allow-transfer { none; };',
      'dnssec-validation no;',
      'max-cache-size 256M;',
      'resolver-query-timeout 10000;',
      'recursive-clients 500;',
      'max-udp-size 1232;',
      'querylog yes;',
      `directory "${t.deps.host.path('/var/cache/bind')}";`,
      'controls { };',
    ]) {
      expect(o).toContain(line);
    }
    expect(o).not.toContain('allow-recursion { localhost');
    const l = logging();
    expect(l).toContain('severity warning;');
    expect(l).toContain('versions 7 size 20m');
    expect(l).toContain('category queries { mailroom_queries; };');
    expect(l).not.toContain('mailroom_errors');
    const main = readFileSync(t.deps.host.path('/etc/bind/mailroom/named.conf'), 'utf8');
    expect(main).toContain(`include "${t.deps.host.path('/etc/bind/mailroom/options.conf')}";`);
    const status = (await call('GET', 'dns/status')).json();
    expect(status.ok === true || status.ok === null).toBe(true);
    expect(Date.parse(status.appliedAt)).not.toBeNaN();
    const audit = (await call('GET', 'audit?action=dns.settings.')).json();
    expect(audit.entries[0]).toMatchObject({ action: 'dns.settings.update', outcome: 'success' });
  });

  it('answers 409 to a save from a stale version and keeps what is stored', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    const stale = await call('POST', 'dns/settings', { ...s, version: s.version - 1, serverPort: 5454 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(
      'The DNS settings were changed by someone else; reload them and save again',
    );
    expect((await call('GET', 'dns/settings')).json()).toMatchObject({
      serverPort: 5353,
      version: s.version,
    });
  });

  it('refuses bad settings, naming the field', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    const cases: [object, string, string][] = [
      [{ serverPort: 0 }, 'serverPort', 'Server Port must be at least 1'],
      [{ serverPort: 65536 }, 'serverPort', 'Server Port must be at most 65535'],
      [{ serverHostname: '' }, 'serverHostname', 'Server Hostname is required'],
      [{ primaryNameserver: '' }, 'primaryNameserver', 'Primary Nameserver is required'],
      [
        { secondaryNameserver: 'not valid!' },
        'secondaryNameserver',
        'Secondary Nameserver must be a valid host name',
      ],
      [
        { primaryNameserver: 'vm' },
        'primaryNameserver',
        'Primary Nameserver must be a fully qualified name (for example ns1.example.com): a single label cannot be delegated to',
      ],
      [
        { tertiaryNameserver: 'ns3' },
        'tertiaryNameserver',
        'Tertiary Nameserver must be a fully qualified name (for example ns1.example.com): a single label cannot be delegated to',
      ],
      [{ serverProtocol: 'sctp' }, 'serverProtocol', 'Server Protocol is required'],
      [{ logLevel: undefined }, 'logLevel', 'Log Level is required'],
      [{ defaultTtl: 0 }, 'defaultTtl', 'Default TTL must be at least 1'],
      [{ maxCacheSize: 0 }, 'maxCacheSize', 'Max Cache Size (MB) must be at least 1'],
      [{ logRetentionDays: 0 }, 'logRetentionDays', 'Log Retention Days must be at least 1'],
      [{ minTtl: 4000 }, 'minTtl', 'TTLs must satisfy Min TTL ≤ Default TTL ≤ Max TTL'],
      [{ maxTtl: 100 }, 'maxTtl', 'TTLs must satisfy Min TTL ≤ Default TTL ≤ Max TTL'],
      [
        { tlsCertificatePath: 'relative.pem' },
        'tlsCertificatePath',
        'TLS Certificate Path must be an absolute path',
      ],
    ];
    for (const [patch, field, message] of cases) {
      const res = await call('POST', 'dns/settings', { ...s, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().details, JSON.stringify(patch)).toContainEqual({ field, message });
    }
    expect((await call('GET', 'dns/settings')).json().version).toBe(s.version);
  });

  it('leaves the DoT/DoH listeners out until a certificate exists, and says so', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    const on = await call('POST', 'dns/settings', { ...s, enableDnsOverTls: true, enableDnsOverHttps: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(options()).not.toContain('853');
    const status = (await call('GET', 'dns/status')).json();
    expect(status.notes.join('\n')).toContain(
      'DNS over TLS and HTTPS is on, but no certificate and key were found',
    );

    const cert = t.deps.host.path(s.tlsCertificatePath);
    mkdirSync(path.dirname(cert), { recursive: true });
    writeFileSync(cert, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
    writeFileSync(
      t.deps.host.path(s.tlsPrivateKeyPath),
      '-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n',
    );
    const again = await call('POST', 'dns/settings', { ...on.json(), version: on.json().version });
    expect(again.statusCode, again.body).toBe(200);
    const o = options();
    expect(o).toContain(`tls mailroom-tls {\n\tcert-file "${cert}";`);
    expect(o).toContain('listen-on port 853 tls mailroom-tls { 127.0.0.1; };');
    expect(o).toContain('listen-on port 443 tls mailroom-tls http default { 127.0.0.1; };');
    expect((await call('GET', 'dns/status')).json().notes.join('\n')).not.toContain('no certificate');
  });

  it('re-renders everything on apply and answers the status', async () => {
    const res = await call('POST', 'dns/apply');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ reload: { attempted: false } });
    expect(typeof res.json().message).toBe('string');
  });
  it('sends zone transfers only to the listed secondary servers, each a validated IP address', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    expect(s.secondaryServers).toEqual([]);
    const bad = await call('POST', 'dns/settings', {
      ...s,
      allowTransfer: true,
      secondaryServers: ['ns2.example.com'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toContainEqual({
      field: 'secondaryServers',
      message: 'Secondary Servers must be IP addresses (ns2.example.com is not)',
    });
    const ok = await call('POST', 'dns/settings', {
      ...s,
      allowTransfer: true,
      secondaryServers: [' 192.0.2.53', '2001:db8::53'],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().secondaryServers).toEqual(['192.0.2.53', '2001:db8::53']);
    expect(options()).toContain('allow-transfer { 192.0.2.53; 2001:db8::53; };');
    expect(options()).toContain('also-notify { 192.0.2.53; 2001:db8::53; };');
    const cleared = await call('POST', 'dns/settings', { ...ok.json(), secondaryServers: [] });
    expect(cleared.statusCode).toBe(200);
    expect(options()).toContain('allow-transfer { none; };');
    expect((await call('GET', 'dns/status')).json().notes).toContain(
      'Allow Zone Transfers is on, but no Secondary Servers are listed: no server may transfer the zones.',
    );
  });

  it('warns in Settings Status when a name server (NS target) is not a public host name (issue 22 item 16)', async () => {
    const s = (await call('GET', 'dns/settings')).json();
    const lan = await call('POST', 'dns/settings', {
      ...s,
      serverHostname: 'ns1.example.com',
      primaryNameserver: 'ns1.localdomain',
      secondaryNameserver: 'ns2.lan',
      tertiaryNameserver: 'ns3.example.com',
    });
    expect(lan.statusCode, lan.body).toBe(200);
    const status = (await call('GET', 'dns/status')).json();
    expect(status.warnings).toEqual([
      'Primary name server (NS target) ns1.localdomain is not a public host name (.localdomain names are not resolvable on the public Internet): other servers and clients cannot reach it.',
      'Secondary name server (NS target) ns2.lan is not a public host name (.lan names are not resolvable on the public Internet): other servers and clients cannot reach it.',
    ]);
    const fixed = await call('POST', 'dns/settings', {
      ...lan.json(),
      primaryNameserver: 'ns1.example.com',
      secondaryNameserver: 'ns2.example.com',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect((await call('GET', 'dns/status')).json().warnings).toEqual([]);
  });
});
