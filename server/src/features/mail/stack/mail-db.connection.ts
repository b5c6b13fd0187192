import type { DatabaseHandle } from '../../../db/database.ts';

/** How Postfix and Dovecot reach Mailroom's database. */
export type MailDbConn =
  | { dialect: 'sqlite'; path: string }
  | {
      dialect: 'postgres';
      host: string;
      port: number;
      socketDir: string | null;
      user: string;
      password: string;
      dbname: string;
    };

/**
 * `mailDbUrl` (MAILROOM_MAIL_DB_URL): on PostgreSQL, the read-only role the daemons connect as
 * instead of Mailroom's own (docs/install.md, `mailroom db mail-role`).
 */
export function mailDbConn(database: DatabaseHandle, mailDbUrl?: string): MailDbConn {
  if (database.dialect === 'sqlite') {
    if (!database.sqlitePath) throw new Error('SQLite database without a file path');
    return { dialect: 'sqlite', path: database.sqlitePath };
  }
  if (!database.postgresUrl) throw new Error('PostgreSQL database without a URL');
  const url = new URL(mailDbUrl ?? database.postgresUrl);
  const socketHost = url.searchParams.get('host');
  return {
    dialect: 'postgres',
    host: url.hostname || 'localhost',
    port: url.port ? Number(url.port) : 5432,
    socketDir: socketHost?.startsWith('/') ? socketHost : null,
    user: decodeURIComponent(url.username || 'postgres'),
    password: decodeURIComponent(url.password),
    dbname: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres',
  };
}
