import { type Kysely, sql } from 'kysely';
import { bigint, withId } from '../column-types.ts';

/**
 * Mailbox users sign in to /account: each gets an account row in `admins` linked to its mailbox
 * (so every MFA table keyed on admins.id serves them unchanged); app passwords for IMAP/SMTP;
 * the `mailbox_mfa` view Dovecot's passdb reads to refuse the main password when MFA is on;
 * e-mail codes for the sign-in second step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite cannot add a UNIQUE column: the unique index below does it on both dialects.
  await db.schema
    .alterTable('admins')
    .addColumn('mailbox_id', 'integer', (c) => c.references('mailboxes.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('admins_mailbox_uq').unique().on('admins').column('mailbox_id').execute();

  await withId(db, db.schema.createTable('mailbox_app_passwords'))
    .addColumn('mailbox_id', 'integer', (c) => c.notNull().references('mailboxes.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** The password's first characters: Dovecot finds the one row to verify with them. */
    .addColumn('lookup_key', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mailbox_app_passwords_key_uq')
    .unique()
    .on('mailbox_app_passwords')
    .columns(['mailbox_id', 'lookup_key'])
    .execute();

  // Mailboxes with at least one active second factor (TOTP or passkey) on their account.
  await sql`CREATE VIEW mailbox_mfa AS SELECT DISTINCT a.mailbox_id AS mailbox_id FROM admins a
    JOIN mfa_devices d ON d.admin_id = a.id WHERE a.mailbox_id IS NOT NULL AND d.status = 'active'`.execute(
    db,
  );

  // A 6-digit code mailed for a sign-in challenge (hashed, expiring, once only).
  await db.schema.alterTable('mfa_challenges').addColumn('email_code_hash', 'text').execute();
  await db.schema.alterTable('mfa_challenges').addColumn('email_code_expires_at', bigint(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mfa_challenges').dropColumn('email_code_expires_at').execute();
  await db.schema.alterTable('mfa_challenges').dropColumn('email_code_hash').execute();
  await sql`DROP VIEW mailbox_mfa`.execute(db);
  await db.schema.dropTable('mailbox_app_passwords').execute();
  await db.schema.dropIndex('admins_mailbox_uq').execute();
  await db.schema.alterTable('admins').dropColumn('mailbox_id').execute();
}
