import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
  LoginMfaChallenge,
  MfaMethod,
  MfaVerifyRequest,
  RecoveryRequestInput,
} from '@mailroom/contract/auth';
import { MFA_LOCKOUT_MINUTES } from '@mailroom/contract/mfa';
import { AppError, badRequest, forbidden, tooManyRequests, unauthorized } from '../../../http/errors.ts';
import { accountByEmail } from '../../../http/sign-in-account.repository.ts';
import {
  deleteExpiredChallenges,
  insertChallenge,
  loginChallenge,
  spendChallenge,
  updateChallenge,
} from './challenge.repository.ts';
import { emailCodeAddress, emailCodeHash, sendEmailCode } from './email-code.service.ts';
import { recordActivity } from '../users/activity.repository.ts';
import {
  activeFactorCount,
  backupCodeCounts,
  consumeBackupCode,
  verifyTotp,
} from '../factors/factors.service.ts';
import { clearFailures, countFailure, refuseIfLocked } from './lockout.service.ts';
import { enrolRequired, setLastMfaLogin } from '../account/mfa-account.repository.ts';
import { activeFactorTypes } from '../factors/mfa-device.repository.ts';
import { hasPendingRecoveryRequest, insertRecoveryRequest } from '../factors/recovery-request.repository.ts';
import { insertTrustedBrowser, isTrustedBrowser } from './trusted-device.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import { effectivePolicy } from '../policy/policy.service.ts';
import { authenticationOptions, verifyAuthentication } from '../factors/webauthn.service.ts';

/** A password-proved sign-in waits this long for its second factor. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const TRUSTED_COOKIE = 'mailroom_trusted';

const safeEqual = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const sha = (v: string) => createHash('sha256').update(v).digest('hex');

export interface SignInMeta {
  ip: string | null;
  userAgent: string | null;
  cookie: string | undefined;
}

/** What a right password leads to: a session (maybe limited to enrolment) or a challenge. */
export type AfterPassword =
  | { kind: 'session'; scope: 'enrol' | null; absoluteMs: number }
  | { kind: 'challenge'; answer: LoginMfaChallenge };

export interface Verified {
  admin: { id: number; email: string };
  absoluteMs: number;
  /** Set when the browser is to be remembered: the cookie value and its lifetime. */
  trusted?: { token: string; maxAgeS: number };
}

function cookieValue(cookie: string | undefined, name: string): string | null {
  for (const part of (cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name && v.length) return v.join('=');
  }
  return null;
}

async function methodsFor(ctx: MfaContext, adminId: number): Promise<MfaMethod[]> {
  const policy = await effectivePolicy(ctx.db, adminId);
  const types = await activeFactorTypes(ctx.db, adminId);
  const have: { m: MfaMethod; label: string }[] = [];
  if (types.has('TOTP')) have.push({ m: 'totp', label: 'TOTP' });
  if (types.has('Hardware Token')) have.push({ m: 'webauthn', label: 'Hardware Token' });
  if ((await backupCodeCounts(ctx.db, adminId, ctx.now())).available > 0)
    have.push({ m: 'backup_code', label: 'Backup Codes' });
  if ((await emailCodeAddress(ctx, adminId)) !== null) have.push({ m: 'email_code', label: 'Email' });
  const allowed = have.filter(
    (h) =>
      (policy.allowedMethods as string[]).includes(h.label) &&
      (h.m !== 'backup_code' || policy.backupCodesEnabled),
  );
  // A policy never leaves an enrolled account without a way in: its own factors still count.
  // E-mail codes and backup codes stand in for a factor; they are not one of their own.
  const own = (h: { m: MfaMethod }) => h.m !== 'backup_code' && h.m !== 'email_code';
  return (allowed.some(own) ? allowed : have.filter((h) => h.m !== 'email_code')).map((h) => h.m);
}

export async function afterPassword(
  ctx: MfaContext,
  admin: { id: number; email: string },
  meta: SignInMeta,
): Promise<AfterPassword> {
  const policy = await effectivePolicy(ctx.db, admin.id);
  const absoluteMs = policy.sessionTimeoutMs ?? ctx.sessionAbsoluteMs;
  const factors = await activeFactorCount(ctx.db, admin.id);
  if (factors === 0) {
    const mustEnrol = policy.requireMfa || (await enrolRequired(ctx.db, admin.id));
    return { kind: 'session', scope: mustEnrol ? 'enrol' : null, absoluteMs };
  }
  await refuseIfLocked(ctx, admin.id);
  const now = ctx.now();
  const remembered = cookieValue(meta.cookie, TRUSTED_COOKIE);
  if (remembered && policy.trustedDevicesEnabled) {
    if (await isTrustedBrowser(ctx.db, admin.id, sha(remembered), now)) {
      await recordActivity(ctx.db, {
        adminId: admin.id,
        email: admin.email,
        action: 'mfa_login',
        ok: true,
        ip: meta.ip,
        at: now,
      });
      return { kind: 'session', scope: null, absoluteMs };
    }
  }
  const token = randomBytes(32).toString('base64url');
  await deleteExpiredChallenges(ctx.db, now);
  await insertChallenge(ctx.db, {
    token_hash: sha(token),
    admin_id: admin.id,
    purpose: 'login',
    created_at: now,
    expires_at: now + CHALLENGE_TTL_MS,
    ip: meta.ip,
  });
  return {
    kind: 'challenge',
    answer: {
      success: false,
      mfa_required: true,
      email: admin.email,
      challenge: token,
      methods: await methodsFor(ctx, admin.id),
      expires_in: CHALLENGE_TTL_MS / 1000,
    },
  };
}

async function findChallenge(ctx: MfaContext, token: string) {
  const row = await loginChallenge(ctx.db, sha(token));
  if (!row || row.expires_at <= ctx.now())
    throw unauthorized('The sign-in has expired. Enter your email and password again.');
  return row;
}

/** Mails a sign-in code for a pending challenge, when the account's methods include it. */
export async function mailSignInCode(ctx: MfaContext, token: string): Promise<string> {
  const ch = await findChallenge(ctx, token);
  await refuseIfLocked(ctx, ch.admin_id);
  if (!(await methodsFor(ctx, ch.admin_id)).includes('email_code'))
    throw forbidden('E-mail codes are not allowed for this account.');
  try {
    return await sendEmailCode(ctx, {
      id: ch.id,
      admin_id: ch.admin_id,
      email: ch.email,
      email_code_expires_at: ch.email_code_expires_at === null ? null : Number(ch.email_code_expires_at),
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw badRequest(`The code could not be mailed: ${(err as Error).message}`);
  }
}

export async function webauthnLoginOptions(ctx: MfaContext, token: string): Promise<Record<string, unknown>> {
  const ch = await findChallenge(ctx, token);
  await refuseIfLocked(ctx, ch.admin_id);
  const options = await authenticationOptions(ctx, ch.admin_id);
  await updateChallenge(ctx.db, ch.id, { webauthn_challenge: options.challenge });
  return options as unknown as Record<string, unknown>;
}

export async function verifySecondStep(
  ctx: MfaContext,
  body: MfaVerifyRequest,
  meta: SignInMeta,
): Promise<Verified> {
  const ch = await findChallenge(ctx, body.challenge);
  const admin = { id: ch.admin_id, email: ch.email };
  await refuseIfLocked(ctx, admin.id);
  const methods = await methodsFor(ctx, admin.id);
  let ok = false;
  if (methods.includes(body.method)) {
    if (body.method === 'totp' && body.code) ok = await verifyTotp(ctx, admin.id, body.code);
    else if (body.method === 'backup_code' && body.code)
      ok = await consumeBackupCode(ctx, admin.id, body.code);
    else if (body.method === 'email_code' && body.code)
      ok =
        ch.email_code_hash !== null &&
        ch.email_code_expires_at !== null &&
        Number(ch.email_code_expires_at) > ctx.now() &&
        safeEqual(ch.email_code_hash, emailCodeHash(ctx, ch.id, body.code));
    else if (body.method === 'webauthn' && body.credential && ch.webauthn_challenge)
      ok = await verifyAuthentication(ctx, admin.id, ch.webauthn_challenge, body.credential);
  }
  const now = ctx.now();
  if (!ok) {
    await recordActivity(ctx.db, {
      adminId: admin.id,
      email: admin.email,
      action: 'mfa_login',
      ok: false,
      ip: meta.ip,
      at: now,
    });
    if (await countFailure(ctx, admin.id, meta.ip))
      throw tooManyRequests(
        MFA_LOCKOUT_MINUTES * 60,
        `Account locked after too many failed verification attempts. Try again in ${MFA_LOCKOUT_MINUTES} minutes or ask an administrator.`,
      );
    throw unauthorized('Invalid verification code.');
  }
  // The challenge is spent once: a parallel second use of the same challenge finds it gone.
  if (!(await spendChallenge(ctx.db, ch.id)))
    throw unauthorized('The sign-in has expired. Enter your email and password again.');
  await clearFailures(ctx, admin.id);
  await setLastMfaLogin(ctx.db, admin.id, iso(now));
  await recordActivity(ctx.db, {
    adminId: admin.id,
    email: admin.email,
    action: 'mfa_login',
    ok: true,
    ip: meta.ip,
    at: now,
  });
  if (body.method === 'backup_code')
    await recordActivity(ctx.db, {
      adminId: admin.id,
      email: admin.email,
      action: 'backup_code_used',
      ok: true,
      ip: meta.ip,
      at: now,
    });
  const policy = await effectivePolicy(ctx.db, admin.id);
  const out: Verified = { admin, absoluteMs: policy.sessionTimeoutMs ?? ctx.sessionAbsoluteMs };
  if (body.trust_device && policy.trustedDevicesEnabled) {
    const token = randomBytes(32).toString('base64url');
    await insertTrustedBrowser(ctx.db, {
      admin_id: admin.id,
      token_hash: sha(token),
      created_at: now,
      expires_at: now + policy.trustedDeviceExpiryMs,
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
    });
    out.trusted = { token, maxAgeS: Math.floor(policy.trustedDeviceExpiryMs / 1000) };
  }
  return out;
}

/**
 * "Lost my device" from the sign-in page. The answer is the same whether or not the account
 * exists, so the form reveals nothing; at most one pending request per account.
 */
export async function createRecoveryRequest(
  ctx: MfaContext,
  input: RecoveryRequestInput,
  meta: SignInMeta,
): Promise<void> {
  const admin = await accountByEmail(ctx.db, input.email.trim().toLowerCase());
  if (!admin) return;
  if (await hasPendingRecoveryRequest(ctx.db, admin.id)) return;
  await insertRecoveryRequest(ctx.db, {
    admin_id: admin.id,
    request_type: input.requestType,
    status: 'pending',
    requested_at: iso(ctx.now()),
    reason: input.reason,
    ip: meta.ip,
    user_agent: meta.userAgent?.slice(0, 300) ?? null,
  });
}
