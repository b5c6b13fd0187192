import type { Insertable, Kysely, Updateable } from 'kysely';
import type { MfaChallengeTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_challenges` (pending sign-ins waiting for a second factor, passkey registrations). */

type Db = Kysely<Database>;

export async function insertChallenge(db: Db, row: Insertable<MfaChallengeTable>): Promise<void> {
  await db.insertInto('mfa_challenges').values(row).execute();
}

export async function deleteExpiredChallenges(db: Db, now: number): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('expires_at', '<=', now).execute();
}

export async function deleteChallengesOf(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('admin_id', '=', adminId).execute();
}

export async function deleteChallengeByToken(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('mfa_challenges').where('token_hash', '=', tokenHash).execute();
}

/** Takes a challenge by its token (deleted as it is read): a second use finds nothing. */
export async function takeChallengeByToken(db: Db, tokenHash: string) {
  return db
    .deleteFrom('mfa_challenges')
    .where('token_hash', '=', tokenHash)
    .returning(['webauthn_challenge', 'expires_at'])
    .executeTakeFirst();
}

/** Spends a challenge once: false when a parallel use already did. */
export async function spendChallenge(db: Db, id: number): Promise<boolean> {
  const spent = await db.deleteFrom('mfa_challenges').where('id', '=', id).executeTakeFirst();
  return Number(spent.numDeletedRows) !== 0;
}

export async function updateChallenge(db: Db, id: number, set: Updateable<MfaChallengeTable>): Promise<void> {
  await db.updateTable('mfa_challenges').set(set).where('id', '=', id).execute();
}

/** A pending sign-in by its token hash, with its account's address. */
export async function loginChallenge(db: Db, tokenHash: string) {
  return db
    .selectFrom('mfa_challenges')
    .innerJoin('admins', 'admins.id', 'mfa_challenges.admin_id')
    .select([
      'mfa_challenges.id as id',
      'mfa_challenges.expires_at',
      'mfa_challenges.webauthn_challenge',
      'mfa_challenges.email_code_hash',
      'mfa_challenges.email_code_expires_at',
      'admins.id as admin_id',
      'admins.email',
    ])
    .where('mfa_challenges.token_hash', '=', tokenHash)
    .where('mfa_challenges.purpose', '=', 'login')
    .executeTakeFirst();
}
