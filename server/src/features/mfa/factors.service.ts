import { randomBytes } from 'node:crypto';
import { BACKUP_CODES_PER_GENERATION, type MfaDevice } from '@mailroom/contract/mfa';
import type { Kysely, Selectable } from 'kysely';
import QRCode from 'qrcode';
import type { MfaDeviceTable } from '../../db/mfa.tables.ts';
import type { Database } from '../../db/schema.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { endAccountAccess, revokeAccountAppPasswords } from '../../http/account-access.repository.ts';
import { recordActivity } from './activity.repository.ts';
import { ensureAccountRow } from './lockout.ts';
import { iso, type MfaContext } from './mfa-context.ts';
import { matchStep, newTotpSecret, totpFor } from './totp.ts';

export const BACKUP_CODE_LIFETIME_MS = 365 * 86_400_000;

export function toDevice(r: Selectable<MfaDeviceTable>, email: string, trusted = false): MfaDevice {
  return {
    id: r.id,
    deviceName: r.device_name,
    deviceType: r.device_type as MfaDevice['deviceType'],
    status: r.status as MfaDevice['status'],
    createdAt: r.created_at,
    lastUsed: r.last_used,
    isPrimary: r.is_primary === 1,
    trustedDevice: trusted,
    userEmail: email,
  };
}

export async function activeFactorCount(db: Kysely<Database>, adminId: number): Promise<number> {
  const r = await db
    .selectFrom('mfa_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Enrolment step 1: a new secret on a pending device; the QR code carries the otpauth URL. */
export async function startTotp(ctx: MfaContext, admin: { id: number; email: string }, deviceName: string) {
  const secret = newTotpSecret();
  const url = totpFor(secret, admin.email).toString();
  const now = ctx.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    // An unfinished enrolment is replaced by the new one.
    await trx
      .deleteFrom('mfa_devices')
      .where('admin_id', '=', admin.id)
      .where('status', '=', 'pending')
      .execute();
    return trx
      .insertInto('mfa_devices')
      .values({
        admin_id: admin.id,
        device_name: deviceName,
        device_type: 'TOTP',
        status: 'pending',
        secret_enc: ctx.box.seal(secret),
        created_at: iso(now),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { deviceId: row.id, secret, otpauthUrl: url, qrSvg };
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
  const res = await ctx.db
    .updateTable('mfa_devices')
    .set({ last_step: step, last_used: iso(ctx.now()) })
    .where('id', '=', device.id)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Enrolment step 2: the first code proves the app holds the secret; the device becomes active. */
export async function confirmTotp(
  ctx: MfaContext,
  admin: { id: number; email: string; sessionId: number },
  deviceId: number,
  code: string,
  ip: string | null,
): Promise<MfaDevice> {
  const device = await ctx.db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('id', '=', deviceId)
    .where('admin_id', '=', admin.id)
    .where('device_type', '=', 'TOTP')
    .executeTakeFirst();
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
    await trx
      .updateTable('mfa_devices')
      .set({ status: 'active', is_primary: others === 0 ? 1 : 0 })
      .where('id', '=', deviceId)
      .execute();
    await trx
      .insertInto('mfa_accounts')
      .values({ admin_id: admin.id, enrol_required: 0 })
      .onConflict((oc) => oc.column('admin_id').doUpdateSet({ enrol_required: 0 }))
      .execute();
    // The session that enrolled is now a full one.
    await trx.updateTable('sessions').set({ scope: null }).where('id', '=', admin.sessionId).execute();
    return trx.selectFrom('mfa_devices').selectAll().where('id', '=', deviceId).executeTakeFirstOrThrow();
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
  const devices = await ctx.db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('device_type', '=', 'TOTP')
    .where('status', '=', 'active')
    .execute();
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
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mfa_backup_codes').where('admin_id', '=', adminId).execute();
    await trx
      .insertInto('mfa_backup_codes')
      .values(
        codes.map((c) => ({
          admin_id: adminId,
          code_hash: ctx.box.mac(normaliseCode(c)),
          hint: c.slice(-4),
          created_at: iso(now),
          expires_at: expiresAt,
        })),
      )
      .execute();
  });
  return { codes, expiresAt };
}

/** Uses a backup code: one statement marks it used only if it was unused and unexpired. */
export async function consumeBackupCode(ctx: MfaContext, adminId: number, code: string): Promise<boolean> {
  const now = iso(ctx.now());
  const res = await ctx.db
    .updateTable('mfa_backup_codes')
    .set({ used: 1, used_at: now })
    .where('admin_id', '=', adminId)
    .where('code_hash', '=', ctx.box.mac(normaliseCode(code)))
    .where('used', '=', 0)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function backupCodeCounts(db: Kysely<Database>, adminId: number, now: number) {
  const rows = await db
    .selectFrom('mfa_backup_codes')
    .select(['used', 'expires_at'])
    .where('admin_id', '=', adminId)
    .execute();
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
    const res = await trx
      .deleteFrom('mfa_devices')
      .where('id', '=', deviceId)
      .where('admin_id', '=', admin.id)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound(`No device ${deviceId}`);
    const left = await activeFactorCount(trx, admin.id);
    if (left === 0) {
      await trx.deleteFrom('mfa_backup_codes').where('admin_id', '=', admin.id).execute();
      if (opts.byAdministrator) await revokeAccountAppPasswords(trx, admin.id);
    } else {
      const primary = await trx
        .selectFrom('mfa_devices')
        .select('id')
        .where('admin_id', '=', admin.id)
        .where('is_primary', '=', 1)
        .executeTakeFirst();
      if (!primary) {
        const first = await trx
          .selectFrom('mfa_devices')
          .select('id')
          .where('admin_id', '=', admin.id)
          .where('status', '=', 'active')
          .orderBy('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('mfa_devices').set({ is_primary: 1 }).where('id', '=', first.id).execute();
      }
    }
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
  await trx.deleteFrom('mfa_devices').where('admin_id', '=', adminId).execute();
  await trx.deleteFrom('mfa_backup_codes').where('admin_id', '=', adminId).execute();
  await trx.deleteFrom('mfa_trusted_devices').where('admin_id', '=', adminId).execute();
  await trx.deleteFrom('mfa_challenges').where('admin_id', '=', adminId).execute();
  await trx
    .insertInto('mfa_accounts')
    .values({ admin_id: adminId, enrol_required: opts.enrolRequired ? 1 : 0 })
    .onConflict((oc) => oc.column('admin_id').doUpdateSet({ enrol_required: opts.enrolRequired ? 1 : 0 }))
    .execute();
  await endAccountAccess(trx, [adminId]);
  await revokeAccountAppPasswords(trx, adminId);
}

export async function setPrimary(ctx: MfaContext, adminId: number, deviceId: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const d = await trx
      .selectFrom('mfa_devices')
      .select('id')
      .where('id', '=', deviceId)
      .where('admin_id', '=', adminId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    if (!d) throw notFound(`No device ${deviceId}`);
    await trx.updateTable('mfa_devices').set({ is_primary: 0 }).where('admin_id', '=', adminId).execute();
    await trx.updateTable('mfa_devices').set({ is_primary: 1 }).where('id', '=', deviceId).execute();
  });
}

export { ensureAccountRow };
