import { type MailTlsPolicy } from '@mailroom/contract/mail-tls';
import { type MailDbConn } from './mail-db.connection.ts';
import { MANAGED_HEADER } from './mail-paths.layout.ts';

/** Where the rendered Postfix files live and what they point at (already mapped under the host root). */
export interface PostfixPaths {
  virtualDomains: string;
  virtualMailboxes: string;
  virtualAliases: string;
  senderLogins: string;
  tlsCert: string;
  tlsKey: string;
  /** The SSL settings' TLS policy (protocols, ciphers, session cache); absent: Postfix's defaults. */
  tlsPolicy?: MailTlsPolicy | null;
  /** Where the SMTP and submission services listen; `address` null: every interface. */
  listen: { address: string | null; smtp: number; submission: number };
  /** Set when rendering a self-contained tree under a data folder (not the machine's own /etc). */
  local: {
    queueDirectory: string;
    dataDirectory: string;
    maillogFile: string;
    /** The only client trusted to relay without signing in (the loopback address the daemons use). */
    trustedNetwork: string;
  } | null;
}

/**
 * Sockets Dovecot offers Postfix, relative to Postfix's queue directory so chrooted services
 * (Debian runs smtpd and lmtp chrooted there) reach them at the same name.
 */
export const POSTFIX_SOCKETS = {
  auth: 'private/auth',
  lmtp: 'private/dovecot-lmtp',
  quotaStatus: 'private/quota-status',
} as const;

/**
 * The comma-separated destination of an active alias as one row per member, minus members that
 * are suspended mailboxes: mail is never accepted for a member it would bounce later. An alias
 * whose members are all suspended answers nothing, so its address is unknown at RCPT time.
 * An active mailbox's own address answers itself (Postfix's usual guard): without it a catch-all
 * alias (`@domain`, looked up after the full address) would take every mailbox's mail. A suspended
 * mailbox does not answer (a listed address the mailbox map then refuses would bounce after
 * acceptance): without a catch-all it is refused at RCPT, with one its mail goes to the catch-all.
 */
const aliasMembers = {
  sqlite: `SELECT v FROM (SELECT trim(m.value) AS v, m.key AS k FROM mail_aliases a, json_each('["' || replace(a.destination, ',', '","') || '"]') m WHERE a.source = '%s' AND a.status = 'active' AND NOT EXISTS (SELECT 1 FROM mailboxes b WHERE b.email = trim(m.value) AND b.status <> 'active') UNION ALL SELECT email, -1 FROM mailboxes WHERE email = '%s' AND status = 'active') ORDER BY k`,
  postgres: `SELECT v FROM (SELECT trim(m.v) AS v, m.n AS k FROM mail_aliases a, unnest(string_to_array(a.destination, ',')) WITH ORDINALITY AS m(v, n) WHERE a.source = '%s' AND a.status = 'active' AND NOT EXISTS (SELECT 1 FROM mailboxes b WHERE b.email = trim(m.v) AND b.status <> 'active') UNION ALL SELECT email, 0 FROM mailboxes WHERE email = '%s' AND status = 'active') x ORDER BY k`,
};

/**
 * Who may send as an address (smtpd_sender_login_maps): the address itself when it is an active
 * mailbox, and every active mailbox an active alias of that address delivers to. Catch-all
 * aliases (`@domain`) give nobody the right to send as the whole domain.
 */
const senderLogins = {
  sqlite: `SELECT email FROM mailboxes WHERE email = '%s' AND status = 'active' UNION SELECT b.email FROM mail_aliases a, json_each('["' || replace(a.destination, ',', '","') || '"]') m JOIN mailboxes b ON b.email = trim(m.value) AND b.status = 'active' WHERE a.source = '%s' AND a.status = 'active' AND a.source NOT LIKE '@%%'`,
  postgres: `SELECT email FROM mailboxes WHERE email = '%s' AND status = 'active' UNION SELECT b.email FROM mail_aliases a CROSS JOIN unnest(string_to_array(a.destination, ',')) AS m(v) JOIN mailboxes b ON b.email = trim(m.v) AND b.status = 'active' WHERE a.source = '%s' AND a.status = 'active' AND a.source NOT LIKE '@%%'`,
};

export const POSTFIX_QUERIES = {
  domains: () => "SELECT domain FROM mail_domains WHERE domain = '%s'",
  mailboxes: () => "SELECT maildir FROM mailboxes WHERE email = '%s' AND status = 'active'",
  aliases: (conn: MailDbConn) => aliasMembers[conn.dialect],
  senderLogins: (conn: MailDbConn) => senderLogins[conn.dialect],
} as const;

export function assertOneLine(value: string, what: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`${what} must not contain a line break`);
  return value;
}

/** A `sqlite:` or `pgsql:` lookup table definition for one query. */
export function renderPostfixMap(conn: MailDbConn, query: string): string {
  const lines = [MANAGED_HEADER];
  if (conn.dialect === 'sqlite') {
    lines.push(`dbpath = ${assertOneLine(conn.path, 'database path')}`);
  } else {
    const host = conn.socketDir
      ? `unix:${conn.socketDir}/.s.PGSQL.${conn.port}`
      : `inet:${conn.host}:${conn.port}`;
    lines.push(
      `hosts = ${assertOneLine(host, 'database host')}`,
      `user = ${assertOneLine(conn.user, 'database user')}`,
      `password = ${assertOneLine(conn.password, 'database password')}`,
      `dbname = ${assertOneLine(conn.dbname, 'database name')}`,
    );
  }
  lines.push(`query = ${query}`);
  return lines.join('\n') + '\n';
}

/** Map type prefix for Postfix (`sqlite:` / `pgsql:`). */
export const postfixMapType = (conn: MailDbConn) => (conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql');

/**
 * How main.cf names a lookup table: through `proxy:`, so Postfix's proxymap (never chrooted)
 * answers for chrooted services such as Debian's smtpd, cleanup and trivial-rewrite, and the same
 * file works whether those run chrooted or not. Postfix's default `proxy_read_maps` lists every
 * parameter used here; the check refuses a main.cf whose own setting leaves one out.
 */
export const postfixTableName = (conn: MailDbConn, file: string) => `proxy:${postfixMapType(conn)}:${file}`;
