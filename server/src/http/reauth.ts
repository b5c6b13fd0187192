import { REAUTH_WINDOW_MINUTES } from '@mailroom/contract/mfa';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { forbidden } from './errors.ts';
import { sessionReauthAt } from './session.repository.ts';

export const REAUTH_MS = REAUTH_WINDOW_MINUTES * 60_000;

/** Security changes need the password or a code proved within the last few minutes. */
export async function requireRecentReauth(
  db: Kysely<Database>,
  sessionId: number,
  now: number,
): Promise<void> {
  const at = await sessionReauthAt(db, sessionId);
  if (at === null || at + REAUTH_MS < now)
    throw forbidden('Confirm your password or a code first (re-authentication required).');
}
