import { type Kysely, sql } from 'kysely';
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

/** An account by its address (console account or a mailbox user's signed-in account). */
export async function accountByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ id: number; email: string } | undefined> {
  return db.selectFrom('admins').select(['id', 'email']).where('email', '=', email).executeTakeFirst();
}

/** A mailbox by its address (whether or not its user ever signed in). */
export async function mailboxByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ id: number; email: string } | undefined> {
  return db.selectFrom('mailboxes').select(['id', 'email']).where('email', '=', email).executeTakeFirst();
}

/** A mailbox user's own address while its mailbox is active; null for a console account. */
export async function activeMailboxAddress(db: Kysely<Database>, adminId: number): Promise<string | null> {
  const mb = await db
    .selectFrom('admins')
    .innerJoin('mailboxes', 'mailboxes.id', 'admins.mailbox_id')
    .select('mailboxes.email')
    .where('admins.id', '=', adminId)
    .where('mailboxes.status', '=', 'active')
    .executeTakeFirst();
  return mb?.email ?? null;
}

/** An account's address, role and (a mailbox user's) mailbox and its domain. */
export async function accountWithMailbox(db: Kysely<Database>, adminId: number) {
  return db
    .selectFrom('admins')
    .leftJoin('mailboxes', 'mailboxes.id', 'admins.mailbox_id')
    .select(['admins.email', 'admins.role', 'admins.mailbox_id', 'mailboxes.domain'])
    .where('admins.id', '=', adminId)
    .executeTakeFirst();
}

/** These accounts' addresses and mailboxes. */
export async function accountsByIds(db: Kysely<Database>, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('admins').select(['id', 'email', 'mailbox_id']).where('id', 'in', ids).execute();
}

/**
 * Everyone who signs in or could: every account, and every mailbox whose user never signed in
 * (its id is −mailboxes.id), in address order.
 */
export async function everyoneWhoSignsIn(
  db: Kysely<Database>,
): Promise<{ id: number; email: string; mailbox_id: number | null }[]> {
  const admins = await db.selectFrom('admins').select(['id', 'email', 'mailbox_id']).execute();
  const mailboxes = await db
    .selectFrom('mailboxes')
    .select(['id', 'email'])
    .where(sql<boolean>`not exists (select 1 from admins a where a.mailbox_id = mailboxes.id)`)
    .execute();
  return [...admins, ...mailboxes.map((m) => ({ id: -m.id, email: m.email, mailbox_id: m.id }))].sort(
    (x, y) => (x.email < y.email ? -1 : x.email > y.email ? 1 : x.id - y.id),
  );
}
