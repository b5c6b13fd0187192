import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ADMIN_PASSWORD_MIN } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { endAccountAccess } from '../../http/account-access.repository.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import {
  adminDomains,
  adminIdByEmail,
  allAdminDomains,
  anyConsoleAdmin,
  consoleAdmins,
  countFullAdmins,
  deleteAdmin,
  findConsoleAdmin,
  insertAdmin,
  updateAdminRow,
  writeAdminDomains,
} from './admin.repository.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkInput(email: string, password: string): void {
  if (!EMAIL_RE.test(email)) throw fieldError('email', 'Please enter a valid email address');
  if (password.length < ADMIN_PASSWORD_MIN) {
    throw fieldError('password', `Password must be at least ${ADMIN_PASSWORD_MIN} characters`);
  }
}

export type AdminRole = 'admin' | 'domain-admin';

export interface AdminAccess {
  role: AdminRole;
  /** A domain administrator's domains (ignored for an administrator). */
  domains: readonly string[];
}

export interface AdminListEntry {
  email: string;
  created_at: string;
  role: AdminRole;
  domains: string[];
}

const asRole = (r: string): AdminRole => (r === 'admin' ? 'admin' : 'domain-admin');

function checkAccess(access: AdminAccess): string[] {
  const domains = [...new Set(access.domains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')))].sort();
  if (access.role === 'domain-admin' && !domains.length)
    throw fieldError('domains', 'Assign at least one domain');
  return access.role === 'admin' ? [] : domains;
}

export async function addAdmin(
  db: Kysely<Database>,
  email: string,
  password: string,
  access: AdminAccess = { role: 'admin', domains: [] },
): Promise<void> {
  const e = email.trim().toLowerCase();
  checkInput(e, password);
  const domains = checkAccess(access);
  if ((await adminIdByEmail(db, e)) !== null) throw conflict(`An administrator ${e} already exists`);
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const id = await insertAdmin(trx, {
      email: e,
      password_hash: passwordHash,
      role: access.role,
      created_at: now,
      updated_at: now,
    });
    await writeAdminDomains(trx, id, domains);
  });
}

/** The console account (not a mailbox user's) signed in as `email` (lower case); 404 when there is none. */
async function consoleAdmin(db: Kysely<Database>, email: string) {
  const row = await findConsoleAdmin(db, email);
  if (!row) throw notFound(`No administrator ${email}`);
  return row;
}

/**
 * Sets an account's role and domains (and password). The last administrator cannot become a
 * domain administrator. A new password, or a role or domains that differ from before, ends every
 * session of the account (and its pending sign-ins and remembered browsers): it signs in again
 * under its new rights rather than carrying a session (and a re-authentication) across them.
 */
export async function updateAdmin(
  db: Kysely<Database>,
  email: string,
  update: AdminAccess & { password?: string | undefined },
): Promise<AdminListEntry> {
  const e = email.trim().toLowerCase();
  const domains = checkAccess(update);
  if (update.password !== undefined) checkInput(e, update.password);
  const passwordHash = update.password !== undefined ? await hashPassword(update.password) : null;
  await db.transaction().execute(async (trx) => {
    const row = await consoleAdmin(trx, e);
    if (row.role === 'admin' && update.role !== 'admin' && (await countFullAdmins(trx)) <= 1)
      throw conflict('The last administrator cannot be removed');
    const before = await adminDomains(trx, row.id);
    const rightsChanged = row.role !== update.role || before.sort().join('\n') !== domains.join('\n');
    await updateAdminRow(trx, row.id, {
      role: update.role,
      updated_at: new Date().toISOString(),
      ...(passwordHash ? { password_hash: passwordHash } : {}),
    });
    await writeAdminDomains(trx, row.id, domains);
    if (passwordHash || rightsChanged) await endAccountAccess(trx, [row.id]);
  });
  const entry = (await listAdmins(db)).find((a) => a.email === e);
  if (!entry) throw notFound(`No administrator ${e}`);
  return entry;
}

/** Changes the password and ends every session (and pending sign-in) of that administrator. */
export async function setAdminPassword(db: Kysely<Database>, email: string, password: string): Promise<void> {
  const e = email.trim().toLowerCase();
  checkInput(e, password);
  const row = await consoleAdmin(db, e);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await updateAdminRow(trx, row.id, { password_hash: passwordHash, updated_at: new Date().toISOString() });
    await endAccountAccess(trx, [row.id]);
  });
}

export async function listAdmins(db: Kysely<Database>): Promise<AdminListEntry[]> {
  const [rows, assigned] = await Promise.all([consoleAdmins(db), allAdminDomains(db)]);
  const byAdmin = new Map<number, string[]>();
  for (const a of assigned) byAdmin.set(a.admin_id, [...(byAdmin.get(a.admin_id) ?? []), a.domain]);
  return rows.map((r) => ({
    email: r.email,
    created_at: r.created_at,
    role: asRole(r.role),
    domains: byAdmin.get(r.id) ?? [],
  }));
}

export async function removeAdmin(db: Kysely<Database>, email: string): Promise<void> {
  const e = email.trim().toLowerCase();
  await db.transaction().execute(async (trx) => {
    const row = await consoleAdmin(trx, e);
    // Domain administrators do not count: the console always keeps one full administrator.
    if (row.role === 'admin' && (await countFullAdmins(trx)) <= 1)
      throw conflict('The last administrator cannot be removed');
    await deleteAdmin(trx, row.id);
  });
}

/**
 * First start: create the administrator from MAILROOM_ADMIN_EMAIL/PASSWORD, or one with a random
 * password that is logged once. Does nothing when any administrator exists.
 */
export async function ensureInitialAdmin(
  db: Kysely<Database>,
  opts: { email?: string | undefined; password?: string | undefined },
  log: (msg: string) => void,
): Promise<void> {
  const anyAdmin = () => anyConsoleAdmin(db);
  if (await anyAdmin()) return;
  const email = (opts.email ?? 'admin@localhost.localdomain').trim().toLowerCase();
  const password = opts.password ?? randomBytes(12).toString('base64url');
  try {
    await addAdmin(db, email, password);
  } catch (err) {
    // Another instance on the same database won the race: its administrator stands.
    if (await anyAdmin()) return;
    throw err;
  }
  log(
    opts.password
      ? `Created administrator ${email} from MAILROOM_ADMIN_EMAIL/MAILROOM_ADMIN_PASSWORD.`
      : `Created administrator ${email} with password: ${password}  (shown once; change it with \`npm run mailroom -- admin passwd ${email}\`)`,
  );
}
