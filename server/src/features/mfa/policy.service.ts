import {
  ADMINS_GROUP,
  DOMAIN_ADMINS_GROUP,
  DOMAIN_GROUP_PREFIX,
  POLICY_METHODS,
  type MfaPolicy,
  type MfaPolicyInput,
  MfaPolicyInput as PolicySchema,
} from '@mailroom/contract/mfa';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MfaPolicyTable } from '../../db/mfa.tables.ts';
import { restrictToEnrolment, signedInWithoutFactor } from '../../http/account-access.repository.ts';
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

/** No policy covers the account: MFA optional, every method, the configured session length. */
const NO_POLICY: EffectivePolicy = {
  requireMfa: false,
  allowedMethods: [...POLICY_METHODS],
  backupCodesEnabled: true,
  backupCodesCount: 10,
  sessionTimeoutMs: null,
  trustedDevicesEnabled: false,
  trustedDeviceExpiryMs: 0,
};

/**
 * Several policies combine to the strictest: MFA required if any requires it, methods every one
 * allows, the shortest timeout and expiry, backup codes and trusted devices only if every one
 * allows them, the fewest backup codes.
 */
export function combinePolicies(rows: MfaPolicy[]): EffectivePolicy {
  if (rows.length === 0) return { ...NO_POLICY, allowedMethods: [...NO_POLICY.allowedMethods] };
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

/** What decides which policies cover an account. */
export interface PolicySubject {
  /** admins.role: 'admin' | 'domain-admin'. */
  role: string;
  /** A mailbox user's domain; null for a console account. */
  mailboxDomain: string | null;
  /** A domain administrator's assigned domains. */
  domains: string[];
}

/**
 * The policy groups (MfaPolicy.appliesTo values) an account belongs to: every console account is
 * in 'admins' ("All administrators"); a domain administrator also in 'domain-admins' and in
 * 'domain:<d>' for each assigned domain; a mailbox user only in 'domain:<its mailbox's domain>'.
 */
export function policyGroups(a: PolicySubject): string[] {
  if (a.mailboxDomain !== null) return [`${DOMAIN_GROUP_PREFIX}${a.mailboxDomain.toLowerCase()}`];
  if (a.role === 'domain-admin')
    return [
      ADMINS_GROUP,
      DOMAIN_ADMINS_GROUP,
      ...a.domains.map((d) => `${DOMAIN_GROUP_PREFIX}${d.toLowerCase()}`),
    ];
  return [ADMINS_GROUP];
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

async function subjectOf(db: Kysely<Database>, adminId: number): Promise<PolicySubject | null> {
  const a = await db
    .selectFrom('admins')
    .leftJoin('mailboxes', 'mailboxes.id', 'admins.mailbox_id')
    .select(['admins.email', 'admins.role', 'admins.mailbox_id', 'mailboxes.domain'])
    .where('admins.id', '=', adminId)
    .executeTakeFirst();
  if (!a) return null;
  if (a.mailbox_id !== null)
    return { role: a.role, mailboxDomain: a.domain ?? domainOf(a.email), domains: [] };
  const domains =
    a.role === 'domain-admin'
      ? (await db.selectFrom('admin_domains').select('domain').where('admin_id', '=', adminId).execute()).map(
          (r) => r.domain,
        )
      : [];
  return { role: a.role, mailboxDomain: null, domains };
}

/** What the enabled policies covering the account (its groups, see policyGroups) ask of it. */
export async function effectivePolicy(db: Kysely<Database>, adminId: number): Promise<EffectivePolicy> {
  const subject = await subjectOf(db, adminId);
  if (!subject) return combinePolicies([]);
  const rows = await db
    .selectFrom('mfa_policies')
    .selectAll()
    .where('enabled', '=', 1)
    .where('applies_to', 'in', policyGroups(subject))
    .execute();
  return combinePolicies(rows.map(toPolicy));
}

/**
 * For lists of many accounts: the enabled policies, console roles and domain assignments are read
 * once, then each account's policy is resolved without a query. A mailbox user (mailbox_id set,
 * or not signed in yet) belongs to the domain of its address.
 */
export async function policyResolver(
  db: Kysely<Database>,
): Promise<(a: { id: number; email: string; mailbox_id: number | null }) => EffectivePolicy> {
  const policies = (await db.selectFrom('mfa_policies').selectAll().where('enabled', '=', 1).execute()).map(
    toPolicy,
  );
  const consoles = new Map(
    (await db.selectFrom('admins').select(['id', 'role']).where('mailbox_id', 'is', null).execute()).map(
      (r) => [r.id, r.role],
    ),
  );
  const assigned = new Map<number, string[]>();
  for (const r of await db.selectFrom('admin_domains').select(['admin_id', 'domain']).execute())
    assigned.set(r.admin_id, [...(assigned.get(r.admin_id) ?? []), r.domain]);
  const cache = new Map<string, EffectivePolicy>();
  return (a) => {
    const role = a.mailbox_id === null ? consoles.get(a.id) : undefined;
    const groups =
      a.mailbox_id !== null || role === undefined
        ? policyGroups({ role: 'user', mailboxDomain: domainOf(a.email), domains: [] })
        : policyGroups({ role, mailboxDomain: null, domains: assigned.get(a.id) ?? [] });
    const key = groups.join(' ');
    let p = cache.get(key);
    if (!p) {
      p = combinePolicies(policies.filter((x) => groups.includes(x.appliesTo)));
      cache.set(key, p);
    }
    return p;
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

/**
 * A policy that now requires MFA reaches the accounts it covers that are signed in without a
 * factor: their sessions are limited to enrolment from their next request (as a sign-in under the
 * policy would be), in the transaction that saves the policy. Answers how many sessions changed.
 */
export async function applyRequiredMfa(db: Kysely<Database>): Promise<number> {
  const signedIn = await signedInWithoutFactor(db);
  if (!signedIn.length) return 0;
  const resolve = await policyResolver(db);
  let changed = 0;
  for (let i = 0; i < signedIn.length; i += 500) {
    const accounts = await db
      .selectFrom('admins')
      .select(['id', 'email', 'mailbox_id'])
      .where('id', 'in', signedIn.slice(i, i + 500))
      .execute();
    changed += await restrictToEnrolment(
      db,
      accounts.filter((a) => resolve(a).requireMfa).map((a) => a.id),
    );
  }
  return changed;
}

/**
 * One account: without an active factor, and with MFA required (a policy or mfa/enable), its
 * sessions are limited to enrolment.
 */
export async function enforceEnrolment(db: Kysely<Database>, adminId: number): Promise<void> {
  const acct = await db
    .selectFrom('mfa_accounts')
    .select('enrol_required')
    .where('admin_id', '=', adminId)
    .executeTakeFirst();
  if (acct?.enrol_required !== 1 && !(await effectivePolicy(db, adminId)).requireMfa) return;
  await restrictToEnrolment(db, [adminId]);
}

export async function createPolicy(ctx: MfaContext, input: MfaPolicyInput): Promise<MfaPolicy> {
  const v = values(input, ctx.now());
  return ctx.db.transaction().execute(async (trx) => {
    await nameTaken(trx, v.name);
    const row = await trx.insertInto('mfa_policies').values(v).returningAll().executeTakeFirstOrThrow();
    if (row.require_mfa === 1 && row.enabled === 1) await applyRequiredMfa(trx);
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
    if (row.require_mfa === 1 && row.enabled === 1) await applyRequiredMfa(trx);
    return toPolicy(row);
  });
}

export async function deletePolicy(db: Kysely<Database>, id: number): Promise<void> {
  const res = await db.deleteFrom('mfa_policies').where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound(`No policy ${id}`);
}
