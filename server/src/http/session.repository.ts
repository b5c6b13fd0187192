import type { Insertable, Kysely } from 'kysely';
import { preparedQuery } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';

/** The SQL of `sessions` (a signed-in browser's row; http/sessions.ts holds the rules). */

type Db = Kysely<Database>;

export async function insertSession(db: Db, row: Insertable<Database['sessions']>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

// Run on every authenticated request: built and prepared once (see db/prepared.ts).
/** The session of a token hash with its account: one row per assigned domain (role and domains in one statement). */
export const selectSessionByHash = preparedQuery((db) =>
  db
    .selectFrom('sessions')
    .innerJoin('admins', 'admins.id', 'sessions.admin_id')
    // One row per assigned domain (one row with a null domain for an administrator).
    .leftJoin('admin_domains', 'admin_domains.admin_id', 'admins.id')
    .select([
      'sessions.id as id',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'admins.id as admin_id',
      'admins.email',
      'sessions.scope',
      'admins.role',
      'admin_domains.domain',
      'admins.mailbox_id',
    ])
    .where('sessions.token_hash', '=', ''),
);

/** Parameters: [last_seen_at, id]. */
export const slideSession = preparedQuery((db) =>
  db.updateTable('sessions').set({ last_seen_at: 0 }).where('id', '=', 0),
);

export async function deleteSessionById(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionByHash(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteAdminSessions(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('sessions').where('admin_id', '=', adminId).execute();
}

/** When the session last proved the password or a code (ms), or null. */
export async function sessionReauthAt(db: Db, sessionId: number): Promise<number | null> {
  const r = await db
    .selectFrom('sessions')
    .select('reauth_at')
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return r?.reauth_at == null ? null : Number(r.reauth_at);
}

export async function setSessionReauthAt(db: Db, sessionId: number, at: number): Promise<void> {
  await db.updateTable('sessions').set({ reauth_at: at }).where('id', '=', sessionId).execute();
}

/** A session's end and last use (ms), read without sliding its idle window. */
export async function sessionTimes(
  db: Db,
  sessionId: number,
): Promise<{ expires_at: number; last_seen_at: number } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['expires_at', 'last_seen_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
}

/** Deletes the sessions past their end or idle since `idleBefore`; answers how many. */
export async function purgeSessions(db: Db, now: number, idleBefore: number): Promise<number> {
  const r = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** A session limited to enrolment becomes a full one (its account enrolled a factor). */
export async function clearSessionScope(db: Db, sessionId: number): Promise<void> {
  await db.updateTable('sessions').set({ scope: null }).where('id', '=', sessionId).execute();
}
