import { randomInt } from 'node:crypto';
import {
  APP_PASSWORDS_MAX,
  type AppPassword,
  type AppPasswordCreated,
  APP_PASSWORD_KEY_LENGTH,
} from '@mailroom/contract/app-passwords';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { hashPassword } from '../../lib/password-hash.ts';

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

const toAppPassword = (r: { id: number; name: string; created_at: string }): AppPassword => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
});

export async function mailboxHasMfa(db: Kysely<Database>, mailboxId: number): Promise<boolean> {
  const r = await db
    .selectFrom('mailbox_mfa')
    .select('mailbox_id')
    .where('mailbox_id', '=', mailboxId)
    .executeTakeFirst();
  return r !== undefined;
}

export async function listAppPasswords(db: Kysely<Database>, mailboxId: number): Promise<AppPassword[]> {
  const rows = await db
    .selectFrom('mailbox_app_passwords')
    .select(['id', 'name', 'created_at'])
    .where('mailbox_id', '=', mailboxId)
    .orderBy('id')
    .execute();
  return rows.map(toAppPassword);
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
      const rows = await trx
        .selectFrom('mailbox_app_passwords')
        .select(['lookup_key'])
        .where('mailbox_id', '=', mailboxId)
        .execute();
      if (rows.length >= APP_PASSWORDS_MAX)
        throw conflict(`A mailbox has at most ${APP_PASSWORDS_MAX} app passwords: revoke one first.`);
      // The lookup key is unique per mailbox (Dovecot must find exactly one row): draw again.
      if (rows.some((r) => r.lookup_key === key)) return null;
      return trx
        .insertInto('mailbox_app_passwords')
        .values({
          mailbox_id: mailboxId,
          name,
          lookup_key: key,
          password_hash: h,
          created_at: new Date(now).toISOString(),
        })
        .returning(['id', 'name', 'created_at'])
        .executeTakeFirstOrThrow();
    });
    if (created) return { ...toAppPassword(created), password };
  }
  throw conflict('Could not draw an unused app password; try again.');
}

export async function revokeAppPassword(db: Kysely<Database>, mailboxId: number, id: number): Promise<void> {
  const res = await db
    .deleteFrom('mailbox_app_passwords')
    .where('id', '=', id)
    .where('mailbox_id', '=', mailboxId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('No such app password.');
}
