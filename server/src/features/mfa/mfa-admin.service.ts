import type {
  Lockout,
  MfaActivity,
  MfaDevice,
  MfaStats,
  MfaUser,
  RecoveryRequest,
} from '@mailroom/contract/mfa';
import { restrictToEnrolment } from '../../http/account-access.repository.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { recordActivity } from './activity.repository.ts';
import { removeDevice, resetFactors } from './factors.service.ts';
import { ensureMailboxAccount } from '../../http/sign-in-account.repository.ts';
import { iso, type MfaContext } from './mfa-context.ts';
import { describePeople, listAllDevices, listPeople, nameOf } from './mfa-users.service.ts';

/** Every enrolled device (the Devices tab). */
export const listDevices = listAllDevices;

/** Everyone with their MFA state (the dashboard's report); the Users tab reads pages (listUserPage). */
export async function listUsers(ctx: MfaContext): Promise<MfaUser[]> {
  return describePeople(ctx, await listPeople(ctx), true);
}

export async function listActivity(ctx: MfaContext, limit = 50): Promise<MfaActivity[]> {
  const rows = await ctx.db
    .selectFrom('mfa_activity')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
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
  const codes = await ctx.db
    .selectFrom('mfa_backup_codes')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('used').as('used')])
    .executeTakeFirst();
  const logins = await ctx.db
    .selectFrom('mfa_activity')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('action', '=', 'mfa_login')
    .groupBy('status')
    .execute();
  const ok = Number(logins.find((l) => l.status === 'success')?.n ?? 0);
  const bad = Number(logins.find((l) => l.status === 'failed')?.n ?? 0);
  const last = await ctx.db
    .selectFrom('mfa_activity')
    .select('at')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const enabled = users.filter((u) => u.mfaEnabled).length;
  const rate = (n: number) => (ok + bad === 0 ? null : Math.round((n / (ok + bad)) * 1000) / 10);
  return {
    totalUsers: users.length,
    mfaEnabledUsers: enabled,
    mfaDisabledUsers: users.length - enabled,
    totalMfaDevices: devices.length,
    activeMfaDevices: devices.filter((d) => d.status === 'active').length,
    backupCodesGenerated: Number(codes?.n ?? 0),
    backupCodesUsed: Number(codes?.used ?? 0),
    lastMfaActivity: last?.at ?? null,
    mfaSuccessRate: rate(ok),
    mfaFailureRate: rate(bad),
  };
}

async function adminByEmail(ctx: MfaContext, email: string) {
  const e = email.trim().toLowerCase();
  const a = await ctx.db
    .selectFrom('admins')
    .select(['id', 'email'])
    .where('email', '=', e)
    .executeTakeFirst();
  if (a) return a;
  // A mailbox user who never signed in: its account row is made now (to require enrolment, say).
  const m = await ctx.db
    .selectFrom('mailboxes')
    .select(['id', 'email'])
    .where('email', '=', e)
    .executeTakeFirst();
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
    await trx
      .insertInto('mfa_accounts')
      .values({ admin_id: a.id, enrol_required: 1 })
      .onConflict((oc) => oc.column('admin_id').doUpdateSet({ enrol_required: 1 }))
      .execute();
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
  const d = await ctx.db
    .selectFrom('mfa_devices')
    .innerJoin('admins', 'admins.id', 'mfa_devices.admin_id')
    .select(['mfa_devices.admin_id', 'admins.email'])
    .where('mfa_devices.id', '=', id)
    .executeTakeFirst();
  if (!d) throw notFound(`No device ${id}`);
  await removeDevice(ctx, { id: d.admin_id, email: d.email }, id, ip, { byAdministrator: true });
  return d.email;
}

export async function listLockouts(ctx: MfaContext): Promise<Lockout[]> {
  const t = iso(ctx.now());
  const rows = await ctx.db
    .selectFrom('mfa_lockouts')
    .innerJoin('admins', 'admins.id', 'mfa_lockouts.admin_id')
    .selectAll('mfa_lockouts')
    .select('admins.email')
    .orderBy('mfa_lockouts.id', 'desc')
    .execute();
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
    const row = await trx
      .selectFrom('mfa_lockouts')
      .innerJoin('admins', 'admins.id', 'mfa_lockouts.admin_id')
      .select([
        'mfa_lockouts.unlocked_at',
        'mfa_lockouts.expires_at',
        'mfa_lockouts.admin_id',
        'admins.email',
      ])
      .where('mfa_lockouts.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`No lockout ${id}`);
    if (row.unlocked_at || row.expires_at <= iso(ctx.now()))
      throw conflict('The lockout is no longer active');
    await trx
      .updateTable('mfa_lockouts')
      .set({ unlocked_at: iso(ctx.now()), unlocked_by: by })
      .where('id', '=', id)
      .execute();
    await trx
      .updateTable('mfa_accounts')
      .set({ failed_attempts: 0 })
      .where('admin_id', '=', row.admin_id)
      .execute();
    return row.email;
  });
}

export async function listRecoveryRequests(ctx: MfaContext): Promise<RecoveryRequest[]> {
  const rows = await ctx.db
    .selectFrom('mfa_recovery_requests')
    .innerJoin('admins', 'admins.id', 'mfa_recovery_requests.admin_id')
    .selectAll('mfa_recovery_requests')
    .select('admins.email')
    .orderBy('mfa_recovery_requests.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.admin_id,
    userEmail: r.email,
    userName: nameOf(r.email),
    requestType: r.request_type,
    status: r.status as RecoveryRequest['status'],
    requestedAt: r.requested_at,
    resolvedAt: r.resolved_at,
    resolvedBy: r.resolved_by,
    reason: r.reason,
    details: r.details,
    ipAddress: r.ip,
    userAgent: r.user_agent,
  }));
}

/** Approve resets the account's factors and makes it enrol at its next sign-in; reject only closes it. */
export async function resolveRecovery(
  ctx: MfaContext,
  id: number,
  approve: boolean,
  by: string,
): Promise<string> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('mfa_recovery_requests')
      .innerJoin('admins', 'admins.id', 'mfa_recovery_requests.admin_id')
      .select(['mfa_recovery_requests.status', 'mfa_recovery_requests.admin_id', 'admins.email'])
      .where('mfa_recovery_requests.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`No recovery request ${id}`);
    if (row.status !== 'pending') throw conflict(`The request is already ${row.status}`);
    const res = await trx
      .updateTable('mfa_recovery_requests')
      .set({ status: approve ? 'approved' : 'rejected', resolved_at: iso(ctx.now()), resolved_by: by })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict('The request was resolved meanwhile');
    if (approve) {
      await resetFactors(trx, row.admin_id, { enrolRequired: true });
      await trx
        .updateTable('mfa_lockouts')
        .set({ unlocked_at: iso(ctx.now()), unlocked_by: by })
        .where('admin_id', '=', row.admin_id)
        .where('unlocked_at', 'is', null)
        .execute();
    }
    return row.email;
  });
}

export async function listBackupCodeRows(ctx: MfaContext) {
  const rows = await ctx.db
    .selectFrom('mfa_backup_codes')
    .innerJoin('admins', 'admins.id', 'mfa_backup_codes.admin_id')
    .selectAll('mfa_backup_codes')
    .select('admins.email')
    .orderBy('mfa_backup_codes.id', 'desc')
    .limit(500)
    .execute();
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
