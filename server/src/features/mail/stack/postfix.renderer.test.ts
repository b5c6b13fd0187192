import { defaultMailSettings } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import {
  POSTFIX_QUERIES,
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
  senderLogins: '/etc/postfix/mailroom/sender-logins.cf',
  tlsCert: '/etc/mailroom/tls/mail.crt',
  tlsKey: '/etc/mailroom/tls/mail.key',
  listen: { address: null, smtp: 25, submission: 587 },
  local: null,
};
const localPaths: PostfixPaths = {
  ...paths,
  listen: { address: '127.0.0.1', smtp: 2525, submission: 2587 },
  local: {
    queueDirectory: '/data/root/var/spool/postfix',
    dataDirectory: '/data/root/var/lib/postfix',
    maillogFile: '/data/root/var/log/mail.log',
    trustedNetwork: '127.0.0.1/32',
  },
};
const settings = defaultMailSettings('mail.example.com', 'example.com');
const sqlite = { dialect: 'sqlite' as const, path: '/var/lib/mailroom/mailroom.db' };
const pg = {
  dialect: 'postgres' as const,
  host: 'localhost',
  port: 5432,
  socketDir: null,
  user: 'mail',
  password: 'pw',
  dbname: 'mailroom',
};

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
    expect(readMainCfParam(out, 'virtual_alias_maps')).toBe(`proxy:sqlite:${paths.virtualAliases}`);
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

describe('postfixParams', () => {
  it('reads every table through proxy:, delivers over LMTP and refuses at RCPT', () => {
    const p = new Map(postfixParams(settings, sqlite, paths));
    for (const k of [
      'virtual_mailbox_domains',
      'virtual_mailbox_maps',
      'virtual_alias_maps',
      'smtpd_sender_login_maps',
    ])
      expect(p.get(k)).toMatch(/^proxy:sqlite:\/etc\/postfix\/mailroom\//);
    expect(p.get('virtual_transport')).toBe('lmtp:unix:private/dovecot-lmtp');
    expect(p.get('smtpd_recipient_restrictions')).toBe(
      'reject_unlisted_recipient, check_policy_service unix:private/quota-status',
    );
    expect(p.get('smtpd_sender_restrictions')).toBe('reject_authenticated_sender_login_mismatch');
    // System mode: the machine's own queue, log and networks.
    for (const k of ['queue_directory', 'maillog_file', 'mynetworks']) expect(p.has(k)).toBe(false);
  });

  it('local mode: the queue, data and log under the data folder, the log allowed by its prefix', () => {
    const p = new Map(postfixParams(settings, sqlite, localPaths));
    expect(p.get('queue_directory')).toBe('/data/root/var/spool/postfix');
    expect(p.get('maillog_file')).toBe('/data/root/var/log/mail.log');
    expect(p.get('maillog_file_prefixes')).toBe('/data/root/var/log');
    expect(p.get('mynetworks')).toBe('127.0.0.1/32');
  });

  it('drops what earlier versions wrote for the old pipe transport', () => {
    const old = 'dovecot_destination_recipient_limit = 1\nvirtual_transport = dovecot\n';
    const out = renderMainCf(old, postfixParams(settings, sqlite, paths));
    expect(out).not.toContain('dovecot_destination_recipient_limit');
    expect(readMainCfParam(out, 'virtual_transport')).toBe('lmtp:unix:private/dovecot-lmtp');
  });
});

describe('POSTFIX_QUERIES', () => {
  it('splits alias members in SQL and leaves out suspended mailboxes, per dialect', () => {
    expect(POSTFIX_QUERIES.aliases(sqlite)).toContain(
      "json_each('[\"' || replace(a.destination, ',', '\",\"') || '\"]')",
    );
    expect(POSTFIX_QUERIES.aliases(pg)).toContain("unnest(string_to_array(a.destination, ','))");
    for (const c of [sqlite, pg]) {
      expect(POSTFIX_QUERIES.aliases(c)).toContain("b.status <> 'active'");
      expect(POSTFIX_QUERIES.senderLogins(c)).toContain("NOT LIKE '@%%'");
    }
  });
});

describe('renderMasterCf', () => {
  it('system mode: turns off the stock smtp listener and adds smtp and submission once', () => {
    const stock =
      'smtp      inet  n       -       y       -       -       smtpd\n#smtp      inet  n       -       y       -       1       postscreen\ncleanup   unix  n       -       y       -       0       cleanup\n';
    const once = renderMasterCf(stock, settings, paths);
    expect(once).toMatch(/^#mailroom-off# smtp\s+inet/m);
    expect(once).toMatch(/^smtp inet\s+n\s+-\s+y\s/m);
    expect(once).toMatch(/^submission inet/m);
    expect(once).toContain('-o smtpd_sender_restrictions=reject_sender_login_mismatch');
    expect(once).toMatch(/^cleanup\s+unix\s+n\s+-\s+y/m);
    expect(once).not.toMatch(/pipe|dovecot-lda/);
    expect(renderMasterCf(once, settings, paths)).toBe(once);
  });

  it('local mode: listeners on loopback at the configured ports', () => {
    const out = renderMasterCf(null, settings, localPaths);
    expect(out).toMatch(/^127\.0\.0\.1:2525 inet/m);
    expect(out).toMatch(/^127\.0\.0\.1:2587 inet/m);
    expect(out).toMatch(/^smtpd?\s+unix|^rewrite\s+unix\s+-\s+-\s+y/m);
    expect(out.match(/ inet /g)).toHaveLength(2);
  });

  it('turns off a submission listener the administrator enabled, with its options', () => {
    const own = 'submission inet n - y - - smtpd\n  -o syslog_name=mine\nqmgr unix n - n 300 1 qmgr\n';
    const out = renderMasterCf(own, settings, paths);
    expect(out).toContain(
      '#mailroom-off# submission inet n - y - - smtpd\n#mailroom-off#   -o syslog_name=mine\n',
    );
    expect(out).toContain('qmgr unix n - n 300 1 qmgr');
    expect(out.match(/^submission inet/gm)).toHaveLength(1);
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
