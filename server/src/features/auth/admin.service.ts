import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ADMIN_PASSWORD_MIN } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { revokeAdminSessions } from '../../http/sessions.ts';
import { hashPassword } from '../../lib/password-hash.ts';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkInput(email: string, password: string): void {
  if (!EMAIL_RE.test(email)) throw fieldError('email', 'Please enter a valid email address');
  if (password.length < ADMIN_PASSWORD_MIN) {
    throw fieldError('password', `Password must be at least ${ADMIN_PASSWORD_MIN} characters`);
  }
}

export async function addAdmin(db: Kysely<Database>, email: string, password: string): Promise<void> {
  const e = email.trim().toLowerCase();
  checkInput(e, password);
  const exists = await db.selectFrom('admins').select('id').where('email', '=', e).executeTakeFirst();
  if (exists) throw conflict(`An administrator ${e} already exists`);
  const now = new Date().toISOString();
  await db
    .insertInto('admins')
    .values({ email: e, password_hash: await hashPassword(password), created_at: now, updated_at: now })
    .execute();
}

/** Changes the password and revokes every session of that administrator. */
export async function setAdminPassword(db: Kysely<Database>, email: string, password: string): Promise<void> {
  const e = email.trim().toLowerCase();
  checkInput(e, password);
  const row = await db.selectFrom('admins').select('id').where('email', '=', e).executeTakeFirst();
  if (!row) throw notFound(`No administrator ${e}`);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('admins')
      .set({ password_hash: passwordHash, updated_at: new Date().toISOString() })
      .where('id', '=', row.id)
      .execute();
    await revokeAdminSessions(trx, row.id);
  });
}

export async function listAdmins(db: Kysely<Database>): Promise<{ email: string; created_at: string }[]> {
  return db
    .selectFrom('admins')
    .select(['email', 'created_at'])
    .where('mailbox_id', 'is', null)
    .orderBy('email')
    .execute();
}

export async function removeAdmin(db: Kysely<Database>, email: string): Promise<void> {
  const e = email.trim().toLowerCase();
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('admins')
      .select('id')
      .where('email', '=', e)
      .where('mailbox_id', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(`No administrator ${e}`);
    const { n } = await trx
      .selectFrom('admins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mailbox_id', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(n) <= 1) throw conflict('The last administrator cannot be removed');
    await trx.deleteFrom('admins').where('id', '=', row.id).execute();
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
  const anyAdmin = async () =>
    (await db
      .selectFrom('admins')
      .select('id')
      .where('mailbox_id', 'is', null)
      .limit(1)
      .executeTakeFirst()) !== undefined;
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
