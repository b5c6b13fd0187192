import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Every way into an account that an earlier state of it opened: its console sessions, its
 * remembered browsers (they skip the second factor), its sign-ins waiting for a second factor (they
 * proved the old password) and, for a mailbox, its app passwords (IMAP/SMTP). The services that own
 * a state change (mailbox password, suspension, factors, console role) call these inside the
 * transaction of the change, so every actor that causes it (console, domain administrator, bulk
 * action, CLI, the account itself) ends the same access. Issue 22 items 5 and 6.
 */

/** Ends every session, remembered browser and pending second step of these accounts (admins.id). */
export async function endAccountAccess(db: Kysely<Database>, adminIds: readonly number[]): Promise<void> {
  if (!adminIds.length) return;
  await db.deleteFrom('sessions').where('admin_id', 'in', adminIds).execute();
  await db.deleteFrom('mfa_trusted_devices').where('admin_id', 'in', adminIds).execute();
  await db.deleteFrom('mfa_challenges').where('admin_id', 'in', adminIds).execute();
}

/**
 * The same for the accounts of these mailboxes (by address), and their app passwords with them
 * when `appPasswords` is set (a password reset, a suspension, MFA removed).
 */
export async function endMailboxAccess(
  db: Kysely<Database>,
  emails: readonly string[],
  opts: { appPasswords: boolean },
): Promise<void> {
  if (!emails.length) return;
  // Subqueries, not a list of ids: a bulk suspension may name thousands of mailboxes.
  const accounts = (eb: ExpressionBuilder<Database, keyof Database>) =>
    eb
      .selectFrom('admins')
      .innerJoin('mailboxes', 'mailboxes.id', 'admins.mailbox_id')
      .select('admins.id')
      .where('mailboxes.email', 'in', emails);
  await db.deleteFrom('sessions').where('admin_id', 'in', accounts).execute();
  await db.deleteFrom('mfa_trusted_devices').where('admin_id', 'in', accounts).execute();
  await db.deleteFrom('mfa_challenges').where('admin_id', 'in', accounts).execute();
  if (opts.appPasswords)
    await db
      .deleteFrom('mailbox_app_passwords')
      .where('mailbox_id', 'in', (eb) =>
        eb.selectFrom('mailboxes').select('mailboxes.id').where('mailboxes.email', 'in', emails),
      )
      .execute();
}

/** The app passwords of the mailbox linked to this account, if it is a mailbox user's. */
export async function revokeAccountAppPasswords(db: Kysely<Database>, adminId: number): Promise<void> {
  await db
    .deleteFrom('mailbox_app_passwords')
    .where('mailbox_id', 'in', (eb) =>
      eb
        .selectFrom('admins')
        .select('admins.mailbox_id')
        .where('admins.id', '=', adminId)
        .where('admins.mailbox_id', 'is not', null),
    )
    .execute();
}

/**
 * These accounts' live sessions reach only their own enrolment calls from their next request on
 * (scope 'enrol', as a sign-in that must enrol gets), unless the account already has an active
 * factor. Used when MFA becomes required for an account that is signed in (mfa/enable, a policy).
 */
export async function restrictToEnrolment(
  db: Kysely<Database>,
  adminIds: readonly number[],
): Promise<number> {
  if (!adminIds.length) return 0;
  const res = await db
    .updateTable('sessions')
    .set({ scope: 'enrol' })
    .where('admin_id', 'in', adminIds)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('mfa_devices')
            .select('mfa_devices.id')
            .whereRef('mfa_devices.admin_id', '=', 'sessions.admin_id')
            .where('mfa_devices.status', '=', 'active'),
        ),
      ),
    )
    .where((eb) => eb.or([eb('scope', 'is', null), eb('scope', '!=', 'enrol')]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The accounts (admins.id) that have a live session and no active factor. */
export async function signedInWithoutFactor(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('sessions')
    .select('sessions.admin_id')
    .distinct()
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('mfa_devices')
            .select('mfa_devices.id')
            .whereRef('mfa_devices.admin_id', '=', 'sessions.admin_id')
            .where('mfa_devices.status', '=', 'active'),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.admin_id);
}
