import { defaultMailSettings } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import {
  type PostfixPaths,
  postfixParams,
  readMainCfParam,
  renderMainCf,
  renderMasterCf,
  renderPostfixMap,
} from './postfix.renderer.ts';

const paths: PostfixPaths = {
  virtualDomains: '/etc/postfix/mailroom/virtual-domains.cf',
  virtualMailboxes: '/etc/postfix/mailroom/virtual-mailboxes.cf',
  virtualAliases: '/etc/postfix/mailroom/virtual-aliases.cf',
  tlsCert: '/etc/mailroom/tls/mail.crt',
  tlsKey: '/etc/mailroom/tls/mail.key',
  dovecotLda: '/usr/lib/dovecot/dovecot-lda',
  local: null,
};
const settings = defaultMailSettings('mail.example.com', 'example.com');
const sqlite = { dialect: 'sqlite' as const, path: '/var/lib/mailroom/mailroom.db' };

describe('renderMainCf', () => {
  it('replaces managed parameters in place, continuation lines included, and keeps the rest', () => {
    const existing = [
      '# my notes',
      'myhostname = old.example.com',
      'smtpd_relay_restrictions = permit_mynetworks,',
      '    reject',
      'smtpd_helo_required = yes',
      'myhostname = duplicate.example.com',
      '',
    ].join('\n');
    const out = renderMainCf(existing, postfixParams(settings, sqlite, paths));
    expect(out).toContain('# my notes\nmyhostname = mail.example.com\n');
    expect(out.match(/^myhostname =/gm)).toHaveLength(1);
    expect(out).not.toContain('    reject');
    expect(readMainCfParam(out, 'smtpd_relay_restrictions')).toBe(
      'permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination',
    );
    expect(out).toContain('smtpd_helo_required = yes');
    expect(readMainCfParam(out, 'virtual_alias_maps')).toBe(`sqlite:${paths.virtualAliases}`);
    expect(readMainCfParam(out, 'message_size_limit')).toBe(String(25 * 1024 * 1024));
    // Rendering again changes nothing.
    expect(renderMainCf(out, postfixParams(settings, sqlite, paths))).toBe(out);
  });

  it('writes a complete file when there is none, and follows the switches', () => {
    const off = {
      ...settings,
      enableTLS: false,
      requireAuth: false,
      enableSpamFilter: false,
      enableVirusScan: false,
      enableDKIM: false,
    };
    const out = renderMainCf(null, postfixParams(off, sqlite, paths));
    expect(out).toContain('compatibility_level = 3.6');
    expect(readMainCfParam(out, 'smtpd_tls_security_level')).toBe('none');
    expect(readMainCfParam(out, 'smtpd_sasl_auth_enable')).toBe('no');
    expect(readMainCfParam(out, 'smtpd_milters')).toBe('');
    expect(readMainCfParam(out, 'non_smtpd_milters')).toBe('');
  });

  it('sends mail through the filter, deferring it (tempfail) while the filter is down', () => {
    const out = renderMainCf(null, postfixParams(settings, sqlite, paths, '127.0.0.1:11332'));
    expect(readMainCfParam(out, 'smtpd_milters')).toBe('inet:127.0.0.1:11332');
    expect(readMainCfParam(out, 'non_smtpd_milters')).toBe('$smtpd_milters');
    expect(readMainCfParam(out, 'milter_default_action')).toBe('tempfail');
    expect(readMainCfParam(out, 'milter_protocol')).toBe('6');
    expect(readMainCfParam(out, 'milter_mail_macros')).toContain('{auth_authen}');
    // No separate DKIM or ClamAV milter: rspamd does both.
    expect(out).not.toMatch(/8891|clamav-milter/);
  });

  it('refuses a value that would break out of its line', () => {
    expect(() =>
      postfixParams(settings, sqlite, { ...paths, virtualAliases: '/x\nmydestination = evil' }),
    ).toThrow(/line break/);
    expect(() => renderPostfixMap({ dialect: 'sqlite', path: '/x.db\nquery = DROP' }, 'SELECT 1')).toThrow(
      /line break/,
    );
  });
});

describe('renderMasterCf', () => {
  it('adds the dovecot delivery and submission services once', () => {
    const once = renderMasterCf(null, settings, paths);
    expect(once).toMatch(/^dovecot\s+unix\s+-\s+n\s+n\s+-\s+-\s+pipe$/m);
    expect(once).toContain('argv=/usr/lib/dovecot/dovecot-lda');
    expect(once).toMatch(/^submission inet/m);
    expect(renderMasterCf(once, settings, paths)).toBe(once);
  });

  it('leaves a service the administrator defines alone', () => {
    const own = 'smtp inet n - y - - smtpd\nsubmission inet n - y - - smtpd\n  -o syslog_name=mine\n';
    const out = renderMasterCf(own, settings, paths);
    expect(out.match(/^submission/gm)).toHaveLength(1);
    expect(out).toMatch(/^dovecot\s+unix/m);
  });
});

describe('renderPostfixMap', () => {
  it('writes a pgsql table from the connection', () => {
    const out = renderPostfixMap(
      {
        dialect: 'postgres',
        host: 'db.internal',
        port: 5433,
        socketDir: null,
        user: 'mail',
        password: 's3cret',
        dbname: 'mailroom',
      },
      'SELECT 1',
    );
    expect(out).toContain(
      'hosts = inet:db.internal:5433\nuser = mail\npassword = s3cret\ndbname = mailroom\nquery = SELECT 1\n',
    );
  });
});
