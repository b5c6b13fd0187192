import {
  MFA_USERS_DEFAULT_LIMIT,
  type MfaDevice,
  type MfaUser,
  type MfaUserListQuery,
} from '@mailroom/contract/mfa';
import { type RawBuilder, sql } from 'kysely';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../http/cursor.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../db/keyset.ts';
import { toDevice } from './factors.service.ts';
import { iso, type MfaContext } from './mfa-context.ts';
import { policyResolver } from './policy.service.ts';

/** One row of the users list before its MFA state is read: an account, or a mailbox without one. */
export interface Person {
  /** The account's id; −mailbox id for a mailbox user who never signed in. */
  id: number;
  email: string;
  mailbox_id: number | null;
}

/** The spec's user "name": the address's local part. */
export const nameOf = (email: string) => email.split('@')[0] ?? email;

/** Active (and revoked) devices of these accounts, with whether each account has a trusted device. */
async function devicesOf(ctx: MfaContext, ids: number[] | null): Promise<MfaDevice[]> {
  if (ids !== null && !ids.length) return [];
  let q = ctx.db
    .selectFrom('mfa_devices')
    .innerJoin('admins', 'admins.id', 'mfa_devices.admin_id')
    .selectAll('mfa_devices')
    .select('admins.email')
    .where('mfa_devices.status', '!=', 'pending');
  if (ids !== null) q = q.where('mfa_devices.admin_id', 'in', ids);
  const rows = await q.orderBy('mfa_devices.id').execute();
  let trustedQ = ctx.db
    .selectFrom('mfa_trusted_devices')
    .select('admin_id')
    .where('expires_at', '>', ctx.now());
  if (ids !== null) trustedQ = trustedQ.where('admin_id', 'in', ids);
  const trusted = new Set((await trustedQ.execute()).map((r) => r.admin_id));
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
  const only = scope !== null;
  const devices = await devicesOf(ctx, scope);
  const accounts = await some(() =>
    ctx.db
      .selectFrom('mfa_accounts')
      .selectAll()
      .$if(only, (q) => q.where('admin_id', 'in', ids))
      .execute(),
  );
  const codes = await some(() =>
    ctx.db
      .selectFrom('mfa_backup_codes')
      .select(['admin_id', 'used', 'expires_at'])
      .$if(only, (q) => q.where('admin_id', 'in', ids))
      .execute(),
  );
  const locks = await some(() =>
    ctx.db
      .selectFrom('mfa_lockouts')
      .select('admin_id')
      .where('unlocked_at', 'is', null)
      .where('expires_at', '>', t)
      .$if(only, (q) => q.where('admin_id', 'in', ids))
      .execute(),
  );
  const lastActs = await some(() =>
    ctx.db
      .selectFrom('mfa_activity')
      .select(['admin_id', (eb) => eb.fn.max('at').as('at')])
      .$if(only, (q) => q.where('admin_id', 'in', ids))
      .groupBy('admin_id')
      .execute(),
  );
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
  const locked = new Set(locks.map((l) => l.admin_id));
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
  const admins = await ctx.db.selectFrom('admins').select(['id', 'email', 'mailbox_id']).execute();
  const mailboxes = await ctx.db
    .selectFrom('mailboxes')
    .select(['id', 'email'])
    .where(sql<boolean>`not exists (select 1 from admins a where a.mailbox_id = mailboxes.id)`)
    .execute();
  return [...admins, ...mailboxes.map((m) => ({ id: -m.id, email: m.email, mailbox_id: m.id }))].sort(
    (x, y) => (x.email < y.email ? -1 : x.email > y.email ? 1 : x.id - y.id),
  );
}

/**
 * The two halves of the list, each read on its own indexes: accounts (admins) and mailboxes
 * without an account (their row id is −mailboxes.id). `key` is the sort value of a row.
 */
interface Branch {
  select: RawBuilder<unknown>;
  from: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  order: KeysetOrder;
}

/** MFA_USER_SORT_FIELDS without the direction. */
type SortKey = 'email' | 'lastMfaLogin';

function branches(key: SortKey, desc: boolean, query: MfaUserListQuery): [Branch, Branch] {
  const q = query.q?.trim().toLowerCase();
  // Prefix search on the address: an index range on both halves.
  const prefix = (col: RawBuilder<unknown>) =>
    q ? sql`and ${col} >= ${q} and ${col} < ${`${q}\u{10FFFF}`}` : sql``;
  const activeFactor = sql`exists (select 1 from mfa_devices d where d.admin_id = a.id and d.status = 'active')`;
  const mfaA =
    query.mfa === 'enabled'
      ? sql`and ${activeFactor}`
      : query.mfa === 'disabled'
        ? sql`and not ${activeFactor}`
        : sql``;
  // A mailbox without an account has no factor.
  const mfaM = query.mfa === 'enabled' ? sql`and 1 = 0` : sql``;
  const lastA = sql`coalesce(ma.last_mfa_login, '')`;
  // Never signed in: sorts as the empty string (PostgreSQL takes no bare literal in ORDER BY).
  const none = sql`cast('' as text)`;
  const admins: Branch = {
    select: sql`a.id as id, a.email as email, a.mailbox_id as mailbox_id, ${
      key === 'lastMfaLogin' ? lastA : sql`a.email`
    } as k`,
    from:
      key === 'lastMfaLogin' ? sql`admins a left join mfa_accounts ma on ma.admin_id = a.id` : sql`admins a`,
    where: sql`1 = 1 ${prefix(sql`a.email`)} ${mfaA}`,
    order: {
      keys: key === 'lastMfaLogin' ? [lastA, sql`a.email`, sql`a.id`] : [sql`a.email`, sql`a.id`],
      desc,
    },
  };
  const mailboxes: Branch = {
    select: sql`-m.id as id, m.email as email, m.id as mailbox_id, ${
      key === 'lastMfaLogin' ? none : sql`m.email`
    } as k`,
    from: sql`mailboxes m`,
    where: sql`not exists (select 1 from admins a2 where a2.mailbox_id = m.id) ${prefix(sql`m.email`)} ${mfaM}`,
    order: {
      keys: key === 'lastMfaLogin' ? [none, sql`m.email`, sql`-m.id`] : [sql`m.email`, sql`-m.id`],
      desc,
    },
  };
  return [admins, mailboxes];
}

/** The key values of a row in the list's order (sort value, address, id). */
const keysOf = (key: SortKey, r: { id: number; email: string; k: string }): KeyValue[] =>
  key === 'lastMfaLogin' ? [r.k, r.email, Number(r.id)] : [r.email, Number(r.id)];

type Row = { id: number; email: string; mailbox_id: number | null; k: string };

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
  const [a, m] = branches(key, desc, query);
  const total = Number(
    (
      await sql<{ n: number }>`select (select count(*) from ${a.from} where ${a.where})
        + (select count(*) from ${m.from} where ${m.where}) as n`.execute(ctx.db)
    ).rows[0]?.n ?? 0,
  );
  // The merged order: sort value, address, id (unique), all in one direction.
  const merged: KeysetOrder = {
    keys: key === 'lastMfaLogin' ? [sql`f.k`, sql`f.email`, sql`f.id`] : [sql`f.email`, sql`f.id`],
    desc,
  };
  let rows: Row[];
  let has: { next: boolean; prev: boolean };
  if (query.cursor !== undefined) {
    const kinds =
      key === 'lastMfaLogin' ? (['string', 'string', 'number'] as const) : (['string', 'number'] as const);
    const cursor = decodeCursor(query.cursor, sort, kinds);
    const before = cursor.dir === 'before';
    const half = (b: Branch) => sql`select * from (select ${b.select} from ${b.from}
        where ${b.where} and ${keysetAfter(b.order, cursor.keys, before)}
        order by ${keysetOrderBy(b.order, before)} limit ${limit + 1}) h`;
    const read = await sql<Row>`select f.id, f.email, f.mailbox_id, f.k from (
        ${half(a)} union all ${half(m)}) f
      order by ${keysetOrderBy(merged, before)} limit ${limit + 1}`.execute(ctx.db);
    const page = keysetPage(read.rows, limit, before);
    rows = page.rows;
    has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
  } else {
    const upTo = offset + limit;
    const half = (b: Branch) => sql`select * from (select ${b.select} from ${b.from}
        where ${b.where} order by ${keysetOrderBy(b.order, false)} limit ${upTo}) h`;
    rows = (
      await sql<Row>`select f.id, f.email, f.mailbox_id, f.k from (${half(a)} union all ${half(m)}) f
        order by ${keysetOrderBy(merged, false)} limit ${limit} offset ${offset}`.execute(ctx.db)
    ).rows;
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
