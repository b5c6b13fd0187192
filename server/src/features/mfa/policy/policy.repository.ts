import type { MfaPolicy, POLICY_METHODS } from '@mailroom/contract/mfa';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { MfaPolicyTable } from '../../../db/mfa.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `mfa_policies` and its row -> contract mapping. */

type Db = Kysely<Database>;
type Method = (typeof POLICY_METHODS)[number];

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

/** The enabled policies (of these groups, or all when not given). */
export async function enabledPolicies(db: Db, groups?: string[]): Promise<MfaPolicy[]> {
  const rows = await db
    .selectFrom('mfa_policies')
    .selectAll()
    .where('enabled', '=', 1)
    .$if(groups !== undefined, (q) => q.where('applies_to', 'in', groups ?? []))
    .execute();
  return rows.map(toPolicy);
}

export async function allPolicies(db: Db): Promise<MfaPolicy[]> {
  return (await db.selectFrom('mfa_policies').selectAll().orderBy('name').execute()).map(toPolicy);
}

export async function policyNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('mfa_policies').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

type PolicyValues = Omit<Insertable<MfaPolicyTable>, 'id'>;

export async function insertPolicy(db: Db, v: PolicyValues): Promise<MfaPolicy> {
  return toPolicy(await db.insertInto('mfa_policies').values(v).returningAll().executeTakeFirstOrThrow());
}

/** The saved policy, or null when there is none of that id. */
export async function updatePolicyRow(db: Db, id: number, v: PolicyValues): Promise<MfaPolicy | null> {
  const row = await db
    .updateTable('mfa_policies')
    .set(v)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toPolicy(row) : null;
}

export async function deletePolicyRow(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('mfa_policies').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) !== 0;
}
