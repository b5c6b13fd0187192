import {
  MFA_USERS_DEFAULT_LIMIT,
  type MfaDevice,
  type MfaUser,
  type MfaUserListQuery,
} from '@mailroom/contract/mfa';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';
import { keysetPage } from '../../../db/keyset.ts';
import { everyoneWhoSignsIn } from '../../../http/sign-in-account.repository.ts';
import { lastActivityByAccount } from './activity.repository.ts';
import { backupCodeStates } from '../factors/backup-code.repository.ts';
import { lockedAccounts } from '../sign-in/lockout.repository.ts';
import { mfaAccountsOf } from '../account/mfa-account.repository.ts';
import { enrolledDevices, toDevice } from '../factors/mfa-device.repository.ts';
import {
  type SortKey,
  type UserRow,
  userListTotal,
  userRowsAtOffset,
  userRowsFromCursor,
} from './mfa-user.repository.ts';
import { nameOf } from '../factors/recovery-request.repository.ts';
import { accountsWithTrustedBrowser } from '../sign-in/trusted-device.repository.ts';
import { iso, type MfaContext } from '../mfa.context.ts';
import { policyResolver } from '../policy/policy.service.ts';

/** One row of the users list before its MFA state is read: an account, or a mailbox without one. */
export interface Person {
  /** The account's id; −mailbox id for a mailbox user who never signed in. */
  id: number;
  email: string;
  mailbox_id: number | null;
}

export { nameOf };

/** Active (and revoked) devices of these accounts, with whether each account has a trusted device. */
async function devicesOf(ctx: MfaContext, ids: number[] | null): Promise<MfaDevice[]> {
  if (ids !== null && !ids.length) return [];
  const rows = await enrolledDevices(ctx.db, ids);
  const trusted = await accountsWithTrustedBrowser(ctx.db, ids, ctx.now());
  return rows.map((r) => toDevice(r, r.email, trusted.has(r.admin_id)));
}

/** Every enrolled device (the Devices tab). */
export const listAllDevices = (ctx: MfaContext): Promise<MfaDevice[]> => devicesOf(ctx, null);

/**
 * The MFA state of these people (devices, backup codes, lock, last sign-in), read for their ids
 * only (a page of 100 costs the same at 100 or 100,000 accounts), or whole for everyone.
 */
export async function describePeople(
  ctx: MfaContext,
  people: Person[],
  /** Everyone is asked for (the dashboard's report): read whole tables, not an IN list of ids. */
  everyone = false,
): Promise<MfaUser[]> {
  const t = iso(ctx.now());
  // Only accounts have MFA rows (a mailbox user without an account has a negative id).
  const ids = people.map((p) => p.id).filter((id) => id > 0);
  const scope = everyone ? null : ids;
  const none = !everyone && !ids.length;
  const some = <T>(run: () => Promise<T[]>): Promise<T[]> => (none ? Promise.resolve([]) : run());
  const devices = await devicesOf(ctx, scope);
  const accounts = await some(() => mfaAccountsOf(ctx.db, scope));
  const codes = await some(() => backupCodeStates(ctx.db, scope));
  const locked = none ? new Set<number>() : await lockedAccounts(ctx.db, scope, t);
  const lastActs = await some(() => lastActivityByAccount(ctx.db, scope));
  const policyOf = await policyResolver(ctx.db);
  // Looked up by account, so the whole list (the dashboard's) is one pass, not people × rows.
  const group = <T, K>(rows: T[], key: (r: T) => K) => {
    const m = new Map<K, T[]>();
    for (const r of rows) {
      const list = m.get(key(r));
      if (list) list.push(r);
      else m.set(key(r), [r]);
    }
    return m;
  };
  const activeByEmail = group(
    devices.filter((d) => d.status === 'active'),
    (d) => d.userEmail,
  );
  const accountOf = new Map(accounts.map((x) => [x.admin_id, x]));
  const codesOf = group(codes, (c) => c.admin_id);
  const lastOf = new Map(lastActs.map((x) => [x.admin_id, x.at]));
  return people.map((a) => {
    const mine = activeByEmail.get(a.email) ?? [];
    const acct = accountOf.get(a.id);
    const myCodes = codesOf.get(a.id) ?? [];
    const backupCodes = {
      available: myCodes.filter((c) => c.used === 0 && c.expires_at > t).length,
      used: myCodes.filter((c) => c.used === 1).length,
      expired: myCodes.filter((c) => c.used === 0 && c.expires_at <= t).length,
    };
    const primary = mine.find((d) => d.isPrimary) ?? mine[0];
    const enabled = mine.length > 0;
    const mustEnrol = !enabled && (policyOf(a).requireMfa || acct?.enrol_required === 1);
    const last = lastOf.get(a.id);
    return {
      id: a.id,
      email: a.email,
      name: nameOf(a.email),
      mfaEnabled: enabled,
      mfaMethod: primary?.deviceType ?? null,
      mfaDevices: mine,
      mfaDevicesCount: mine.length,
      backupCodes,
      backupCodesCount: backupCodes.available,
      lastMfaLogin: acct?.last_mfa_login ?? null,
      status: locked.has(a.id) ? 'locked' : mustEnrol ? 'enrolment required' : 'active',
      lastActivity: last == null ? null : String(last),
      kind: a.mailbox_id === null ? ('console' as const) : ('mailbox' as const),
    };
  });
}

/** Everyone: console accounts, mailbox accounts, and mailboxes that never signed in. */
export async function listPeople(ctx: MfaContext): Promise<Person[]> {
  return everyoneWhoSignsIn(ctx.db);
}

/** The key values of a row in the list's order (sort value, address, id). */
const keysOf = (key: SortKey, r: { id: number; email: string; k: string }): KeyValue[] =>
  key === 'lastMfaLogin' ? [r.k, r.email, Number(r.id)] : [r.email, Number(r.id)];

/**
 * A page of the users list: console accounts and mailbox users, prefix search on the address,
 * sorted on the server, by offset or by a keyset cursor (X-Next-Cursor / X-Prev-Cursor), each
 * half read on its own index and merged, then only the page's accounts' MFA state is read.
 */
export async function listUserPage(ctx: MfaContext, query: MfaUserListQuery): Promise<CursorPage<MfaUser>> {
  refuseCursorWithOffset(query);
  const sort = query.sort ?? 'email';
  const key = sort.replace(/^-/, '') as SortKey;
  const desc = sort.startsWith('-');
  const limit = query.limit ?? MFA_USERS_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const total = await userListTotal(ctx.db, key, desc, query);
  let rows: UserRow[];
  let has: { next: boolean; prev: boolean };
  if (query.cursor !== undefined) {
    const kinds =
      key === 'lastMfaLogin' ? (['string', 'string', 'number'] as const) : (['string', 'number'] as const);
    const cursor = decodeCursor(query.cursor, sort, kinds);
    const before = cursor.dir === 'before';
    const read = await userRowsFromCursor(ctx.db, key, desc, query, { keys: cursor.keys, before }, limit);
    const page = keysetPage(read, limit, before);
    rows = page.rows;
    has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
  } else {
    rows = await userRowsAtOffset(ctx.db, key, desc, query, offset, limit);
    has = { next: offset + rows.length < total, prev: offset > 0 };
  }
  const people = rows.map((r) => ({
    id: Number(r.id),
    email: r.email,
    mailbox_id: r.mailbox_id === null ? null : Number(r.mailbox_id),
  }));
  return {
    items: await describePeople(ctx, people),
    total,
    ...neighbourCursors(
      sort,
      rows.map((r) => keysOf(key, { id: Number(r.id), email: r.email, k: String(r.k) })),
      has,
    ),
  };
}
