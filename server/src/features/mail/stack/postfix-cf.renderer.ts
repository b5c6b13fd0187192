import path from 'node:path';
import { type MailSettings, MB } from '@mailroom/contract/mail';
import { type MailTlsPolicy } from '@mailroom/contract/mail-tls';
import { type MailDbConn } from './mail-db.connection.ts';
import { MANAGED_HEADER } from './mail-paths.layout.ts';
import {
  type PostfixPaths,
  POSTFIX_SOCKETS,
  assertOneLine,
  postfixTableName,
} from './postfix-maps.renderer.ts';

/** Parameters earlier versions wrote that must go (their transport no longer exists). */
export const OBSOLETE_MAIN_CF = [
  'dovecot_destination_recipient_limit',
  // The key and certificate go together in smtpd_tls_chain_files.
  'smtpd_tls_cert_file',
  'smtpd_tls_key_file',
];

/** Postfix's TLS policy from the SSL settings; without one, Postfix's defaults stand. */
export function tlsPolicyParams(t: MailTlsPolicy | null | undefined, on: boolean): [string, string][] {
  if (!t || !on) return [];
  const protocols = t.excludedProtocols.map((x) => `!${x}`).join(', ');
  const exclude = t.weakCiphers ? [] : ['aNULL', 'eNULL', 'EXPORT', 'DES', 'RC4', 'MD5', 'PSK', '3DES'];
  if (t.forwardSecrecy) exclude.push('kRSA');
  const options = [
    ...(t.sessionTickets ? [] : ['NO_TICKET']),
    ...(t.renegotiation ? [] : ['NO_RENEGOTIATION']),
  ];
  return [
    ['smtpd_tls_protocols', protocols],
    ['smtpd_tls_mandatory_protocols', protocols],
    ['smtpd_tls_ciphers', t.weakCiphers ? 'low' : 'medium'],
    ['smtpd_tls_mandatory_ciphers', t.weakCiphers ? 'medium' : 'high'],
    ['smtpd_tls_exclude_ciphers', exclude.join(', ')],
    ['smtpd_tls_session_cache_database', t.sessionCache ? 'btree:$data_directory/smtpd_scache' : ''],
    ['smtpd_tls_session_cache_timeout', `${Math.min(t.sessionTimeoutSeconds, 8_640_000)}s`],
    ['tls_ssl_options', options.join(' ')],
  ];
}

/**
 * The mail filter's milter settings. rspamd's proxy worker is the one milter: it filters spam,
 * signs DKIM and (with ClamAV) scans for viruses, so no separate DKIM or ClamAV milter is rendered.
 * `milter_default_action = tempfail`: when the filter is wanted but down, Postfix answers 4xx and
 * the sender retries later, so no mail passes unfiltered or unsigned and none is lost (accept
 * would silently let spam in and send unsigned mail that DMARC receivers reject).
 */
export const MILTERS = {
  /** `inet:127.0.0.1:<port>` of rspamd's proxy worker. */
  address: (hostPort: string) => `inet:${hostPort}`,
  protocol: '6',
  /** What rspamd needs to know who sent it: the authenticated user signs, the client is checked. */
  mailMacros: 'i {mail_addr} {client_addr} {client_name} {auth_authen}',
  defaultAction: 'tempfail',
} as const;

/** main.cf milter parameters: rspamd when `filter` (host:port) is set, none otherwise. */
export function milterParams(filter: string | null): [string, string][] {
  return [
    ['smtpd_milters', filter ? MILTERS.address(filter) : ''],
    ['non_smtpd_milters', filter ? '$smtpd_milters' : ''],
    ['milter_protocol', MILTERS.protocol],
    ['milter_mail_macros', MILTERS.mailMacros],
    ['milter_default_action', MILTERS.defaultAction],
  ];
}

/** The main.cf parameters the mail settings govern, in the order they are written. */
export function postfixParams(
  s: MailSettings,
  conn: MailDbConn,
  p: PostfixPaths,
  /** The filter's milter (`127.0.0.1:<port>`) when spam filtering or DKIM wants it. */
  filter: string | null = null,
): [string, string][] {
  const map = (file: string) => postfixTableName(conn, file);
  const params: [string, string][] = [
    ['myhostname', s.hostname],
    ['mydomain', s.domain],
    ['myorigin', '$mydomain'],
    ['message_size_limit', String(s.maxMessageSize * MB)],
    ['smtpd_recipient_limit', String(s.maxRecipients)],
    ['smtp_data_done_timeout', `${s.deliveryTimeout}s`],
    ['virtual_mailbox_domains', map(p.virtualDomains)],
    ['virtual_mailbox_maps', map(p.virtualMailboxes)],
    ['virtual_alias_maps', map(p.virtualAliases)],
    ['smtpd_sender_login_maps', map(p.senderLogins)],
    // Dovecot's LMTP server delivers (quota and all); the socket is under the queue directory.
    ['virtual_transport', `lmtp:unix:${POSTFIX_SOCKETS.lmtp}`],
    ['smtpd_sasl_type', 'dovecot'],
    ['smtpd_sasl_path', POSTFIX_SOCKETS.auth],
    ['smtpd_sasl_auth_enable', s.requireAuth ? 'yes' : 'no'],
    [
      'smtpd_relay_restrictions',
      s.requireAuth
        ? 'permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination'
        : 'permit_mynetworks, reject_unauth_destination',
    ],
    // Refused at RCPT, never bounced later: unknown recipients (5.1.1), then a full mailbox
    // (Dovecot's quota-status answers 552 5.2.2 for the size the client announced).
    [
      'smtpd_recipient_restrictions',
      `reject_unlisted_recipient, check_policy_service unix:${POSTFIX_SOCKETS.quotaStatus}`,
    ],
    // A client signed in (on any port) may send only as an address it owns.
    ['smtpd_sender_restrictions', 'reject_authenticated_sender_login_mismatch'],
    ['smtpd_tls_security_level', s.enableTLS ? 'may' : 'none'],
    ['smtp_tls_security_level', s.enableTLS ? 'may' : 'none'],
    // Key then certificate with its chain, one file set (what the SSL area installs).
    ['smtpd_tls_chain_files', s.enableTLS ? `${p.tlsKey}, ${p.tlsCert}` : ''],
    ...tlsPolicyParams(p.tlsPolicy, s.enableTLS),
    // Without TLS there is no safe channel, so plain-text passwords are either allowed or never asked.
    ['smtpd_tls_auth_only', s.allowPlainText ? 'no' : 'yes'],
    ...milterParams(filter),
  ];
  if (p.local) {
    params.push(
      ['queue_directory', p.local.queueDirectory],
      ['data_directory', p.local.dataDirectory],
      // postlogd writes the log; Postfix refuses a maillog_file outside maillog_file_prefixes.
      ['maillog_file_prefixes', path.dirname(p.local.maillogFile)],
      ['maillog_file', p.local.maillogFile],
      ['mynetworks', p.local.trustedNetwork],
    );
  }
  for (const [k, v] of params) assertOneLine(v, k);
  return params;
}

/** A complete main.cf for a machine without one (Debian's defaults, trimmed). */
const BASE_MAIN_CF = `${MANAGED_HEADER}
# Base settings follow Debian's postfix defaults; the block at the end is Mailroom's.
compatibility_level = 3.6
biff = no
append_dot_mydomain = no
readme_directory = no
smtpd_banner = $myhostname ESMTP $mail_name
mydestination = localhost
mynetworks = 127.0.0.0/8 [::ffff:127.0.0.0]/104 [::1]/128
inet_interfaces = all
inet_protocols = all
recipient_delimiter = +
mailbox_size_limit = 0
alias_maps =
alias_database =
`;

const BLOCK_START = '# --- Mailroom: mail settings (rewritten on every save) ---';

/**
 * Sets `params` in a main.cf, keeping everything else the administrator wrote. A parameter that is
 * already defined is replaced where it stands (later duplicates removed); missing ones are
 * appended under Mailroom's block comment.
 */
export function renderMainCf(
  existing: string | null,
  params: [string, string][],
  remove: string[] = OBSOLETE_MAIN_CF,
): string {
  const text = existing ?? BASE_MAIN_CF;
  const dropped = new Set(remove);
  const wanted = new Map(params);
  const written = new Set<string>();
  const out: string[] = [];
  const lines = text.replace(/\n+$/, '').split('\n');
  let skippingContinuation = false;
  for (const line of lines) {
    if (skippingContinuation) {
      if (/^[ \t]+\S/.test(line)) continue;
      skippingContinuation = false;
    }
    const m = /^([A-Za-z0-9_]+)\s*=/.exec(line);
    const key = m?.[1];
    if (key !== undefined && dropped.has(key) && !wanted.has(key)) {
      skippingContinuation = true;
      continue;
    }
    if (key !== undefined && wanted.has(key)) {
      skippingContinuation = true;
      if (written.has(key)) continue;
      written.add(key);
      out.push(formatParam(key, wanted.get(key)!));
      continue;
    }
    out.push(line);
  }
  const missing = params.filter(([k]) => !written.has(k));
  if (missing.length) {
    if (!out.includes(BLOCK_START)) out.push('', BLOCK_START);
    for (const [k, v] of missing) out.push(formatParam(k, v));
  }
  return out.join('\n') + '\n';
}

const formatParam = (k: string, v: string) => (v === '' ? `${k} =` : `${k} = ${v}`);

/** Reads the value of one parameter from a main.cf text (first definition, continuations joined). */
export function readMainCfParam(text: string, key: string): string | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = new RegExp(`^${key}\\s*=\\s*(.*)$`).exec(lines[i]!);
    if (!m) continue;
    let v = m[1] ?? '';
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1]!)) v += ' ' + lines[++i]!.trim();
    return v.trim();
  }
  return null;
}

/** Debian's standard master.cf services, for a machine without one. */
const BASE_MASTER_CF = `${MANAGED_HEADER}
# service type  private unpriv  chroot  wakeup  maxproc command + args
pickup    unix  n       -       y       60      1       pickup
cleanup   unix  n       -       y       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       y       1000?   1       tlsmgr
rewrite   unix  -       -       y       -       -       trivial-rewrite
bounce    unix  -       -       y       -       0       bounce
defer     unix  -       -       y       -       0       bounce
trace     unix  -       -       y       -       0       bounce
verify    unix  -       -       y       -       1       verify
flush     unix  n       -       y       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       y       -       -       smtp
relay     unix  -       -       y       -       -       smtp
        -o syslog_name=postfix/$service_name
showq     unix  n       -       y       -       -       showq
error     unix  -       -       y       -       -       error
retry     unix  -       -       y       -       -       error
discard   unix  -       -       y       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
lmtp      unix  -       -       y       -       -       lmtp
anvil     unix  -       -       y       -       1       anvil
scache    unix  -       -       y       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
`;

const MASTER_START = '# --- BEGIN Mailroom services ---';
const MASTER_END = '# --- END Mailroom services ---';

const DISABLED = '#mailroom-off# ';

/** A master.cf service name for a listener: `127.0.0.1:2525`, or `smtp`/`submission` on all interfaces. */
function listenerName(
  address: string | null,
  port: number,
  standard: { name: string; port: number },
): string {
  if (address) return `${address}:${port}`;
  return port === standard.port ? standard.name : String(port);
}

/**
 * Turns off (comments out, marked) SMTP listeners outside Mailroom's block that would take the
 * ports Mailroom's services use: Debian's `smtp inet … smtpd` (or postscreen) and a `submission`
 * the administrator enabled. Every other line stays as written.
 */
function disableOtherListeners(text: string, ports: number[]): string {
  const names = new Set(['smtp', 'submission', '25', '587', ...ports.map(String)]);
  const out: string[] = [];
  let off = false;
  for (const line of text.split('\n')) {
    if (off && /^[ \t]+\S/.test(line)) {
      out.push(DISABLED + line);
      continue;
    }
    off = false;
    const m = /^(\S+)\s+inet\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+(smtpd|postscreen)\b/.exec(line);
    const port = m?.[1]?.replace(/^.*:/, '');
    if (m && port !== undefined && names.has(port)) {
      off = true;
      out.push(DISABLED + line);
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/**
 * Adds Mailroom's services to master.cf: the SMTP and submission listeners on the configured
 * ports (submission: TLS, SASL, and senders limited to what the login owns). Delivery needs no
 * service of its own (LMTP to Dovecot). Other services are left as written, chrooted or not.
 */
export function renderMasterCf(existing: string | null, s: MailSettings, p: PostfixPaths): string {
  let text = existing ?? BASE_MASTER_CF;
  const start = text.indexOf(MASTER_START);
  const end = text.indexOf(MASTER_END);
  if (start !== -1 && end > start) text = text.slice(0, start) + text.slice(end + MASTER_END.length + 1);
  text = disableOtherListeners(text.replace(/\n+$/, ''), [p.listen.smtp, p.listen.submission]) + '\n';
  const { address } = p.listen;
  const smtp = listenerName(address, p.listen.smtp, { name: 'smtp', port: 25 });
  const submission = listenerName(address, p.listen.submission, { name: 'submission', port: 587 });
  const block: string[] = [
    MASTER_START,
    `${smtp} inet  n       -       y       -       -       smtpd`,
    `${submission} inet  n       -       y       -       -       smtpd`,
    '  -o syslog_name=postfix/submission',
    `  -o smtpd_tls_security_level=${s.enableTLS ? 'encrypt' : 'none'}`,
    '  -o smtpd_sasl_auth_enable=yes',
    '  -o smtpd_client_restrictions=permit_sasl_authenticated,reject',
    '  -o smtpd_sender_restrictions=reject_sender_login_mismatch',
    '  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject',
    MASTER_END,
  ];
  return text + block.join('\n') + '\n';
}
