/** System paths of the mail stack; the Host maps them under its root. */
export const MAIL_PATHS = {
  postfixDir: '/etc/postfix',
  postfixMain: '/etc/postfix/main.cf',
  postfixMaster: '/etc/postfix/master.cf',
  virtualDomains: '/etc/postfix/mailroom/virtual-domains.cf',
  virtualMailboxes: '/etc/postfix/mailroom/virtual-mailboxes.cf',
  virtualAliases: '/etc/postfix/mailroom/virtual-aliases.cf',
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
  dovecotLda: '/usr/lib/dovecot/dovecot-lda',
} as const;

/** The Unix user that owns /var/vmail and runs mail delivery (create it: see docs). */
export const VMAIL_USER = 'vmail';

/** First line of every file Mailroom owns outright; a file without it is the administrator's. */
export const MANAGED_HEADER = '# Managed by Mailroom: changes made here are replaced on the next save.';
