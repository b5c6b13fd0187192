import type {
  Lockout,
  MfaActivity,
  MfaDevice,
  MfaStats,
  MfaUser,
  RecoveryRequest,
} from '@mailroom/contract/mfa';
import { restrictToEnrolment } from '../../../http/account-access.repository.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import {
  accountByEmail,
  ensureMailboxAccount,
  mailboxByEmail,
} from '../../../http/sign-in-account.repository.ts';
import { lastActivityAt, latestActivity, loginCounts, recordActivity } from './activity.repository.ts';
import { backupCodeTotals, latestBackupCodes } from '../factors/backup-code.repository.ts';
import { removeDevice, resetFactors } from '../factors/factors.service.ts';
import { allLockouts, lockoutById, unlockAccount, unlockById } from '../sign-in/lockout.repository.ts';
import { clearFailures, setEnrolRequired } from '../account/mfa-account.repository.ts';
import { deviceOwner } from '../factors/mfa-device.repository.ts';
import {
  allRecoveryRequests,
  recoveryRequestById,
  resolveRecoveryRequest,
} from '../factors/recovery-request.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import { describePeople, listAllDevices, listPeople, nameOf } from './mfa-users.service.ts';

/** Every enrolled device (the Devices tab). */
export const listDevices = listAllDevices;

/** Everyone with their MFA state (the dashboard's report); the Users tab reads pages (listUserPage). */
export async function listUsers(ctx: MfaContext): Promise<MfaUser[]> {
  return describePeople(ctx, await listPeople(ctx), true);
}

export async function listActivity(ctx: MfaContext, limit = 50): Promise<MfaActivity[]> {
  const rows = await latestActivity(ctx.db, limit);
  return rows.map((r) => ({
    id: r.id,
    action: r.action as MfaActivity['action'],
    status: r.status as MfaActivity['status'],
    userEmail: r.user_email,
    timestamp: r.at,
    ipAddress: r.ip,
  }));
}

export async function stats(ctx: MfaContext, users: MfaUser[], devices: MfaDevice[]): Promise<MfaStats> {
  const codes = await backupCodeTotals(ctx.db);
  const { ok, failed: bad } = await loginCounts(ctx.db);
  const last = await lastActivityAt(ctx.db);
  const enabled = users.filter((u) => u.mfaEnabled).length;
  const rate = (n: number) => (ok + bad === 0 ? null : Math.round((n / (ok + bad)) * 1000) / 10);
  return {
    totalUsers: users.length,
    mfaEnabledUsers: enabled,
    mfaDisabledUsers: users.length - enabled,
    totalMfaDevices: devices.length,
    activeMfaDevices: devices.filter((d) => d.status === 'active').length,
    backupCodesGenerated: codes.generated,
    backupCodesUsed: codes.used,
    lastMfaActivity: last,
    mfaSuccessRate: rate(ok),
    mfaFailureRate: rate(bad),
  };
}

async function adminByEmail(ctx: MfaContext, email: string) {
  const e = email.trim().toLowerCase();
  const a = await accountByEmail(ctx.db, e);
  if (a) return a;
  // A mailbox user who never signed in: its account row is made now (to require enrolment, say).
  const m = await mailboxByEmail(ctx.db, e);
  if (!m) throw notFound(`No account ${email}`);
  return { id: await ensureMailboxAccount(ctx.db, m), email: m.email };
}

/**
 * Enable: the account must enrol a factor at its next sign-in, and the sessions it already has
 * (without a factor) reach only their own enrolment calls from their next request on.
 */
export async function enableFor(ctx: MfaContext, email: string): Promise<void> {
  const a = await adminByEmail(ctx, email);
  await ctx.db.transaction().execute(async (trx) => {
    await setEnrolRequired(trx, a.id, true);
    await restrictToEnrolment(trx, [a.id]);
  });
}

/** Disable: every factor and backup code of the account goes and its sessions end. */
export async function disableFor(ctx: MfaContext, email: string, ip: string | null): Promise<void> {
  const a = await adminByEmail(ctx, email);
  await ctx.db.transaction().execute((trx) => resetFactors(trx, a.id, { enrolRequired: false }));
  await recordActivity(ctx.db, {
    adminId: a.id,
    email: a.email,
    action: 'mfa_disable',
    ok: true,
    ip,
    at: ctx.now(),
  });
}

export async function revokeDeviceById(ctx: MfaContext, id: number, ip: string | null): Promise<string> {
  const d = await deviceOwner(ctx.db, id);
  if (!d) throw notFound(`No device ${id}`);
  await removeDevice(ctx, { id: d.admin_id, email: d.email }, id, ip, { byAdministrator: true });
  return d.email;
}

export async function listLockouts(ctx: MfaContext): Promise<Lockout[]> {
  const t = iso(ctx.now());
  const rows = await allLockouts(ctx.db);
  return rows.map((r) => ({
    id: r.id,
    userId: r.admin_id,
    userEmail: r.email,
    userName: nameOf(r.email),
    lockoutType: r.lockout_type,
    reason: r.reason,
    lockedAt: r.locked_at,
    expiresAt: r.expires_at,
    unlockedAt: r.unlocked_at,
    unlockedBy: r.unlocked_by,
    attempts: r.attempts,
    ipAddress: r.ip,
    status: r.unlocked_at ? 'unlocked' : r.expires_at <= t ? 'expired' : 'active',
  }));
}

export async function unlock(ctx: MfaContext, id: number, by: string): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockoutById(trx, id);
    if (!row) throw notFound(`No lockout ${id}`);
    if (row.unlocked_at || row.expires_at <= iso(ctx.now()))
      throw conflict('The lockout is no longer active');
    await unlockById(trx, id, iso(ctx.now()), by);
    await clearFailures(trx, row.admin_id);
    return row.email;
  });
}

export async function listRecoveryRequests(ctx: MfaContext): Promise<RecoveryRequest[]> {
  return allRecoveryRequests(ctx.db);
}

/** Approve resets the account's factors and makes it enrol at its next sign-in; reject only closes it. */
export async function resolveRecovery(
  ctx: MfaContext,
  id: number,
  approve: boolean,
  by: string,
): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await recoveryRequestById(trx, id);
    if (!row) throw notFound(`No recovery request ${id}`);
    if (row.status !== 'pending') throw conflict(`The request is already ${row.status}`);
    if (!(await resolveRecoveryRequest(trx, id, approve ? 'approved' : 'rejected', iso(ctx.now()), by)))
      throw conflict('The request was resolved meanwhile');
    if (approve) {
      await resetFactors(trx, row.admin_id, { enrolRequired: true });
      await unlockAccount(trx, row.admin_id, iso(ctx.now()), by);
    }
    return row.email;
  });
}

export async function listBackupCodeRows(ctx: MfaContext) {
  const rows = await latestBackupCodes(ctx.db);
  return rows.map((r) => ({
    id: r.id,
    userId: r.admin_id,
    userEmail: r.email,
    code: `•••••-•${r.hint}`,
    used: r.used === 1,
    usedAt: r.used_at,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
}
