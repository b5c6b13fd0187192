import { hash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { commitVersion } from '../db/commit-version.ts';
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

// The one-shot digest: a third of createHash().update().digest()'s cost, on every request.
export const hashToken = (token: string) => hash('sha256', token, 'hex');

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

/** The sliding timestamp is written at most this often: reads stay reads under load. */
const SLIDE_EVERY_MS = 10_000;
/** Sessions one process keeps (a full map is emptied: they are read again). */
const CACHED_SESSIONS = 10_000;

interface CachedSession {
  /** `commitVersion` read before the row was: valid while nothing was committed since. */
  version: number;
  admin: SessionAdmin;
  expiresAt: number;
  lastSeenAt: number;
}

const sessionCaches = new WeakMap<object, Map<string, CachedSession>>();

function cacheOf(db: Kysely<Database>): Map<string, CachedSession> {
  let c = sessionCaches.get(db);
  if (!c) sessionCaches.set(db, (c = new Map<string, CachedSession>()));
  return c;
}

/**
 * The session of a token hash as last read from the database, when reading it again could not
 * answer anything else: no commit anywhere since (a sign-out, a revocation, a role or domain
 * change, a deleted account, any other process's write: every worker sees every commit at once),
 * the session not past its idle or absolute end, and its sliding timestamp not due. Otherwise
 * undefined: the caller reads the database. Only on SQLite (`commitVersion`); on PostgreSQL every
 * request reads its session.
 */
function cachedSession(
  db: Kysely<Database>,
  policy: SessionPolicy,
  hash: string,
  now: number,
  version: number | null,
): SessionAdmin | undefined {
  if (version === null) return undefined;
  const c = sessionCaches.get(db)?.get(hash);
  if (
    !c ||
    c.version !== version ||
    c.expiresAt <= now ||
    c.lastSeenAt + policy.idleMs <= now ||
    now - c.lastSeenAt > SLIDE_EVERY_MS
  )
    return undefined;
  return c.admin;
}

/**
 * The live session of a token when it is known without a database read (see `cachedSession`),
 * else undefined: then `touchSession` decides. Lets the auth guard answer most requests without a
 * promise.
 */
export function knownSession(
  db: Kysely<Database>,
  policy: SessionPolicy,
  token: string,
  now = Date.now(),
): SessionAdmin | undefined {
  return cachedSession(db, policy, hashToken(token), now, commitVersion(db));
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
  const hash = hashToken(token);
  // Read before the row: a commit after this point (however soon) makes the entry stale.
  const version = commitVersion(db);
  const known = cachedSession(db, policy, hash, now, version);
  if (known) return known;
  const rows = await selectSessionByHash(db, [hash]);
  const row = rows[0];
  if (!row) return null;
  if (row.expires_at <= now || row.last_seen_at + policy.idleMs <= now) {
    await deleteSessionById(db, row.id);
    return null;
  }
  let lastSeenAt = row.last_seen_at;
  if (now - lastSeenAt > SLIDE_EVERY_MS) {
    await slideSession(db, [now, row.id]);
    lastSeenAt = now;
  }
  const domains: string[] = [];
  for (const r of rows) if (r.domain !== null) domains.push(r.domain);
  const admin: SessionAdmin = {
    sessionId: row.id,
    adminId: row.admin_id,
    email: row.email,
    scope: row.scope,
    role: row.role,
    domains,
    mailboxId: row.mailbox_id ?? null,
  };
  if (version !== null) {
    const cache = cacheOf(db);
    if (cache.size >= CACHED_SESSIONS) cache.clear();
    cache.set(hash, { version, admin, expiresAt: row.expires_at, lastSeenAt });
  }
  return admin;
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
