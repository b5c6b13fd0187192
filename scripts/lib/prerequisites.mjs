import { existsSync } from 'node:fs';

const PG_VERSIONS = ['17', '16', '15'];

/**
 * Programs the test suite drives, with the Debian package that provides them. `for` says which
 * tests need them; .ci/run installs every package listed here.
 */
export const PREREQUISITES = [
  { pkg: 'chromium', for: 'browser tests (Playwright)', paths: [['/usr/bin/chromium']] },
  {
    pkg: 'postgresql',
    for: 'API tests on PostgreSQL',
    paths: PG_VERSIONS.map((v) => [
      `/usr/lib/postgresql/${v}/bin/initdb`,
      `/usr/lib/postgresql/${v}/bin/postgres`,
    ]),
  },
  { pkg: 'postfix', for: 'mail integration tests', paths: [['/usr/sbin/postconf', '/usr/sbin/postmap']] },
  { pkg: 'postfix-sqlite', for: 'mail integration tests', paths: [['/usr/lib/postfix/postfix-sqlite.so']] },
  { pkg: 'postfix-pgsql', for: 'mail integration tests', paths: [['/usr/lib/postfix/postfix-pgsql.so']] },
  { pkg: 'dovecot-core', for: 'mail integration tests', paths: [['/usr/bin/doveadm', '/usr/bin/doveconf']] },
  {
    pkg: 'dovecot-sqlite',
    for: 'mail integration tests',
    paths: [['/usr/lib/dovecot/modules/auth/libdriver_sqlite.so']],
  },
  {
    pkg: 'dovecot-pgsql',
    for: 'mail integration tests',
    paths: [['/usr/lib/dovecot/modules/auth/libdriver_pgsql.so']],
  },
  { pkg: 'dovecot-imapd', for: 'mail integration tests', paths: [['/usr/lib/dovecot/imap']] },
  { pkg: 'dovecot-lmtpd', for: 'mail flow tests (LMTP delivery)', paths: [['/usr/lib/dovecot/lmtp']] },
  {
    pkg: 'rspamd',
    for: 'mail filter and flow tests (spam filter, DKIM signing)',
    paths: [['/usr/bin/rspamd']],
  },
  { pkg: 'python3-dkim', for: 'mail filter and flow tests (dkimverify)', paths: [['/usr/bin/dkimverify']] },
  { pkg: 'bind9', for: 'DNS integration tests', paths: [['/usr/sbin/named']] },
  {
    pkg: 'bind9-utils',
    for: 'DNS integration tests',
    paths: [['/usr/bin/named-checkzone', '/usr/bin/named-checkconf']],
  },
  { pkg: 'bind9-dnsutils', for: 'the restore integration test (dig)', paths: [['/usr/bin/dig']] },
  { pkg: 'sqlite3', for: 'integration tests', paths: [['/usr/bin/sqlite3']] },
  {
    pkg: 'apache2',
    for: 'web hosting integration tests (Apache on the rendered files)',
    paths: [['/usr/sbin/apache2']],
  },
  {
    pkg: 'libapache2-mod-security2',
    for: 'web hosting integration tests (rate limiting)',
    paths: [['/usr/lib/apache2/modules/mod_security2.so']],
  },
  { pkg: 'php8.2-fpm', for: 'web hosting (PHP-FPM pools)', paths: [['/usr/sbin/php-fpm8.2']] },
  { pkg: 'git', for: 'web applications (deploys from git)', paths: [['/usr/bin/git']] },
  {
    pkg: 'curl',
    for: 'web hosting (HTTP/2, SNI and client-certificate traffic tests)',
    paths: [['/usr/bin/curl']],
  },
  {
    pkg: 'logrotate',
    for: 'web hosting (logrotate -d of the rendered file)',
    paths: [['/usr/sbin/logrotate']],
  },
  { pkg: 'sudo', for: 'deploy tests (visudo -cf of deploy/sudoers)', paths: [['/usr/sbin/visudo']] },
  {
    pkg: 'acl',
    for: 'deploy tests (system mode as the mailroom user, ACLs of docs/install.md)',
    paths: [['/usr/bin/setfacl']],
  },
  {
    pkg: 'systemd',
    for: 'deploy tests (systemd-analyze verify of deploy/mailroom.service)',
    paths: [['/usr/bin/systemd-analyze']],
  },
];

/** The prerequisites whose programs are not on this machine. */
export function missingPrerequisites() {
  return PREREQUISITES.filter((p) => !p.paths.some((set) => set.every((f) => existsSync(f))));
}
