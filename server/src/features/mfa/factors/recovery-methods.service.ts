import { randomInt } from 'node:crypto';
import type { RecoveryMethod } from '@mailroom/contract/mfa';
import { fieldError, notFound } from '../../../http/errors.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import {
  allRecoveryMethods,
  insertRecoveryMethod,
  recoveryMethodById,
  recoveryMethodIdByValue,
  recoveryMethodOf,
  toMethod,
  updateRecoveryMethod,
  verifyRecoveryCode,
} from './recovery-method.repository.ts';
import { sendMail } from '../sign-in/smtp-send.service.ts';

const CODE_TTL_MS = 15 * 60_000;

/** Adds (or re-sends) a recovery address: a 6-digit code goes out through the local mail server. */
export async function addRecoveryEmail(
  ctx: MfaContext,
  admin: { id: number; email: string },
  address: string,
): Promise<RecoveryMethod> {
  const value = address.trim().toLowerCase();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  const existing = await recoveryMethodIdByValue(ctx.db, admin.id, value);
  const values = { code_hash: ctx.box.mac(`${value}:${code}`), code_expires_at: now + CODE_TTL_MS };
  const id =
    existing !== null
      ? (await updateRecoveryMethod(ctx.db, existing, values), existing)
      : await insertRecoveryMethod(ctx.db, {
          admin_id: admin.id,
          method_type: 'Email',
          method_value: value,
          created_at: iso(now),
          ...values,
        });
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
  return toMethod(await recoveryMethodById(ctx.db, id), admin.email);
}

export async function verifyRecoveryEmail(
  ctx: MfaContext,
  admin: { id: number; email: string },
  id: number,
  code: string,
): Promise<RecoveryMethod> {
  const row = await recoveryMethodOf(ctx.db, admin.id, id);
  if (!row) throw notFound(`No recovery method ${id}`);
  const now = ctx.now();
  // One statement: the code works once and only before it expires.
  const hash = ctx.box.mac(`${row.method_value}:${code.trim()}`);
  if (!(await verifyRecoveryCode(ctx.db, id, hash, now, iso(now))))
    throw fieldError('code', 'Invalid verification code.');
  return toMethod(await recoveryMethodById(ctx.db, id), admin.email);
}

export async function listRecoveryMethods(ctx: MfaContext): Promise<RecoveryMethod[]> {
  return allRecoveryMethods(ctx.db);
}
