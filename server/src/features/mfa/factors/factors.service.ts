import { randomBytes } from 'node:crypto';
import { BACKUP_CODES_PER_GENERATION, type MfaDevice } from '@mailroom/contract/mfa';
import type { Kysely, Selectable } from 'kysely';
import QRCode from 'qrcode';
import type { MfaDeviceTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';
import { clearSessionScope } from '../../../http/session.repository.ts';
import { fieldError, notFound } from '../../../http/errors.ts';
import { endAccountAccess, revokeAccountAppPasswords } from '../../../http/account-access.repository.ts';
import { recordActivity } from '../users/activity.repository.ts';
import {
  backupCodeStates,
  deleteBackupCodes,
  replaceBackupCodes,
  useBackupCode,
} from './backup-code.repository.ts';
import { deleteChallengesOf } from '../sign-in/challenge.repository.ts';
import { setEnrolRequired } from '../account/mfa-account.repository.ts';
import {
  activateDevice,
  activeDevicesOfType,
  activeFactorCount,
  deleteDeviceOf,
  deleteDevicesOf,
  deletePendingDevices,
  deviceById,
  ensurePrimary,
  insertDevice,
  makePrimary,
  storeStep,
  toDevice,
  totpDeviceOf,
} from './mfa-device.repository.ts';
import { deleteTrustedBrowsers } from '../sign-in/trusted-device.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import { matchStep, newTotpSecret, totpFor } from './totp.service.ts';

export const BACKUP_CODE_LIFETIME_MS = 365 * 86_400_000;

/** Enrolment step 1: a new secret on a pending device; the QR code carries the otpauth URL. */
export async function startTotp(ctx: MfaContext, admin: { id: number; email: string }, deviceName: string) {
  const secret = newTotpSecret();
  const url = totpFor(secret, admin.email).toString();
  const now = ctx.now();
  const deviceId = await ctx.db.transaction().execute(async (trx) => {
    // An unfinished enrolment is replaced by the new one.
    await deletePendingDevices(trx, admin.id);
    return insertDevice(trx, {
      admin_id: admin.id,
      device_name: deviceName,
      device_type: 'TOTP',
      status: 'pending',
      secret_enc: ctx.box.seal(secret),
      created_at: iso(now),
    });
  });
  const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { deviceId, secret, otpauthUrl: url, qrSvg };
}

/**
 * Accepts a TOTP code for one device at most once: the step is stored with a compare-and-set, so
 * the same code (or an older one) sent again, even in parallel, is refused.
 */
async function acceptStep(
  ctx: MfaContext,
  device: Selectable<MfaDeviceTable>,
  code: string,
): Promise<boolean> {
  if (!device.secret_enc) return false;
  const step = matchStep(ctx.box.open(device.secret_enc), code, ctx.now());
  if (step === null) return false;
  return storeStep(ctx.db, device.id, step, iso(ctx.now()));
}

/** Enrolment step 2: the first code proves the app holds the secret; the device becomes active. */
export async function confirmTotp(
  ctx: MfaContext,
  admin: { id: number; email: string; sessionId: number },
  deviceId: number,
  code: string,
  ip: string | null,
): Promise<MfaDevice> {
  const device = await totpDeviceOf(ctx.db, admin.id, deviceId);
  if (!device || device.status !== 'pending') throw notFound('No enrolment in progress for this device');
  if (!(await acceptStep(ctx, device, code))) {
    await recordActivity(ctx.db, {
      adminId: admin.id,
      email: admin.email,
      action: 'mfa_setup',
      ok: false,
      ip,
      at: ctx.now(),
    });
    throw fieldError('code', 'The code is not valid. Check the time on your device and try again.');
  }
  return finishEnrolment(ctx, admin, deviceId, ip);
}

/** A new factor is live: primary if it is the first, enrolment no longer required. */
export async function finishEnrolment(
  ctx: MfaContext,
  admin: { id: number; email: string; sessionId: number },
  deviceId: number,
  ip: string | null,
): Promise<MfaDevice> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const others = await activeFactorCount(trx, admin.id);
    await activateDevice(trx, deviceId, others === 0);
    await setEnrolRequired(trx, admin.id, false);
    // The session that enrolled is now a full one.
    await clearSessionScope(trx, admin.sessionId);
    return deviceById(trx, deviceId);
  });
  const at = ctx.now();
  await recordActivity(ctx.db, {
    adminId: admin.id,
    email: admin.email,
    action: 'mfa_setup',
    ok: true,
    ip,
    at,
  });
  await recordActivity(ctx.db, {
    adminId: admin.id,
    email: admin.email,
    action: 'device_added',
    ok: true,
    ip,
    at,
  });
  return toDevice(row, admin.email);
}

/** A sign-in or re-authentication code: any active TOTP device, or an unused backup code. */
export async function verifyTotp(ctx: MfaContext, adminId: number, code: string): Promise<boolean> {
  const devices = await activeDevicesOfType(ctx.db, adminId, 'TOTP');
  for (const d of devices) if (await acceptStep(ctx, d, code)) return true;
  return false;
}

const normaliseCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

/** Ten codes shown once; only keyed hashes are kept. The account's previous set stops working. */
export async function generateBackupCodes(
  ctx: MfaContext,
  adminId: number,
  count = BACKUP_CODES_PER_GENERATION,
): Promise<{ codes: string[]; expiresAt: string }> {
  const now = ctx.now();
  const expiresAt = iso(now + BACKUP_CODE_LIFETIME_MS);
  const codes = Array.from({ length: count }, () => {
    const hex = randomBytes(5).toString('hex'); // 40 bits each
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
  await ctx.db.transaction().execute((trx) =>
    replaceBackupCodes(
      trx,
      adminId,
      codes.map((c) => ({
        admin_id: adminId,
        code_hash: ctx.box.mac(normaliseCode(c)),
        hint: c.slice(-4),
        created_at: iso(now),
        expires_at: expiresAt,
      })),
    ),
  );
  return { codes, expiresAt };
}

/** Uses a backup code: one statement marks it used only if it was unused and unexpired. */
export async function consumeBackupCode(ctx: MfaContext, adminId: number, code: string): Promise<boolean> {
  return useBackupCode(ctx.db, adminId, ctx.box.mac(normaliseCode(code)), iso(ctx.now()));
}

export async function backupCodeCounts(db: Kysely<Database>, adminId: number, now: number) {
  const rows = await backupCodeStates(db, [adminId]);
  const t = iso(now);
  return {
    available: rows.filter((r) => r.used === 0 && r.expires_at > t).length,
    used: rows.filter((r) => r.used === 1).length,
    expired: rows.filter((r) => r.used === 0 && r.expires_at <= t).length,
  };
}

/**
 * Removes a factor and ends every session of the account. Removing the last one turns MFA off
 * for the account (its backup codes go too); when an administrator does that, a mailbox user's
 * app passwords are revoked as well, as with mfa/disable (the owner removing its own keeps them).
 */
export async function removeDevice(
  ctx: MfaContext,
  admin: { id: number; email: string },
  deviceId: number,
  ip: string | null,
  opts: { byAdministrator: boolean } = { byAdministrator: false },
): Promise<void> {
  const last = await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteDeviceOf(trx, admin.id, deviceId))) throw notFound(`No device ${deviceId}`);
    const left = await activeFactorCount(trx, admin.id);
    if (left === 0) {
      await deleteBackupCodes(trx, admin.id);
      if (opts.byAdministrator) await revokeAccountAppPasswords(trx, admin.id);
    } else await ensurePrimary(trx, admin.id);
    await endAccountAccess(trx, [admin.id]);
    return left === 0;
  });
  const at = ctx.now();
  await recordActivity(ctx.db, {
    adminId: admin.id,
    email: admin.email,
    action: 'device_removed',
    ok: true,
    ip,
    at,
  });
  if (last)
    await recordActivity(ctx.db, {
      adminId: admin.id,
      email: admin.email,
      action: 'mfa_disable',
      ok: true,
      ip,
      at,
    });
}

/**
 * Every factor, backup code and trusted browser of the account goes; its sessions end, and a
 * mailbox user's app passwords are revoked (they were made while MFA guarded the account).
 */
export async function resetFactors(
  trx: Kysely<Database>,
  adminId: number,
  opts: { enrolRequired: boolean },
): Promise<void> {
  await deleteDevicesOf(trx, adminId);
  await deleteBackupCodes(trx, adminId);
  await deleteTrustedBrowsers(trx, adminId);
  await deleteChallengesOf(trx, adminId);
  await setEnrolRequired(trx, adminId, opts.enrolRequired);
  await endAccountAccess(trx, [adminId]);
  await revokeAccountAppPasswords(trx, adminId);
}

export async function setPrimary(ctx: MfaContext, adminId: number, deviceId: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await makePrimary(trx, adminId, deviceId))) throw notFound(`No device ${deviceId}`);
  });
}

export { activeFactorCount, toDevice };
