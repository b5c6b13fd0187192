import { randomInt } from 'node:crypto';
import type { RecoveryMethod } from '@mailroom/contract/mfa';
import type { Selectable } from 'kysely';
import type { MfaRecoveryMethodTable } from '../../db/mfa.tables.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { iso, type MfaContext } from './mfa-context.ts';
import { sendMail } from './smtp-send.ts';

const CODE_TTL_MS = 15 * 60_000;

export function toMethod(r: Selectable<MfaRecoveryMethodTable>, email: string): RecoveryMethod {
  return {
    id: r.id,
    userId: r.admin_id,
    userEmail: email,
    methodType: r.method_type as RecoveryMethod['methodType'],
    methodValue: r.method_value,
    status: r.verified === 1 ? 'active' : 'pending',
    createdAt: r.created_at,
    lastUsed: r.last_used,
    verified: r.verified === 1,
  };
}

/** Adds (or re-sends) a recovery address: a 6-digit code goes out through the local mail server. */
export async function addRecoveryEmail(
  ctx: MfaContext,
  admin: { id: number; email: string },
  address: string,
): Promise<RecoveryMethod> {
  const value = address.trim().toLowerCase();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  const existing = await ctx.db
    .selectFrom('mfa_recovery_methods')
    .select('id')
    .where('admin_id', '=', admin.id)
    .where('method_value', '=', value)
    .executeTakeFirst();
  const values = { code_hash: ctx.box.mac(`${value}:${code}`), code_expires_at: now + CODE_TTL_MS };
  const id = existing
    ? (await ctx.db.updateTable('mfa_recovery_methods').set(values).where('id', '=', existing.id).execute(),
      existing.id)
    : (
        await ctx.db
          .insertInto('mfa_recovery_methods')
          .values({
            admin_id: admin.id,
            method_type: 'Email',
            method_value: value,
            created_at: iso(now),
            ...values,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
  try {
    await sendMail({
      port: ctx.smtpPort,
      from: await ctx.mailFrom(),
      to: value,
      subject: 'Mailroom: verify your recovery address',
      text: `Your verification code is ${code}.\nIt is valid for 15 minutes. It was requested for the account ${admin.email}.\n`,
    });
  } catch (err) {
    throw fieldError('email', `The verification mail could not be sent: ${(err as Error).message}`);
  }
  const row = await ctx.db
    .selectFrom('mfa_recovery_methods')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toMethod(row, admin.email);
}

export async function verifyRecoveryEmail(
  ctx: MfaContext,
  admin: { id: number; email: string },
  id: number,
  code: string,
): Promise<RecoveryMethod> {
  const row = await ctx.db
    .selectFrom('mfa_recovery_methods')
    .selectAll()
    .where('id', '=', id)
    .where('admin_id', '=', admin.id)
    .executeTakeFirst();
  if (!row) throw notFound(`No recovery method ${id}`);
  const now = ctx.now();
  // One statement: the code works once and only before it expires.
  const res = await ctx.db
    .updateTable('mfa_recovery_methods')
    .set({ verified: 1, code_hash: null, code_expires_at: null, last_used: iso(now) })
    .where('id', '=', id)
    .where('code_hash', '=', ctx.box.mac(`${row.method_value}:${code.trim()}`))
    .where('code_expires_at', '>', now)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fieldError('code', 'Invalid verification code.');
  const done = await ctx.db
    .selectFrom('mfa_recovery_methods')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toMethod(done, admin.email);
}

export async function listRecoveryMethods(ctx: MfaContext): Promise<RecoveryMethod[]> {
  const rows = await ctx.db
    .selectFrom('mfa_recovery_methods')
    .innerJoin('admins', 'admins.id', 'mfa_recovery_methods.admin_id')
    .selectAll('mfa_recovery_methods')
    .select('admins.email')
    .orderBy('mfa_recovery_methods.id', 'desc')
    .execute();
  return rows.map((r) => toMethod(r, r.email));
}
