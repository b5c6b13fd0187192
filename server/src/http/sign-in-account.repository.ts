import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Who signs in with an address: a console account, or a mailbox user. A mailbox user's password
 * is always its mailbox's (the hash Dovecot verifies); its account row in `admins` (mailbox_id
 * set, created at the first sign-in) only carries the MFA state. A console account with the same
 * address wins. Suspended mailboxes do not sign in.
 */
export interface SignInAccount {
  /** null: a mailbox user's first sign-in; the row is made once the password is proved. */
  id: number | null;
  email: string;
  passwordHash: string;
  mailboxId: number | null;
}

/** The unusable admins.password_hash of a mailbox user's account (its password is the mailbox's). */
export const MAILBOX_ACCOUNT_HASH = '!mailbox';

export async function findSignInAccount(db: Kysely<Database>, email: string): Promise<SignInAccount | null> {
  const admin = await db
    .selectFrom('admins')
    .select(['id', 'email', 'password_hash', 'mailbox_id'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (admin && admin.mailbox_id === null)
    return { id: admin.id, email: admin.email, passwordHash: admin.password_hash, mailboxId: null };
  const mailbox = await db
    .selectFrom('mailboxes')
    .select(['id', 'email', 'password_hash'])
    .where('email', '=', email)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!mailbox) return null;
  return {
    id: admin && admin.mailbox_id === mailbox.id ? admin.id : null,
    email: mailbox.email,
    passwordHash: mailbox.password_hash,
    mailboxId: mailbox.id,
  };
}

/** Makes (or finds, when a parallel sign-in made it first) the account row of a mailbox user. */
export async function ensureMailboxAccount(
  db: Kysely<Database>,
  mailbox: { id: number; email: string },
): Promise<number> {
  const now = new Date().toISOString();
  await db
    .insertInto('admins')
    .values({
      email: mailbox.email,
      password_hash: MAILBOX_ACCOUNT_HASH,
      mailbox_id: mailbox.id,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await db
    .selectFrom('admins')
    .select('id')
    .where('mailbox_id', '=', mailbox.id)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The hash a password is checked against for re-authentication: the mailbox's for a mailbox user. */
export async function accountPasswordHash(db: Kysely<Database>, adminId: number): Promise<string> {
  const row = await db
    .selectFrom('admins')
    .leftJoin('mailboxes', 'mailboxes.id', 'admins.mailbox_id')
    .select(['admins.password_hash as own', 'mailboxes.password_hash as mailbox', 'admins.mailbox_id'])
    .where('admins.id', '=', adminId)
    .executeTakeFirstOrThrow();
  return row.mailbox_id !== null ? (row.mailbox ?? MAILBOX_ACCOUNT_HASH) : row.own;
}

/** An administrator's own password (a mailbox user's is its mailbox's, changed by the mail feature). */
export async function setAccountPasswordHash(
  db: Kysely<Database>,
  adminId: number,
  hash: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('admins')
    .set({ password_hash: hash, updated_at: at })
    .where('id', '=', adminId)
    .execute();
}

/** Whether the account is a mailbox user's (it reaches only its own pages). */
export async function isMailboxAccount(db: Kysely<Database>, adminId: number): Promise<boolean> {
  const row = await db.selectFrom('admins').select('mailbox_id').where('id', '=', adminId).executeTakeFirst();
  return row?.mailbox_id != null;
}

/** The administrators, for the screen's "who" filter. */
export async function accountEmails(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('admins').select('email').orderBy('email').limit(500).execute();
  return rows.map((a) => a.email);
}
