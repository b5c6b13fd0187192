import type { MfaDevice } from '@mailroom/contract/mfa';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { MfaDeviceTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_devices` (TOTP apps and security keys) and its row -> contract mapping. */

type Db = Kysely<Database>;

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

/** An account's active factors (read by /api/account/mfa). */
export async function activeDevices(db: Db, adminId: number): Promise<Selectable<MfaDeviceTable>[]> {
  return db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
}

export async function activeFactorCount(db: Db, adminId: number): Promise<number> {
  const r = await db
    .selectFrom('mfa_devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** The types of the account's active factors. */
export async function activeFactorTypes(db: Db, adminId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('mfa_devices')
    .select('device_type')
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .execute();
  return new Set(rows.map((r) => r.device_type));
}

/** The account's active devices of one type. */
export async function activeDevicesOfType(
  db: Db,
  adminId: number,
  type: 'TOTP' | 'Hardware Token',
): Promise<Selectable<MfaDeviceTable>[]> {
  return db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('admin_id', '=', adminId)
    .where('device_type', '=', type)
    .where('status', '=', 'active')
    .execute();
}

export async function deletePendingDevices(db: Db, adminId: number): Promise<void> {
  await db
    .deleteFrom('mfa_devices')
    .where('admin_id', '=', adminId)
    .where('status', '=', 'pending')
    .execute();
}

export async function insertDevice(db: Db, row: Insertable<MfaDeviceTable>): Promise<number> {
  return (await db.insertInto('mfa_devices').values(row).returning('id').executeTakeFirstOrThrow()).id;
}

export async function deviceById(db: Db, id: number): Promise<Selectable<MfaDeviceTable>> {
  return db.selectFrom('mfa_devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** One of the account's TOTP devices. */
export async function totpDeviceOf(db: Db, adminId: number, id: number) {
  return db
    .selectFrom('mfa_devices')
    .selectAll()
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .where('device_type', '=', 'TOTP')
    .executeTakeFirst();
}

/** Stores a TOTP step with a compare-and-set: false when this step (or a later one) was used. */
export async function storeStep(db: Db, id: number, step: number, at: string): Promise<boolean> {
  const res = await db
    .updateTable('mfa_devices')
    .set({ last_step: step, last_used: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function activateDevice(db: Db, id: number, primary: boolean): Promise<void> {
  await db
    .updateTable('mfa_devices')
    .set({ status: 'active', is_primary: primary ? 1 : 0 })
    .where('id', '=', id)
    .execute();
}

export async function setSignCount(db: Db, id: number, count: number, at: string): Promise<void> {
  await db
    .updateTable('mfa_devices')
    .set({ sign_count: count, last_used: at })
    .where('id', '=', id)
    .execute();
}

/** Deletes one of the account's devices; false when it has none of that id. */
export async function deleteDeviceOf(db: Db, adminId: number, id: number): Promise<boolean> {
  const res = await db
    .deleteFrom('mfa_devices')
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  return Number(res.numDeletedRows) !== 0;
}

export async function deleteDevicesOf(db: Db, adminId: number): Promise<void> {
  await db.deleteFrom('mfa_devices').where('admin_id', '=', adminId).execute();
}

/** The account keeps a primary factor: its first active one becomes primary when none is. */
export async function ensurePrimary(db: Db, adminId: number): Promise<void> {
  const primary = await db
    .selectFrom('mfa_devices')
    .select('id')
    .where('admin_id', '=', adminId)
    .where('is_primary', '=', 1)
    .executeTakeFirst();
  if (primary) return;
  const first = await db
    .selectFrom('mfa_devices')
    .select('id')
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('mfa_devices').set({ is_primary: 1 }).where('id', '=', first.id).execute();
}

/** Makes one active device of the account its primary; false when it has no such device. */
export async function makePrimary(db: Db, adminId: number, id: number): Promise<boolean> {
  const d = await db
    .selectFrom('mfa_devices')
    .select('id')
    .where('id', '=', id)
    .where('admin_id', '=', adminId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (!d) return false;
  await db.updateTable('mfa_devices').set({ is_primary: 0 }).where('admin_id', '=', adminId).execute();
  await db.updateTable('mfa_devices').set({ is_primary: 1 }).where('id', '=', id).execute();
  return true;
}

/** Enrolled (not pending) devices of these accounts (null: all) with their accounts' addresses. */
export async function enrolledDevices(db: Db, ids: number[] | null) {
  return db
    .selectFrom('mfa_devices')
    .innerJoin('admins', 'admins.id', 'mfa_devices.admin_id')
    .selectAll('mfa_devices')
    .select('admins.email')
    .where('mfa_devices.status', '!=', 'pending')
    .$if(ids !== null, (q) => q.where('mfa_devices.admin_id', 'in', ids ?? []))
    .orderBy('mfa_devices.id')
    .execute();
}

/** A device's account and its address. */
export async function deviceOwner(db: Db, id: number) {
  return db
    .selectFrom('mfa_devices')
    .innerJoin('admins', 'admins.id', 'mfa_devices.admin_id')
    .select(['mfa_devices.admin_id', 'admins.email'])
    .where('mfa_devices.id', '=', id)
    .executeTakeFirst();
}
