import { APP_PASSWORD_KEY_LENGTH } from '@mailroom/contract/app-passwords';
import type { MailSettings } from '@mailroom/contract/mail';
import type { MailTlsPolicy } from '@mailroom/contract/mail-tls';
import type { MailDbConn } from './mail-db.connection.ts';
import { MANAGED_HEADER, VMAIL_USER } from './mail-paths.layout.ts';
import { assertOneLine, POSTFIX_SOCKETS } from './postfix.renderer.ts';

/** Files and folders the Dovecot configuration points at (already mapped under the host root). */
export interface DovecotPaths {
  sqlConf: string;
  dictConf: string;
  vmail: string;
  tlsCert: string;
  tlsKey: string;
  /** The SSL settings' TLS policy; absent: Dovecot's defaults. */
  tlsPolicy?: MailTlsPolicy | null;
  /** Postfix's queue directory: the SASL, LMTP and quota-status sockets go in its private/ folder. */
  postfixQueue: string;
  /** Where IMAP listens; `address` null: Dovecot's `listen` (every interface by default). */
  listen: { address: string | null; imap: number; imaps: number };
  /**
   * SQLite: the group that may write the database file (its folder is group-writable for the
   * WAL files); Dovecot's dict process, which writes quota usage, gets it as an extra group.
   */
  dbGroup: string | null;
  /** Set when rendering a self-contained tree under a data folder. */
  local: { baseDir: string; stateDir: string; logPath: string } | null;
}

/** The dict name Dovecot's quota plugin writes through. */
export const QUOTA_DICT = 'mailroomquota';

function connectLine(conn: MailDbConn): string {
  if (conn.dialect === 'sqlite') return assertOneLine(conn.path, 'database path');
  const parts: string[] = [
    `host=${conn.socketDir ?? conn.host}`,
    `port=${conn.port}`,
    `dbname=${conn.dbname}`,
    `user=${conn.user}`,
  ];
  if (conn.password) parts.push(`password=${conn.password}`);
  for (const p of parts)
    if (/\s/.test(p)) throw new Error('database connection values must not contain spaces');
  return parts.join(' ');
}

/** A value inside a single-quoted SQL literal that Dovecot also %-expands. */
const sqlLiteral = (v: string) => assertOneLine(v, 'path').replace(/%/g, '%%').replace(/'/g, "''");

/** The app passwords' passdb file, beside the main one. */
export const appPasswordSqlConf = (sqlConf: string) => sqlConf.replace(/(\.conf\.ext)?$/, '-app-passwords$1');

/**
 * passdb/userdb over Mailroom's tables: only active mailboxes sign in or resolve, so a suspended
 * one is refused everywhere while its mail stays on disk. `%Lu` is the lower-cased user name.
 * The main password is refused for a mailbox with an active second factor (mailbox_mfa): then
 * only its app passwords (the other passdb) sign in to IMAP, POP3 and SMTP submission.
 */
export function renderDovecotSql(conn: MailDbConn, p: DovecotPaths): string {
  const driver = conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  const home = `'${sqlLiteral(p.vmail)}/' || maildir`;
  return [
    MANAGED_HEADER,
    `driver = ${driver}`,
    `connect = ${connectLine(conn)}`,
    'default_pass_scheme = ARGON2ID',
    "password_query = SELECT email AS user, password_hash AS password FROM mailboxes WHERE email = '%Lu' AND status = 'active' AND id NOT IN (SELECT mailbox_id FROM mailbox_mfa)",
    `user_query = SELECT ${home} AS home, '*:bytes=' || quota AS quota_rule FROM mailboxes WHERE email = '%Lu' AND status = 'active'`,
    "iterate_query = SELECT email AS user FROM mailboxes WHERE status = 'active'",
    '',
  ].join('\n');
}

/**
 * The app passwords' passdb. Dovecot's SQL passdb verifies exactly one row (several rows are an
 * internal failure), so the row is found by the password's first characters (`%5w`, SQL-escaped
 * by Dovecot; unique per mailbox) and the whole password is then checked against its ARGON2ID hash.
 */
export function renderDovecotAppPasswordSql(conn: MailDbConn): string {
  const driver = conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  return [
    MANAGED_HEADER,
    `driver = ${driver}`,
    `connect = ${connectLine(conn)}`,
    'default_pass_scheme = ARGON2ID',
    'password_query = SELECT m.email AS user, a.password_hash AS password FROM mailbox_app_passwords a ' +
      "JOIN mailboxes m ON m.id = a.mailbox_id WHERE m.email = '%Lu' AND m.status = 'active' " +
      `AND a.lookup_key = '%${APP_PASSWORD_KEY_LENGTH}w'`,
    '',
  ].join('\n');
}

/** The quota dictionary: Dovecot keeps each user's used bytes and message count in mail_quota_usage. */
export function renderDovecotDict(conn: MailDbConn): string {
  const map = (pattern: string, field: string) =>
    [
      'map {',
      `  pattern = ${pattern}`,
      '  table = mail_quota_usage',
      '  username_field = username',
      `  value_field = ${field}`,
      '  value_type = uint',
      '}',
    ].join('\n');
  return [
    MANAGED_HEADER,
    `connect = ${connectLine(conn)}`,
    map('priv/quota/storage', 'bytes'),
    map('priv/quota/messages', 'messages'),
    '',
  ].join('\n');
}

const STRONG_CIPHERS =
  'ALL:!SRP:!kDHd:!DSS:!aNULL:!eNULL:!EXPORT:!DES:!3DES:!MD5:!PSK:!RC4:!ADH:!LOW@STRENGTH';

/** Dovecot's TLS policy from the SSL settings (it has a minimum protocol, no maximum). */
export function dovecotTlsPolicy(t: MailTlsPolicy | null | undefined): string[] {
  if (!t) return [];
  const ciphers = t.weakCiphers
    ? 'ALL'
    : t.forwardSecrecy
      ? `ALL:!kRSA:${STRONG_CIPHERS.slice(4)}`
      : STRONG_CIPHERS;
  const options = [...(t.sessionTickets ? [] : ['no_ticket'])];
  return [
    `ssl_min_protocol = ${t.minProtocol}`,
    `ssl_cipher_list = ${ciphers}`,
    'ssl_prefer_server_ciphers = yes',
    ...(options.length ? [`ssl_options = ${options.join(' ')}`] : []),
  ];
}

/**
 * Authentication, mail location, quota and TLS: what the mail settings govern. Service sockets
 * for Postfix are in `renderDovecotServices` so a test can run this part unprivileged.
 */
export function renderDovecotMailroom(s: MailSettings, conn: MailDbConn, p: DovecotPaths): string {
  const dictDriver = conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  const lines = [
    MANAGED_HEADER,
    `mail_location = maildir:~/Maildir`,
    'auth_mechanisms = plain login',
    `disable_plaintext_auth = ${s.allowPlainText ? 'no' : 'yes'}`,
    `auth_username_format = %Lu`,
    `ssl = ${s.enableTLS ? 'yes' : 'no'}`,
    ...(s.enableTLS
      ? [
          `ssl_cert = <${assertOneLine(p.tlsCert, 'cert path')}`,
          `ssl_key = <${assertOneLine(p.tlsKey, 'key path')}`,
          ...dovecotTlsPolicy(p.tlsPolicy),
        ]
      : []),
    `postmaster_address = postmaster@${s.domain}`,
    `hostname = ${s.hostname}`,
    '',
    // App passwords first: a miss (no such key, or a wrong password) goes on to the main password.
    'passdb {',
    '  driver = sql',
    `  args = ${assertOneLine(appPasswordSqlConf(p.sqlConf), 'sql conf path')}`,
    '}',
    'passdb {',
    '  driver = sql',
    `  args = ${assertOneLine(p.sqlConf, 'sql conf path')}`,
    '}',
    'userdb {',
    '  driver = sql',
    `  args = ${assertOneLine(p.sqlConf, 'sql conf path')}`,
    '}',
    '',
    'dict {',
    `  ${QUOTA_DICT} = ${dictDriver}:${assertOneLine(p.dictConf, 'dict conf path')}`,
    '}',
    'mail_plugins = $mail_plugins quota',
    'protocol imap {',
    '  mail_plugins = $mail_plugins imap_quota',
    '}',
    'plugin {',
    `  quota = dict:User quota::proxy::${QUOTA_DICT}`,
    // Postfix asks at RCPT time (check_policy_service): a full mailbox is refused there, so
    // nothing is accepted that would bounce later. Unknown users are Postfix's own answer.
    '  quota_status_success = DUNNO',
    '  quota_status_nouser = DUNNO',
    '  quota_status_overquota = "552 5.2.2 Mailbox is full"',
    '}',
    '',
  ];
  return lines.join('\n');
}

/**
 * Listeners and sockets: IMAP on the configured ports; for Postfix (in its queue directory, so
 * chrooted services reach them) SASL auth, LMTP delivery and the quota-status policy; the quota
 * dict; the mail user; in local mode the run, state and log places. Kept out of dovecot.conf so
 * Debian's own dovecot.conf (which includes conf.d) gets them too.
 */
export function renderDovecotServices(s: Pick<MailSettings, 'enableTLS'>, p: DovecotPaths): string {
  const queue = assertOneLine(p.postfixQueue, 'queue path');
  const address = p.listen.address ? [`    address = ${p.listen.address}`] : [];
  const lines = [MANAGED_HEADER];
  if (p.local) {
    lines.push(
      `base_dir = ${assertOneLine(p.local.baseDir, 'run path')}`,
      `state_dir = ${assertOneLine(p.local.stateDir, 'state path')}`,
      `log_path = ${assertOneLine(p.local.logPath, 'log path')}`,
    );
  }
  if (p.listen.address) lines.push(`listen = ${p.listen.address}`);
  lines.push(
    `mail_uid = ${VMAIL_USER}`,
    `mail_gid = ${VMAIL_USER}`,
    'service imap-login {',
    '  inet_listener imap {',
    ...address,
    `    port = ${p.listen.imap}`,
    '  }',
    '  inet_listener imaps {',
    ...address,
    // Without TLS there is no IMAPS.
    `    port = ${s.enableTLS ? p.listen.imaps : 0}`,
    '    ssl = yes',
    '  }',
    '}',
    'service auth {',
    `  unix_listener ${queue}/${POSTFIX_SOCKETS.auth} {`,
    '    mode = 0660',
    '    user = postfix',
    '    group = postfix',
    '  }',
    '  unix_listener auth-userdb {',
    '    mode = 0600',
    `    user = ${VMAIL_USER}`,
    '  }',
    '}',
    'service lmtp {',
    `  unix_listener ${queue}/${POSTFIX_SOCKETS.lmtp} {`,
    '    mode = 0600',
    '    user = postfix',
    '    group = postfix',
    '  }',
    '}',
    'service quota-status {',
    '  executable = quota-status -p postfix',
    `  unix_listener ${queue}/${POSTFIX_SOCKETS.quotaStatus} {`,
    '    mode = 0600',
    '    user = postfix',
    '  }',
    '  client_limit = 1',
    '}',
    'service dict {',
    '  unix_listener dict {',
    '    mode = 0660',
    `    user = ${VMAIL_USER}`,
    `    group = ${VMAIL_USER}`,
    '  }',
    ...(p.dbGroup ? [`  extra_groups = ${p.dbGroup}`] : []),
    '}',
    '',
  );
  return lines.join('\n');
}

/** A complete dovecot.conf for a machine without one: IMAP and LMTP, and the conf.d files. */
export function renderDovecotConf(): string {
  return [MANAGED_HEADER, 'protocols = imap lmtp', '!include_try conf.d/*.conf', ''].join('\n');
}
