import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sessionTimes } from '../../http/session.repository.ts';

/**
 * Whether a session still stands, read without sliding its idle window (an open events stream
 * must not keep a session alive by itself).
 */
export function sessionCheck(db: Kysely<Database>, idleMs: number) {
  return async (sessionId: number): Promise<boolean> => {
    const now = Date.now();
    const s = await sessionTimes(db, sessionId);
    return !!s && Number(s.expires_at) > now && Number(s.last_seen_at) + idleMs > now;
  };
}
