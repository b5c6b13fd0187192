import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Whether a session still stands, read without sliding its idle window (an open events stream
 * must not keep a session alive by itself).
 */
export function sessionCheck(db: Kysely<Database>, idleMs: number) {
  return async (sessionId: number): Promise<boolean> => {
    const now = Date.now();
    const s = await db
      .selectFrom('sessions')
      .select(['expires_at', 'last_seen_at'])
      .where('id', '=', sessionId)
      .executeTakeFirst();
    return !!s && Number(s.expires_at) > now && Number(s.last_seen_at) + idleMs > now;
  };
}
