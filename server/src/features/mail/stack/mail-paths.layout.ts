/** System paths of the mail stack; the Host maps them under its root. */
export const MAIL_PATHS = {
  postfixDir: '/etc/postfix',
  postfixMain: '/etc/postfix/main.cf',
  postfixMaster: '/etc/postfix/master.cf',
  virtualDomains: '/etc/postfix/mailroom/virtual-domains.cf',
  virtualMailboxes: '/etc/postfix/mailroom/virtual-mailboxes.cf',
  virtualAliases: '/etc/postfix/mailroom/virtual-aliases.cf',
  senderLogins: '/etc/postfix/mailroom/sender-logins.cf',
  postfixQueue: '/var/spool/postfix',
  postfixData: '/var/lib/postfix',
  dovecotConf: '/etc/dovecot/dovecot.conf',
  dovecotMailroom: '/etc/dovecot/conf.d/90-mailroom.conf',
  dovecotServices: '/etc/dovecot/conf.d/91-mailroom-services.conf',
  dovecotSql: '/etc/dovecot/dovecot-sql.conf.ext',
  dovecotDict: '/etc/dovecot/dovecot-dict-sql.conf.ext',
  dovecotRun: '/run/dovecot',
  dovecotState: '/var/lib/dovecot',
  vmail: '/var/vmail',
  removedMail: '/var/vmail/.removed',
  mailLog: '/var/log/mail.log',
  tlsCert: '/etc/mailroom/tls/mail.crt',
  tlsKey: '/etc/mailroom/tls/mail.key',
  /**
   * Mailroom's own self-signed certificate for the host name, served when the SSL area serves
   * none (none chosen and none covering the host name). Made once, again when the host name
   * changes or it nears its end; marked in its first line and in its subject.
   */
  tlsFallbackCert: '/etc/mailroom/tls/fallback.crt',
  tlsFallbackKey: '/etc/mailroom/tls/fallback.key',
  dovecotLmtp: '/usr/lib/dovecot/lmtp',
  dovecotQuotaStatus: '/usr/lib/dovecot/quota-status',
  dovecotModules: '/usr/lib/dovecot/modules',
} as const;

/** The Unix user and group that own /var/vmail and run mail delivery (`mailroom setup` creates them). */
export const VMAIL_USER = 'vmail';
/** The id `mailroom setup` gives the vmail user and group when it is free (Dovecot refuses ids below 500). */
export const VMAIL_ID = 5000;

/**
 * SQLite: the group the database file and its folder belong to, group-writable (WAL readers
 * write the -shm file). It is Postfix's own group because Postfix drops every supplementary
 * group: its proxymap can only use its primary group. Dovecot's dict gets it as an extra group.
 */
export const MAIL_DB_GROUP = 'postfix';

/** Where the daemons listen in local mode: loopback only; the only client trusted to relay. */
export const LOCAL_LISTEN = '127.0.0.1';

/** First line of every file Mailroom owns outright; a file without it is the administrator's. */
export const MANAGED_HEADER = '# Managed by Mailroom: changes made here are replaced on the next save.';
