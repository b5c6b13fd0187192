import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * Issue 22 items 5-7: the second-factor failure counter decays (`failed_at`: the last failure;
 * older failures no longer count once the lockout window has passed since it), and the e-mail
 * code resend limit is per account (`email_code_sent_at`), not per sign-in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mfa_accounts').addColumn('failed_at', bigint(db)).execute();
  await db.schema.alterTable('mfa_accounts').addColumn('email_code_sent_at', bigint(db)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mfa_accounts').dropColumn('email_code_sent_at').execute();
  await db.schema.alterTable('mfa_accounts').dropColumn('failed_at').execute();
}
