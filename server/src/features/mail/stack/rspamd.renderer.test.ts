import { describe, expect, it } from 'vitest';
import { MANAGED_HEADER } from './mail-paths.layout.ts';
import { renderRspamd, RSPAMD_PATHS, type RspamdPaths, rspamdLaunch } from './rspamd.renderer.ts';

const system: RspamdPaths = {
  dkimSelectors: '/etc/rspamd/mailroom/dkim-selectors.map',
  dkimPaths: '/etc/rspamd/mailroom/dkim-paths.map',
  dkimKey: (d, s) => `/var/lib/rspamd/dkim/${d}.${s}.key`,
  local: null,
};
const local: RspamdPaths = {
  ...system,
  local: {
    normalSocket: '/srv/data/root/run/rspamd/normal.sock',
    controllerSocket: '/srv/data/root/run/rspamd/controller.sock',
    nameserver: '127.0.0.1:2053',
  },
};
const on = { spam: true, dkim: true, milter: '127.0.0.1:11332', clamdSocket: null };
const signers = [
  { domain: 'b.test', selector: 'mail' },
  { domain: 'a.test', selector: 'mail' },
];
const byPath = (files: { path: string; content: string }[]) => new Map(files.map((f) => [f.path, f.content]));

describe('renderRspamd', () => {
  it('renders the milter, DKIM signing by per-domain maps, and Debian defaults elsewhere in system mode', () => {
    const files = byPath(renderRspamd(on, system, signers));
    for (const content of files.values()) expect(content.startsWith(MANAGED_HEADER)).toBe(true);
    const proxy = files.get(RSPAMD_PATHS.proxy)!;
    expect(proxy).toContain('bind_socket = "127.0.0.1:11332";');
    expect(proxy).toContain('milter = yes;');
    expect(proxy).toMatch(/upstream "local" \{\n {2}default = yes;\n {2}self_scan = yes;\n\}/);
    const dkim = files.get(RSPAMD_PATHS.dkimSigning)!;
    expect(dkim).toContain('enabled = true;');
    expect(dkim).toContain('try_fallback = false;');
    expect(dkim).toContain('sign_inbound = false;');
    expect(dkim).toContain('selector_map = "/etc/rspamd/mailroom/dkim-selectors.map";');
    expect(dkim).toContain('path_map = "/etc/rspamd/mailroom/dkim-paths.map";');
    // Sorted, one line per domain.
    expect(files.get(RSPAMD_PATHS.dkimSelectors)).toBe(`${MANAGED_HEADER}\na.test mail\nb.test mail\n`);
    expect(files.get(RSPAMD_PATHS.dkimPaths)).toBe(
      `${MANAGED_HEADER}\na.test /var/lib/rspamd/dkim/a.test.mail.key\nb.test /var/lib/rspamd/dkim/b.test.mail.key\n`,
    );
    // System mode keeps Debian's workers, resolver and fuzzy checks.
    for (const p of [RSPAMD_PATHS.normal, RSPAMD_PATHS.controller, RSPAMD_PATHS.options, RSPAMD_PATHS.fuzzy])
      expect(files.has(p)).toBe(false);
    expect(files.get(RSPAMD_PATHS.actions)).not.toContain('null');
    expect(files.get(RSPAMD_PATHS.antivirus)).toContain('enabled = false;');
  });

  it('keeps local mode on loopback: unix sockets, Mailroom’s name server, no fuzzy servers', () => {
    const files = byPath(renderRspamd(on, local, signers));
    expect(files.get(RSPAMD_PATHS.normal)).toContain(
      'bind_socket = "/srv/data/root/run/rspamd/normal.sock mode=0660";',
    );
    expect(files.get(RSPAMD_PATHS.controller)).toContain('controller.sock mode=0660');
    expect(files.get(RSPAMD_PATHS.options)).toContain('nameserver = ["127.0.0.1:2053"];');
    expect(files.get(RSPAMD_PATHS.fuzzy)).toContain('enabled = false;');
    const long = { ...local, local: { ...local.local!, normalSocket: `/${'x'.repeat(120)}/normal.sock` } };
    expect(byPath(renderRspamd(on, long, signers)).get(RSPAMD_PATHS.normal)).toContain('count = -1;');
  });

  it('follows the switches: no signing, no spam actions, ClamAV only with its socket', () => {
    const files = byPath(renderRspamd({ ...on, spam: false, dkim: false }, system, signers));
    expect(files.get(RSPAMD_PATHS.dkimSigning)).toBe(`${MANAGED_HEADER}\nenabled = false;\n`);
    expect(files.get(RSPAMD_PATHS.dkimSelectors)).toBe(`${MANAGED_HEADER}\n`);
    expect(files.get(RSPAMD_PATHS.actions)).toContain('reject = null;');
    expect(files.get(RSPAMD_PATHS.actions)).toContain('add_header = null;');
    const av = byPath(renderRspamd({ ...on, clamdSocket: '/var/run/clamav/clamd.ctl' }, system, signers)).get(
      RSPAMD_PATHS.antivirus,
    )!;
    expect(av).toContain('servers = "/var/run/clamav/clamd.ctl";');
    expect(av).toContain(`message = '\${SCANNER}: virus found: "\${VIRUS}"';`);
  });

  it('refuses values that would break out of the configuration', () => {
    expect(() => renderRspamd({ ...on, milter: '127.0.0.1:1"; x' }, system, [])).toThrow(/quotes/);
    expect(() => renderRspamd(on, system, [{ domain: 'a test', selector: 'mail' }])).toThrow(/one word/);
  });
});

describe('rspamdLaunch', () => {
  it('starts the stock rspamd.conf with the host root’s folders in local mode, dropping root', () => {
    const map = (p: string) => `/data/root${p}`;
    const l = rspamdLaunch('/usr/bin/rspamd', map, true, true);
    expect(l.args).toEqual([
      '-f',
      '-c',
      '/etc/rspamd/rspamd.conf',
      '--var=LOCAL_CONFDIR=/data/root/etc/rspamd',
      '--var=DBDIR=/data/root/var/lib/rspamd',
      '--var=RUNDIR=/data/root/run/rspamd',
      '--var=LOGDIR=/data/root/var/log/rspamd',
      '-u',
      '_rspamd',
      '-g',
      '_rspamd',
    ]);
    expect(l.writableDirs).toEqual([
      '/data/root/var/lib/rspamd',
      '/data/root/run/rspamd',
      '/data/root/var/log/rspamd',
    ]);
    expect(rspamdLaunch('/usr/bin/rspamd', (p) => p, false, false).args).toEqual([
      '-f',
      '-c',
      '/etc/rspamd/rspamd.conf',
    ]);
  });
});
