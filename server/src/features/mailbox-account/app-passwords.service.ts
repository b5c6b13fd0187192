import { randomInt } from 'node:crypto';
import {
  APP_PASSWORDS_MAX,
  type AppPasswordCreated,
  APP_PASSWORD_KEY_LENGTH,
  type MailboxAppPasswords,
} from '@mailroom/contract/app-passwords';
import { mailMessages } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import {
  deleteAppPassword,
  insertAppPassword,
  listAppPasswords,
  lookupKeys,
  mailboxHasMfa,
  mailboxIdOf,
} from './app-password.repository.ts';

// Lower-case letters and digits without look-alikes (0/o, 1/l/i): easy to type into a mail client.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Four groups of five characters (about 98 bits); the first group is the lookup key Dovecot uses. */
export function generateAppPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < 4; g++) {
    let s = '';
    for (let i = 0; i < APP_PASSWORD_KEY_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(s);
  }
  return groups.join('-');
}

/** Makes an app password; its hash is the ARGON2ID scheme Dovecot verifies. Answered once. */
export async function createAppPassword(
  db: Kysely<Database>,
  mailboxId: number,
  name: string,
  now: number,
): Promise<AppPasswordCreated> {
  const hash = async (p: string) => ({ p, h: await hashPassword(p) });
  for (let attempt = 0; attempt < 5; attempt++) {
    const { p: password, h } = await hash(generateAppPassword());
    const key = password.slice(0, APP_PASSWORD_KEY_LENGTH);
    const created = await db.transaction().execute(async (trx) => {
      const keys = await lookupKeys(trx, mailboxId);
      if (keys.length >= APP_PASSWORDS_MAX)
        throw conflict(`A mailbox has at most ${APP_PASSWORDS_MAX} app passwords: revoke one first.`);
      // The lookup key is unique per mailbox (Dovecot must find exactly one row): draw again.
      if (keys.includes(key)) return null;
      return insertAppPassword(trx, {
        mailbox_id: mailboxId,
        name,
        lookup_key: key,
        password_hash: h,
        created_at: new Date(now).toISOString(),
      });
    });
    if (created) return { ...created, password };
  }
  throw conflict('Could not draw an unused app password; try again.');
}

export async function revokeAppPassword(db: Kysely<Database>, mailboxId: number, id: number): Promise<void> {
  if (!(await deleteAppPassword(db, mailboxId, id))) throw notFound('No such app password.');
}

/** A mailbox's app passwords for its administrators; 404 when there is no such mailbox. */
export async function mailboxAppPasswords(db: Kysely<Database>, email: string): Promise<MailboxAppPasswords> {
  const id = await mailboxIdOf(db, email);
  if (id === null) throw notFound(mailMessages.mailboxNotFound(email));
  return { email, mfaEnabled: await mailboxHasMfa(db, id), items: await listAppPasswords(db, id) };
}

/** An administrator revokes one app password of the mailbox at `email`. */
export async function revokeMailboxAppPassword(
  db: Kysely<Database>,
  email: string,
  id: number,
): Promise<void> {
  const mailboxId = await mailboxIdOf(db, email);
  if (mailboxId === null) throw notFound(mailMessages.mailboxNotFound(email));
  await revokeAppPassword(db, mailboxId, id);
}

export { listAppPasswords, mailboxHasMfa };
