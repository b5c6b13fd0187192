import type { AppPassword } from '@mailroom/contract/app-passwords';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The SQL of `mailbox_app_passwords` (and the `mailbox_mfa` view beside it), row -> contract. */

export const toAppPassword = (r: { id: number; name: string; created_at: string }): AppPassword => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
});

/** The id of the mailbox at `email` (lower case), or null. */
export async function mailboxIdOf(db: Kysely<Database>, email: string): Promise<number | null> {
  const row = await db.selectFrom('mailboxes').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id ?? null;
}

export async function mailboxHasMfa(db: Kysely<Database>, mailboxId: number): Promise<boolean> {
  const r = await db
    .selectFrom('mailbox_mfa')
    .select('mailbox_id')
    .where('mailbox_id', '=', mailboxId)
    .executeTakeFirst();
  return r !== undefined;
}

export async function listAppPasswords(db: Kysely<Database>, mailboxId: number): Promise<AppPassword[]> {
  const rows = await db
    .selectFrom('mailbox_app_passwords')
    .select(['id', 'name', 'created_at'])
    .where('mailbox_id', '=', mailboxId)
    .orderBy('id')
    .execute();
  return rows.map(toAppPassword);
}

/** The lookup keys in use by a mailbox (Dovecot must find exactly one row per key). */
export async function lookupKeys(db: Kysely<Database>, mailboxId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mailbox_app_passwords')
    .select('lookup_key')
    .where('mailbox_id', '=', mailboxId)
    .execute();
  return rows.map((r) => r.lookup_key);
}

export async function insertAppPassword(
  db: Kysely<Database>,
  row: { mailbox_id: number; name: string; lookup_key: string; password_hash: string; created_at: string },
): Promise<AppPassword> {
  return toAppPassword(
    await db
      .insertInto('mailbox_app_passwords')
      .values(row)
      .returning(['id', 'name', 'created_at'])
      .executeTakeFirstOrThrow(),
  );
}

/** Deletes one app password of the mailbox; answers whether there was one. */
export async function deleteAppPassword(
  db: Kysely<Database>,
  mailboxId: number,
  id: number,
): Promise<boolean> {
  const res = await db
    .deleteFrom('mailbox_app_passwords')
    .where('id', '=', id)
    .where('mailbox_id', '=', mailboxId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
