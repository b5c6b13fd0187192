import type { Insertable, Kysely, Updateable } from 'kysely';
import type { AdminTable } from '../../db/auth.tables.ts';
import type { Database } from '../../db/schema.ts';

/** The SQL of the console's accounts: `admins` (not a mailbox user's) and `admin_domains`. */

type Db = Kysely<Database>;

export async function adminIdByEmail(db: Db, email: string): Promise<number | null> {
  const row = await db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id ?? null;
}

export async function insertAdmin(db: Db, values: Insertable<AdminTable>): Promise<number> {
  const row = await db.insertInto('admins').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateAdminRow(db: Db, id: number, set: Updateable<AdminTable>): Promise<void> {
  await db.updateTable('admins').set(set).where('id', '=', id).execute();
}

export async function deleteAdmin(db: Db, id: number): Promise<void> {
  await db.deleteFrom('admins').where('id', '=', id).execute();
}

/** The console account (not a mailbox user's) signed in as `email` (lower case). */
export async function findConsoleAdmin(
  db: Db,
  email: string,
): Promise<{ id: number; role: string } | undefined> {
  return db
    .selectFrom('admins')
    .select(['id', 'role'])
    .where('email', '=', email)
    .where('mailbox_id', 'is', null)
    .executeTakeFirst();
}

export async function countFullAdmins(db: Db): Promise<number> {
  const { n } = await db
    .selectFrom('admins')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('mailbox_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function anyConsoleAdmin(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('admins')
    .select('id')
    .where('mailbox_id', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The first console administrator's address (the oldest account): where required mail addresses go. */
export async function firstConsoleAdminEmail(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('admins')
    .select('email')
    .where('mailbox_id', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.email ?? null;
}

export async function consoleAdmins(db: Db) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'created_at', 'role'])
    .where('mailbox_id', 'is', null)
    .orderBy('email')
    .execute();
}

export async function adminDomains(db: Db, adminId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('admin_domains')
    .select('domain')
    .where('admin_id', '=', adminId)
    .execute();
  return rows.map((r) => r.domain);
}

export async function allAdminDomains(db: Db): Promise<{ admin_id: number; domain: string }[]> {
  return db.selectFrom('admin_domains').select(['admin_id', 'domain']).orderBy('domain').execute();
}

/** Replaces an account's assigned domains. */
export async function writeAdminDomains(trx: Db, adminId: number, domains: string[]): Promise<void> {
  await trx.deleteFrom('admin_domains').where('admin_id', '=', adminId).execute();
  if (domains.length)
    await trx
      .insertInto('admin_domains')
      .values(domains.map((domain) => ({ admin_id: adminId, domain })))
      .execute();
}
