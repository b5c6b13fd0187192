import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../server/src/db/database.ts';
import type { Database } from '../../../server/src/db/schema.ts';
import { hashPassword } from '../../../server/src/lib/password-hash.ts';

const MB = 1024 * 1024;
export const DOMAINS = 20;

/** Multi-row inserts in one transaction: `unnest` arrays on PostgreSQL, VALUES lists on SQLite. */
export async function bulkInsert(
  handle: DatabaseHandle,
  table: string,
  columns: { name: string; pg: 'text' | 'bigint' }[],
  count: number,
  row: (i: number) => (string | number)[],
): Promise<void> {
  await handle.db.transaction().execute(async (trx: Kysely<Database>) => {
    const chunk = handle.dialect === 'postgres' ? 50_000 : Math.floor(30_000 / columns.length);
    for (let start = 0; start < count; start += chunk) {
      const end = Math.min(count, start + chunk);
      const rows: (string | number)[][] = [];
      for (let i = start; i < end; i++) rows.push(row(i));
      if (handle.dialect === 'postgres') {
        const arrays = columns.map((c, j) => sql`${rows.map((r) => r[j])}::${sql.raw(c.pg)}[]`);
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c.name)))})
          select * from unnest(${sql.join(arrays)})`.execute(trx);
      } else {
        const values = rows.map((r) => sql`(${sql.join(r)})`);
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c.name)))}) values ${sql.join(values)}`.execute(
          trx,
        );
      }
    }
  });
}

export const mailboxEmail = (i: number) => `user${String(i).padStart(6, '0')}@d${i % DOMAINS}.bench.test`;
export const aliasSource = (i: number) => `alias${String(i).padStart(7, '0')}@d${i % DOMAINS}.bench.test`;
export const aliasDestination = (i: number) =>
  `user${String(i % 5000).padStart(6, '0')}@d${i % DOMAINS}.bench.test`;

/** `mailboxes` mailboxes and `aliases` aliases over 20 domains, with usage rows for half the mailboxes. */
export async function seedMail(handle: DatabaseHandle, mailboxes: number, aliases: number): Promise<void> {
  const hash = await hashPassword('bench-password');
  const now = new Date().toISOString();
  const T = { name: '', pg: 'text' as const };
  const B = { name: '', pg: 'bigint' as const };
  await bulkInsert(
    handle,
    'mailboxes',
    [
      { ...T, name: 'email' },
      { ...T, name: 'domain' },
      { ...T, name: 'password_hash' },
      { ...B, name: 'quota' },
      { ...T, name: 'status' },
      { ...T, name: 'maildir' },
      { ...T, name: 'created_at' },
      { ...T, name: 'updated_at' },
    ],
    mailboxes,
    (i) => {
      const email = mailboxEmail(i);
      const [local, domain] = email.split('@') as [string, string];
      return [
        email,
        domain,
        hash,
        i % 4 === 0 ? 0 : (1 + (i % 100)) * MB,
        'active',
        `${domain}/${local}/`,
        now,
        now,
      ];
    },
  );
  await bulkInsert(
    handle,
    'mail_quota_usage',
    [
      { ...T, name: 'username' },
      { ...B, name: 'bytes' },
      { ...B, name: 'messages' },
    ],
    Math.floor(mailboxes / 2),
    (i) => [mailboxEmail(i * 2), (i % 100) * 10_000, i % 50],
  );
  await bulkInsert(
    handle,
    'mail_aliases',
    [
      { ...T, name: 'source' },
      { ...T, name: 'domain' },
      { ...T, name: 'destination' },
      { ...T, name: 'status' },
      { ...T, name: 'created_at' },
      { ...T, name: 'updated_at' },
    ],
    aliases,
    (i) => [aliasSource(i), `d${i % DOMAINS}.bench.test`, aliasDestination(i), 'active', now, now],
  );
  const per = (n: number, d: number) => Math.floor(n / DOMAINS) + (d < n % DOMAINS ? 1 : 0);
  await handle.db
    .insertInto('mail_domains')
    .values(
      Array.from({ length: DOMAINS }, (_, d) => ({
        domain: `d${d}.bench.test`,
        explicit: 0,
        mailbox_count: per(mailboxes, d),
        alias_count: per(aliases, d),
        created_at: now,
      })),
    )
    .execute();
  // Statistics (and, on PostgreSQL, the visibility map for index-only scans) as a settled database has.
  if (handle.dialect === 'postgres') await sql`vacuum analyze`.execute(handle.db);
  else {
    await sql`analyze`.execute(handle.db);
    // Fold the bulk load's write-ahead log into the file, as a settled database would be.
    await sql`pragma wal_checkpoint(truncate)`.execute(handle.db);
  }
}
