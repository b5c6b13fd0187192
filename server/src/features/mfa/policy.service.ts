import {
  POLICY_METHODS,
  type MfaPolicy,
  type MfaPolicyInput,
  MfaPolicyInput as PolicySchema,
} from '@mailroom/contract/mfa';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MfaPolicyTable } from '../../db/mfa.tables.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { iso, type MfaContext } from './mfa-context.ts';

type Method = (typeof POLICY_METHODS)[number];

/** What the enabled policies that cover an account ask of it at sign-in. */
export interface EffectivePolicy {
  requireMfa: boolean;
  allowedMethods: Method[];
  backupCodesEnabled: boolean;
  backupCodesCount: number;
  /** Session length in ms, or null for the configured default. */
  sessionTimeoutMs: number | null;
  trustedDevicesEnabled: boolean;
  trustedDeviceExpiryMs: number;
}

export function toPolicy(r: Selectable<MfaPolicyTable>): MfaPolicy {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    enabled: r.enabled === 1,
    requireMfa: r.require_mfa === 1,
    appliesTo: r.applies_to,
    allowedMethods: JSON.parse(r.allowed_methods) as Method[],
    backupCodesEnabled: r.backup_codes_enabled === 1,
    backupCodesCount: r.backup_codes_count,
    sessionTimeout: r.session_timeout,
    trustedDevicesEnabled: r.trusted_devices_enabled === 1,
    trustedDeviceExpiry: r.trusted_device_expiry,
    lastModified: r.last_modified,
  };
}

/**
 * Policies for console administrators are those that apply to 'admins'. Several policies combine
 * to the strictest: MFA required if any requires it, methods every one allows, the shortest
 * timeout and expiry, backup codes and trusted devices only if every one allows them.
 */
export async function effectivePolicy(db: Kysely<Database>, group = 'admins'): Promise<EffectivePolicy> {
  const rows = (
    await db
      .selectFrom('mfa_policies')
      .selectAll()
      .where('enabled', '=', 1)
      .where('applies_to', '=', group)
      .execute()
  ).map(toPolicy);
  if (rows.length === 0)
    return {
      requireMfa: false,
      allowedMethods: [...POLICY_METHODS],
      backupCodesEnabled: true,
      backupCodesCount: 10,
      sessionTimeoutMs: null,
      trustedDevicesEnabled: false,
      trustedDeviceExpiryMs: 0,
    };
  let methods = new Set<Method>(POLICY_METHODS);
  for (const p of rows) methods = new Set(p.allowedMethods.filter((m) => methods.has(m)));
  return {
    requireMfa: rows.some((p) => p.requireMfa),
    allowedMethods: POLICY_METHODS.filter((m) => methods.has(m)),
    backupCodesEnabled: rows.every((p) => p.backupCodesEnabled),
    backupCodesCount: Math.min(...rows.map((p) => p.backupCodesCount)),
    sessionTimeoutMs: Math.min(...rows.map((p) => p.sessionTimeout)) * 1000,
    trustedDevicesEnabled: rows.every((p) => p.trustedDevicesEnabled),
    trustedDeviceExpiryMs: Math.min(...rows.map((p) => p.trustedDeviceExpiry)) * 1000,
  };
}

export async function listPolicies(db: Kysely<Database>): Promise<MfaPolicy[]> {
  return (await db.selectFrom('mfa_policies').selectAll().orderBy('name').execute()).map(toPolicy);
}

function values(input: MfaPolicyInput, now: number) {
  const p = PolicySchema.parse(input);
  return {
    name: p.name,
    description: p.description,
    enabled: p.enabled ? 1 : 0,
    require_mfa: p.requireMfa ? 1 : 0,
    applies_to: p.appliesTo,
    allowed_methods: JSON.stringify(POLICY_METHODS.filter((m) => p.allowedMethods.includes(m))),
    backup_codes_enabled: p.backupCodesEnabled ? 1 : 0,
    backup_codes_count: p.backupCodesCount,
    session_timeout: p.sessionTimeout,
    trusted_devices_enabled: p.trustedDevicesEnabled ? 1 : 0,
    trusted_device_expiry: p.trustedDeviceExpiry,
    last_modified: iso(now),
  };
}

async function nameTaken(db: Kysely<Database>, name: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom('mfa_policies').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw conflict(`A policy named ${name} already exists`);
}

export async function createPolicy(ctx: MfaContext, input: MfaPolicyInput): Promise<MfaPolicy> {
  const v = values(input, ctx.now());
  return ctx.db.transaction().execute(async (trx) => {
    await nameTaken(trx, v.name);
    const row = await trx.insertInto('mfa_policies').values(v).returningAll().executeTakeFirstOrThrow();
    return toPolicy(row);
  });
}

export async function updatePolicy(ctx: MfaContext, id: number, input: MfaPolicyInput): Promise<MfaPolicy> {
  const v = values(input, ctx.now());
  return ctx.db.transaction().execute(async (trx) => {
    await nameTaken(trx, v.name, id);
    const row = await trx
      .updateTable('mfa_policies')
      .set(v)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound(`No policy ${id}`);
    return toPolicy(row);
  });
}

export async function deletePolicy(db: Kysely<Database>, id: number): Promise<void> {
  const res = await db.deleteFrom('mfa_policies').where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound(`No policy ${id}`);
}
