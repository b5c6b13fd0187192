import { randomInt } from 'node:crypto';
import { tooManyRequests, unauthorized } from '../../../http/errors.ts';
import { activeMailboxAddress } from '../../../http/sign-in-account.repository.ts';
import { updateChallenge } from './challenge.repository.ts';
import {
  claimEmailCodeSlot,
  ensureAccountRow,
  releaseEmailCodeSlot,
} from '../account/mfa-account.repository.ts';
import { verifiedRecoveryAddress } from '../factors/recovery-method.repository.ts';
import type { MfaContext } from '../mfa.context.ts';
import { sendMail } from './smtp-send.service.ts';

/** A mailed sign-in code stays valid this long, and is accepted once. */
export const EMAIL_CODE_TTL_MS = 10 * 60_000;
/** A new code at most this often per account (over all its pending sign-ins). */
const RESEND_MS = 30_000;

/**
 * Where an account's e-mail codes go: its first verified recovery address, else (a mailbox user)
 * the mailbox itself. Null: the account has no address to receive one.
 */
export async function emailCodeAddress(ctx: MfaContext, adminId: number): Promise<string | null> {
  return (await verifiedRecoveryAddress(ctx.db, adminId)) ?? (await activeMailboxAddress(ctx.db, adminId));
}

const mask = (address: string) => {
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(local.length - 1, 1))}@${domain}`;
};

/** Keyed hash of the code, bound to the challenge (a code is worth nothing for another sign-in). */
export const emailCodeHash = (ctx: MfaContext, challengeId: number, code: string) =>
  ctx.box.mac(`email-code:${challengeId}:${code}`);

/**
 * Mails a 6-digit code for a pending sign-in through the local mail server; the sign-in then
 * waits up to 10 minutes for it. A new code replaces the previous one.
 */
export async function sendEmailCode(
  ctx: MfaContext,
  ch: { id: number; admin_id: number; email: string; email_code_expires_at: number | null },
): Promise<string> {
  const to = await emailCodeAddress(ctx, ch.admin_id);
  if (!to) throw unauthorized('No e-mail address can receive a code for this account.');
  const now = ctx.now();
  // Per account, not per sign-in: whoever knows the password could otherwise open sign-in after
  // sign-in and have a code mailed for each. One statement claims the slot (compare-and-set), so
  // parallel requests cannot both send.
  await ensureAccountRow(ctx.db, ch.admin_id);
  if (!(await claimEmailCodeSlot(ctx.db, ch.admin_id, now, RESEND_MS)))
    throw tooManyRequests(RESEND_MS / 1000, 'A code was just sent. Wait a little before asking for another.');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await updateChallenge(ctx.db, ch.id, {
    email_code_hash: emailCodeHash(ctx, ch.id, code),
    email_code_expires_at: now + EMAIL_CODE_TTL_MS,
    expires_at: now + EMAIL_CODE_TTL_MS,
  });
  try {
    await sendMail({
      port: ctx.smtpPort,
      from: await ctx.mailFrom(),
      to,
      subject: 'Mailroom: your sign-in code',
      text: `Your sign-in code is ${code}.\nIt is valid for 10 minutes, once. It was requested for the account ${ch.email}.\nIf you did not try to sign in, change your password.\n`,
    });
  } catch (err) {
    // Nothing was mailed: the slot is given back, so the owner may ask again at once.
    await releaseEmailCodeSlot(ctx.db, ch.admin_id, now);
    throw err;
  }
  return mask(to);
}
