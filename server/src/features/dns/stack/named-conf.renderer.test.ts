import { DNS_SETTINGS_DEFAULTS, type DnsSettings } from '@mailroom/contract/dns';
import { describe, expect, it } from 'vitest';
import type { BindLayout } from './bind.layout.ts';
import { renderNamedConf, renderZonesConf } from './named-conf.renderer.ts';

const layout: BindLayout = {
  main: '/srv/root/etc/bind/mailroom/named.conf',
  options: '/srv/root/etc/bind/mailroom/options.conf',
  logging: '/srv/root/etc/bind/mailroom/logging.conf',
  zones: '/srv/root/etc/bind/mailroom/zones.conf',
  zoneFile: (d) => `/srv/root/etc/bind/mailroom/zones/db.${d}`,
  workDir: '/srv/root/var/cache/bind',
  pidFile: '/srv/root/run/named/named.pid',
  sessionKeyFile: '/srv/root/run/named/session.key',
  controls: false,
  rndcKey: '/srv/root/etc/bind/rndc.key',
  listenOn: ['any'],
};

const SETTINGS: DnsSettings = {
  ...DNS_SETTINGS_DEFAULTS,
  serverHostname: 'dns.example.com',
  primaryNameserver: 'ns1.example.com',
};
const noTls = { certFile: '/srv/root/etc/tls/c.pem', keyFile: '/srv/root/etc/tls/k.pem', present: false };

describe('named.conf renderer', () => {
  it("local mode under Mailroom's supervisor: listens on MAILROOM_DNS_PORT and says Server Port is for system mode", () => {
    const p = renderNamedConf(
      { ...SETTINGS, enableIPv6: false },
      { ...layout, listenOn: ['127.0.0.1'], port: 2053 },
      noTls,
    );
    expect(p.options).toContain('listen-on port 2053 { 127.0.0.1; };');
    expect(p.options).not.toContain('port 53 ');
    expect(p.notes.join('\n')).toContain(
      'on port 2053 (MAILROOM_DNS_PORT); Server Port (53) applies in system mode',
    );
  });

  it('renders the defaults (golden files)', async () => {
    const p = renderNamedConf(SETTINGS, layout, noTls);
    await expect(p.options).toMatchFileSnapshot('./golden/options.conf');
    await expect(p.logging).toMatchFileSnapshot('./golden/logging.conf');
    await expect(p.main).toMatchFileSnapshot('./golden/named.conf');
  });

  it('renders every zone kind (golden file)', async () => {
    const text = renderZonesConf(
      [
        { domain: 'example.com', zoneType: 'primary', primaries: [] },
        { domain: 'copy.example', zoneType: 'secondary', primaries: ['192.0.2.1', '2001:db8::1'] },
        { domain: 'stub.example', zoneType: 'stub', primaries: ['192.0.2.2'] },
      ],
      layout,
    );
    await expect(text).toMatchFileSnapshot('./golden/zones.conf');
  });

  it('sends zone transfers and NOTIFY to the listed secondary servers only, by default to no one', () => {
    const none = renderNamedConf(SETTINGS, layout, noTls);
    expect(none.options).toContain('allow-transfer { none; };');
    expect(none.options).toContain('notify no;');
    expect(none.options).not.toContain('allow-transfer { any');
    expect(none.notes).toContain(
      'Allow Zone Transfers is on, but no Secondary Servers are listed: no server may transfer the zones.',
    );
    const listed = renderNamedConf(
      { ...SETTINGS, secondaryServers: ['192.0.2.53', '2001:db8::53'] },
      layout,
      noTls,
    );
    expect(listed.options).toContain('allow-transfer { 192.0.2.53; 2001:db8::53; };');
    expect(listed.options).toContain('notify explicit;');
    expect(listed.options).toContain('also-notify { 192.0.2.53; 2001:db8::53; };');
    const off = renderNamedConf(
      { ...SETTINGS, allowTransfer: false, secondaryServers: ['192.0.2.53'] },
      layout,
      noTls,
    );
    expect(off.options).toContain('allow-transfer { none; };');
    expect(off.options).not.toContain('192.0.2.53');
    expect(off.notes.join(' ')).not.toContain('Secondary Servers');
  });

  it('maps the settings to options, clamping to what BIND accepts and saying so', () => {
    const p = renderNamedConf(
      {
        ...SETTINGS,
        queryTimeout: 120,
        maxResponseSize: 100,
        serverProtocol: 'udp',
        enableCnameFlattening: true,
        allowRecursiveQueries: false,
      },
      { ...layout, controls: true, listenOn: ['127.0.0.1'] },
      noTls,
    );
    expect(p.options).toContain('resolver-query-timeout 30000;');
    expect(p.options).toContain('max-udp-size 512;');
    expect(p.options).toContain('listen-on port 53 { 127.0.0.1; };');
    expect(p.options).toContain('recursion no;');
    expect(p.options).toContain(
      'include "/srv/root/etc/bind/rndc.key";\ncontrols {\n\tinet 127.0.0.1 port 953 allow { localhost; } keys { "rndc-key"; };\n};',
    );
    const notes = p.notes.join('\n');
    expect(notes).toContain('Query Timeout 120 s is above');
    expect(notes).toContain('BIND always answers over both UDP and TCP');
    expect(notes).toContain('CNAME flattening is not a BIND feature');
  });

  it('adds TLS listeners only with a certificate', () => {
    const on = { ...SETTINGS, enableDnsOverTls: true };
    expect(renderNamedConf(on, layout, noTls).options).not.toContain('tls mailroom-tls');
    expect(renderNamedConf(on, layout, noTls).notes.join()).toContain(
      'DNS over TLS is on, but no certificate',
    );
    const withCert = renderNamedConf(on, layout, { ...noTls, present: true });
    expect(withCert.options).toContain('listen-on port 853 tls mailroom-tls { any; };');
    expect(withCert.options).not.toContain('http default');
  });

  it('system mode follows the settings: every address, recursion for local networks when allowed', () => {
    const p = renderNamedConf({ ...SETTINGS, enableIPv6: true, allowRecursiveQueries: true }, layout, noTls);
    expect(p.options).toContain('listen-on-v6 port 53 { any; };');
    expect(p.options).toContain('recursion yes;');
    expect(p.options).toContain('allow-recursion { localhost; localnets; };');
  });

  it('local mode: loopback only and authoritative only, whatever the settings allow (issue 22 item 20)', () => {
    const local = { ...layout, listenOn: ['127.0.0.1'], listenOnV6: ['::1'], authoritativeOnly: true };
    const p = renderNamedConf({ ...SETTINGS, enableIPv6: true, allowRecursiveQueries: true }, local, noTls);
    expect(p.options).toContain('listen-on port 53 { 127.0.0.1; };');
    expect(p.options).toContain('listen-on-v6 port 53 { ::1; };');
    expect(p.options).not.toContain('any;');
    expect(p.options).toContain('recursion no;');
    expect(p.options).toContain('allow-recursion { none; };');
    expect(p.options).toContain('allow-query-cache { none; };');
    expect(p.options).not.toContain('localnets');
    expect(p.notes.join('\n')).toContain(
      'Local mode: named listens on loopback only (127.0.0.1, ::1) and answers only for its own zones, with no recursion; Allow Recursive Queries applies in system mode.',
    );
  });
});
