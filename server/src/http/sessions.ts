import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  deleteAdminSessions,
  deleteSessionByHash,
  deleteSessionById,
  insertSession,
  selectSessionByHash,
  slideSession,
} from './session.repository.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface SessionAdmin {
  sessionId: number;
  adminId: number;
  email: string;
  /** 'enrol': only the account's own enrolment calls (/api/account/*) are open. */
  scope: string | null;
  /** 'admin' (everything) or 'domain-admin' (only `domains`; see http/access-scope.ts). */
  role: string;
  /** The domains a domain administrator manages (lower-case); empty for administrators. */
  domains: string[];
  /** Set for a mailbox user's account: it reaches only /api/auth/* and /api/account/*. */
  mailboxId: number | null;
  /** Set when the request came with an API key (features/api-monitoring): `email` is `api-key:<name>`. */
  apiKey?: { id: number; name: string };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, base64url; only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(
  db: Kysely<Database>,
  policy: SessionPolicy,
  adminId: number,
  meta: { ip: string | null; userAgent: string | null; scope?: string | null },
  now = Date.now(),
): Promise<string> {
  const token = newToken();
  await insertSession(db, {
    token_hash: hashToken(token),
    admin_id: adminId,
    created_at: now,
    last_seen_at: now,
    expires_at: now + policy.absoluteMs,
    ip: meta.ip,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
    scope: meta.scope ?? null,
    // Signing in proves the password (and the second factor): a fresh session counts as recent.
    reauth_at: now,
  });
  return token;
}

/**
 * Finds the live session for a token and slides its idle window. Expired sessions (idle or
 * absolute) are deleted on sight.
 */
export async function touchSession(
  db: Kysely<Database>,
  policy: SessionPolicy,
  token: string,
  now = Date.now(),
): Promise<SessionAdmin | null> {
  const rows = await selectSessionByHash(db, [hashToken(token)]);
  const row = rows[0];
  if (!row) return null;
  if (row.expires_at <= now || row.last_seen_at + policy.idleMs <= now) {
    await deleteSessionById(db, row.id);
    return null;
  }
  // Write the sliding timestamp at most every 10 s: reads stay reads under load.
  if (now - row.last_seen_at > 10_000) await slideSession(db, [now, row.id]);
  const domains: string[] = [];
  for (const r of rows) if (r.domain !== null) domains.push(r.domain);
  return {
    sessionId: row.id,
    adminId: row.admin_id,
    email: row.email,
    scope: row.scope,
    role: row.role,
    domains,
    mailboxId: row.mailbox_id ?? null,
  };
}

export async function revokeSession(db: Kysely<Database>, token: string): Promise<void> {
  await deleteSessionByHash(db, hashToken(token));
}

export async function revokeAdminSessions(db: Kysely<Database>, adminId: number): Promise<void> {
  await deleteAdminSessions(db, adminId);
}

export const SESSION_COOKIE = 'mailroom_session';

/** The session key from `Authorization: Bearer …` or, failing that, the session cookie. */
export function tokenFromHeaders(headers: {
  authorization?: string | undefined;
  cookie?: string | undefined;
}): string | null {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (m?.[1]) return m[1];
  }
  const cookie = headers.cookie;
  if (cookie) {
    for (const part of cookie.split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === SESSION_COOKIE && v.length) {
        try {
          return decodeURIComponent(v.join('='));
        } catch {
          return null; // malformed escapes: no key, not a server error
        }
      }
    }
  }
  return null;
}
