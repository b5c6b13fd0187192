import {
  ADMINS_GROUP,
  DOMAIN_ADMINS_GROUP,
  DOMAIN_GROUP_PREFIX,
  POLICY_METHODS,
  type MfaPolicy,
  type MfaPolicyInput,
  MfaPolicyInput as PolicySchema,
} from '@mailroom/contract/mfa';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { restrictToEnrolment, signedInWithoutFactor } from '../../../http/account-access.repository.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import { accountWithMailbox, accountsByIds } from '../../../http/sign-in-account.repository.ts';
import { adminDomains, allAdminDomains, consoleAdmins } from '../../auth/auth.public.ts';
import { enrolRequired } from '../account/mfa-account.repository.ts';
import {
  allPolicies,
  deletePolicyRow,
  enabledPolicies,
  insertPolicy,
  policyNameTaken,
  updatePolicyRow,
} from './policy.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';

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
  const a = await accountWithMailbox(db, adminId);
  if (!a) return null;
  if (a.mailbox_id !== null)
    return { role: a.role, mailboxDomain: a.domain ?? domainOf(a.email), domains: [] };
  const domains = a.role === 'domain-admin' ? await adminDomains(db, adminId) : [];
  return { role: a.role, mailboxDomain: null, domains };
}

/** What the enabled policies covering the account (its groups, see policyGroups) ask of it. */
export async function effectivePolicy(db: Kysely<Database>, adminId: number): Promise<EffectivePolicy> {
  const subject = await subjectOf(db, adminId);
  if (!subject) return combinePolicies([]);
  return combinePolicies(await enabledPolicies(db, policyGroups(subject)));
}

/**
 * For lists of many accounts: the enabled policies, console roles and domain assignments are read
 * once, then each account's policy is resolved without a query. A mailbox user (mailbox_id set,
 * or not signed in yet) belongs to the domain of its address.
 */
export async function policyResolver(
  db: Kysely<Database>,
): Promise<(a: { id: number; email: string; mailbox_id: number | null }) => EffectivePolicy> {
  const policies = await enabledPolicies(db);
  const consoles = new Map((await consoleAdmins(db)).map((r) => [r.id, r.role]));
  const assigned = new Map<number, string[]>();
  for (const r of await allAdminDomains(db))
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
  return allPolicies(db);
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
  if (await policyNameTaken(db, name, exceptId)) throw conflict(`A policy named ${name} already exists`);
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
    const accounts = await accountsByIds(db, signedIn.slice(i, i + 500));
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
  if (!(await enrolRequired(db, adminId)) && !(await effectivePolicy(db, adminId)).requireMfa) return;
  await restrictToEnrolment(db, [adminId]);
}

export async function createPolicy(ctx: MfaContext, input: MfaPolicyInput): Promise<MfaPolicy> {
  const v = values(input, ctx.now());
  return ctx.db.transaction().execute(async (trx) => {
    await nameTaken(trx, v.name);
    const row = await insertPolicy(trx, v);
    if (row.requireMfa && row.enabled) await applyRequiredMfa(trx);
    return row;
  });
}

export async function updatePolicy(ctx: MfaContext, id: number, input: MfaPolicyInput): Promise<MfaPolicy> {
  const v = values(input, ctx.now());
  return ctx.db.transaction().execute(async (trx) => {
    await nameTaken(trx, v.name, id);
    const row = await updatePolicyRow(trx, id, v);
    if (!row) throw notFound(`No policy ${id}`);
    if (row.requireMfa && row.enabled) await applyRequiredMfa(trx);
    return row;
  });
}

export async function deletePolicy(db: Kysely<Database>, id: number): Promise<void> {
  if (!(await deletePolicyRow(db, id))) throw notFound(`No policy ${id}`);
}
