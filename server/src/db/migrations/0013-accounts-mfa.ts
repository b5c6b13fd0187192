import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

/** Second factors, backup codes, sign-in challenges, lockouts, policies, trusted devices, activity. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A session made for an account that must enrol first only reaches /api/account/*; re-authentication
  // (password or code) is recent when reauth_at is.
  await db.schema.alterTable('sessions').addColumn('scope', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('reauth_at', bigint(db)).execute();

  await withId(db, db.schema.createTable('mfa_accounts'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().unique().references('admins.id').onDelete('cascade'))
    .addColumn('enrol_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_mfa_login', 'text')
    .execute();

  await withId(db, db.schema.createTable('mfa_devices'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('device_name', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('secret_enc', 'text')
    .addColumn('last_step', bigint(db))
    .addColumn('credential_id', 'text')
    .addColumn('public_key', 'text')
    .addColumn('sign_count', bigint(db))
    .addColumn('transports', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
  await db.schema.createIndex('mfa_devices_admin_idx').on('mfa_devices').column('admin_id').execute();

  await withId(db, db.schema.createTable('mfa_backup_codes'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mfa_backup_codes_admin_idx')
    .on('mfa_backup_codes')
    .column('admin_id')
    .execute();

  await withId(db, db.schema.createTable('mfa_challenges'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('webauthn_challenge', 'text')
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('expires_at', bigint(db), (c) => c.notNull())
    .addColumn('ip', 'text')
    .execute();

  await withId(db, db.schema.createTable('mfa_lockouts'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('lockout_type', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('unlocked_at', 'text')
    .addColumn('unlocked_by', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('mfa_lockouts_admin_idx').on('mfa_lockouts').column('admin_id').execute();

  await withId(db, db.schema.createTable('mfa_policies'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('require_mfa', 'integer', (c) => c.notNull())
    .addColumn('applies_to', 'text', (c) => c.notNull())
    .addColumn('allowed_methods', 'text', (c) => c.notNull())
    .addColumn('backup_codes_enabled', 'integer', (c) => c.notNull())
    .addColumn('backup_codes_count', 'integer', (c) => c.notNull())
    .addColumn('session_timeout', 'integer', (c) => c.notNull())
    .addColumn('trusted_devices_enabled', 'integer', (c) => c.notNull())
    .addColumn('trusted_device_expiry', 'integer', (c) => c.notNull())
    .addColumn('last_modified', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('mfa_trusted_devices'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('expires_at', bigint(db), (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();

  await withId(db, db.schema.createTable('mfa_activity'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer')
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('mfa_activity_at_idx').on('mfa_activity').column('at').execute();

  await withId(db, db.schema.createTable('mfa_recovery_requests'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('request_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();

  await withId(db, db.schema.createTable('mfa_recovery_methods'))
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('method_type', 'text', (c) => c.notNull())
    .addColumn('method_value', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text')
    .addColumn('code_expires_at', bigint(db))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'mfa_recovery_methods',
    'mfa_recovery_requests',
    'mfa_activity',
    'mfa_trusted_devices',
    'mfa_policies',
    'mfa_lockouts',
    'mfa_challenges',
    'mfa_backup_codes',
    'mfa_devices',
    'mfa_accounts',
  ])
    await db.schema.dropTable(t).execute();
  await db.schema.alterTable('sessions').dropColumn('reauth_at').execute();
  await db.schema.alterTable('sessions').dropColumn('scope').execute();
}
