import { defaultMailSettings } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import {
  type DovecotPaths,
  renderDovecotConf,
  renderDovecotMailroom,
  renderDovecotServices,
} from './dovecot.renderer.ts';

const settings = defaultMailSettings('mail.example.com', 'example.com');
const sqlite = { dialect: 'sqlite' as const, path: '/var/lib/mailroom/mailroom.db' };
const system: DovecotPaths = {
  sqlConf: '/etc/dovecot/dovecot-sql.conf.ext',
  dictConf: '/etc/dovecot/dovecot-dict-sql.conf.ext',
  vmail: '/var/vmail',
  tlsCert: '/etc/mailroom/tls/mail.crt',
  tlsKey: '/etc/mailroom/tls/mail.key',
  postfixQueue: '/var/spool/postfix',
  listen: { address: null, imap: 143, imaps: 993 },
  dbGroup: 'postfix',
  local: null,
};
const local: DovecotPaths = {
  ...system,
  postfixQueue: '/data/root/var/spool/postfix',
  listen: { address: '127.0.0.1', imap: 2143, imaps: 2993 },
  local: {
    baseDir: '/data/root/run/dovecot',
    stateDir: '/data/root/var/lib/dovecot',
    logPath: '/data/root/var/log/mail.log',
  },
};

describe('renderDovecotServices', () => {
  it("offers Postfix auth, LMTP and quota-status in its queue's private folder", () => {
    const out = renderDovecotServices(settings, system);
    expect(out).toContain('unix_listener /var/spool/postfix/private/auth {');
    expect(out).toContain('unix_listener /var/spool/postfix/private/dovecot-lmtp {');
    expect(out).toMatch(/service quota-status \{\n {2}executable = quota-status -p postfix\n/);
    expect(out).toContain('unix_listener /var/spool/postfix/private/quota-status {');
    // The dict writes quota usage into the SQLite file: it gets the database's group.
    expect(out).toMatch(/service dict \{[^}]*\}\n {2}extra_groups = postfix\n\}/);
    // System mode: the standard ports, every interface, the machine's run and log places.
    expect(out).toMatch(/inet_listener imap \{\n {4}port = 143\n/);
    expect(out).not.toMatch(/^(listen|base_dir|log_path) =/m);
  });

  it('local mode: loopback at the configured ports, run/state/log under the data folder', () => {
    const out = renderDovecotServices(settings, local);
    expect(out).toMatch(/^listen = 127\.0\.0\.1$/m);
    expect(out).toMatch(/inet_listener imap \{\n {4}address = 127\.0\.0\.1\n {4}port = 2143\n/);
    expect(out).toMatch(/inet_listener imaps \{\n {4}address = 127\.0\.0\.1\n {4}port = 2993\n/);
    expect(out).toContain('base_dir = /data/root/run/dovecot');
    expect(out).toContain('log_path = /data/root/var/log/mail.log');
  });

  it('without TLS there is no IMAPS listener, and PostgreSQL needs no extra group', () => {
    const out = renderDovecotServices({ enableTLS: false }, { ...system, dbGroup: null });
    expect(out).toMatch(/inet_listener imaps \{\n {4}port = 0\n/);
    expect(out).not.toContain('extra_groups');
  });
});

describe('renderDovecotMailroom', () => {
  it('answers Postfix quota-status: full is 552 5.2.2, everything else is left to Postfix', () => {
    const out = renderDovecotMailroom(settings, sqlite, system);
    expect(out).toContain('quota_status_overquota = "552 5.2.2 Mailbox is full"');
    expect(out).toContain('quota_status_nouser = DUNNO');
    expect(out).toContain('quota_status_success = DUNNO');
  });
});

describe('renderDovecotConf', () => {
  it('serves IMAP and LMTP and includes conf.d', () => {
    expect(renderDovecotConf()).toMatch(/protocols = imap lmtp\n!include_try conf\.d\/\*\.conf\n$/);
  });
});
