import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { Mailbox, MailboxListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT, MB, mailMessages } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { andDomainIn } from '../../db/domain-scope.ts';
import type { Database } from '../../db/schema.ts';
import { endMailboxAccess } from '../../http/account-access.repository.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { listFolder, moveFolder, removeFolder } from '../../host/folders.ts';
import { addToCounters, countOutOfDomain, enterDomain, requireKnownDomain } from './domain.service.ts';
import { holdDomain, lockAddresses } from './mail-write-locks.ts';
import { ensureSystemAliases, isRequiredAddress } from './system-aliases.ts';
import {
  folderName,
  isHostedDomain,
  isUniqueViolation,
  maildirOf,
  prefixRange,
  splitAddress,
} from './mail-address.ts';
import type { MailCtx } from './mail-context.ts';
import { totalFromDomainCounters, totalWithStatus } from './list-totals.repository.ts';
import { pageWindow } from './page-window.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../http/cursor.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../db/keyset.ts';
import { MAIL_PATHS } from './mail-paths.ts';
import { readMailSettings } from './mail-settings.service.ts';

type Db = Kysely<Database>;

type Count = { n: number };

/** A page of a mail list with its total (and, for keyset paging, its neighbours' cursors). */
export type Page<T> = CursorPage<T>;

const SORTS = {
  email: sql`m.email`,
  domain: sql`m.domain`,
  quota: sql`m.quota`,
  used: sql`coalesce(u.bytes, 0)`,
  // A double on both databases, so a cursor carries the exact value the database compares.
  usage: sql`case when m.quota > 0 then cast(coalesce(u.bytes, 0) as double precision) / m.quota else 0 end`,
  status: sql`m.status`,
  createdAt: sql`m.created_at`,
} as const;

type SortKey = keyof typeof SORTS;
const NUMERIC_SORTS: ReadonlySet<SortKey> = new Set(['quota', 'used', 'usage']);

type MailboxRow = {
  email: string;
  domain: string;
  quota: number;
  status: string;
  created_at: string;
  used: number | null;
};

/** The key values of a row in the order of `key` (the sort value, then the unique address). */
function mailboxKeys(key: SortKey, r: MailboxRow): KeyValue[] {
  const quota = Number(r.quota);
  const used = Number(r.used ?? 0);
  switch (key) {
    case 'email':
      return [r.email];
    case 'domain':
      return [r.domain, r.email];
    case 'quota':
      return [quota, r.email];
    case 'used':
      return [used, r.email];
    case 'usage':
      return [quota > 0 ? used / quota : 0, r.email];
    case 'status':
      return [r.status, r.email];
    case 'createdAt':
      return [r.created_at, r.email];
  }
}

/**
 * A page of mailboxes; `q` matches the start of the address or of its domain.
 *
 * Two steps keep pages fast at 100k rows: the page's keys come from an index (each search branch
 * is an index range), then only those keys are joined to the usage table. The unfiltered total
 * comes from the domains' counters. With a `cursor` the keys are read from that position on
 * (keyset paging); the answer carries its neighbours' cursors either way.
 */
export async function listMailboxes(
  db: Db,
  query: MailboxListQuery,
  /** A domain administrator's domains (null: every mailbox). */
  scope: readonly string[] | null = null,
): Promise<Page<Mailbox>> {
  refuseCursorWithOffset(query);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  const sort = query.sort ?? 'email';
  const key = sort.replace(/^-/, '') as SortKey;
  const desc = sort.startsWith('-');
  const dir = desc ? sql`desc` : sql`asc`;
  const back = desc ? sql`asc` : sql`desc`;
  const order = key === 'email' ? sql`m.email ${dir}` : sql`${SORTS[key]} ${dir}, m.email ${dir}`;
  const usageJoin =
    key === 'used' || key === 'usage' ? sql`left join mail_quota_usage u on u.username = m.email` : sql``;
  // Status and domain filters, as one condition on the mailboxes' own columns.
  const status = sql`${query.status ? sql`and status = ${query.status}` : sql``} ${
    query.domain ? sql`and domain = ${query.domain}` : sql``
  } ${andDomainIn(scope, 'domain')}`;
  const filtered = query.status !== undefined || query.domain !== undefined || scope !== null;
  const limit = query.limit ?? MAIL_LIST_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const q = query.q?.trim();
  let keys: { email: string; total?: number }[];
  let total: number | null = null;
  let has = { next: false, prev: offset > 0 };
  if (query.cursor !== undefined) {
    const kinds =
      key === 'email'
        ? ['string' as const]
        : [NUMERIC_SORTS.has(key) ? ('number' as const) : ('string' as const), 'string' as const];
    const cursor = decodeCursor(query.cursor, sort, kinds);
    const before = cursor.dir === 'before';
    const o: KeysetOrder = { keys: key === 'email' ? [sql`m.email`] : [SORTS[key], sql`m.email`], desc };
    let from = sql`mailboxes m ${usageJoin}`;
    let filter = sql`${query.status ? sql`and m.status = ${query.status}` : sql``} ${
      query.domain ? sql`and m.domain = ${query.domain}` : sql``
    } ${andDomainIn(scope, 'm.domain')}`;
    if (q) {
      const [lo, hi] = prefixRange(q);
      const matches = sql`select email from mailboxes where email >= ${lo} and email < ${hi} ${status}
        union select email from mailboxes where domain >= ${lo} and domain < ${hi} ${status}`;
      from = sql`(${matches}) f join mailboxes m on m.email = f.email ${usageJoin}`;
      filter = sql``;
      total = Number(
        (await sql<Count>`select count(*) as n from (${matches}) f`.execute(db)).rows[0]?.n ?? 0,
      );
    } else if (filtered) total = await filteredTotal(db, query, status, scope);
    else total = await totalFromDomainCounters(db, 'mailbox_count');
    const read = await sql<{ email: string }>`select m.email from ${from}
        where ${keysetAfter(o, cursor.keys, before)} ${filter}
        order by ${keysetOrderBy(o, before)} limit ${limit + 1}`.execute(db);
    const page = keysetPage(read.rows, limit, before);
    keys = page.rows;
    has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
  } else if (q && key === 'email') {
    // The two branches made disjoint (domain matches whose address does not match), so each is
    // counted and cut to the page on its own index, with no union of every match to sort.
    const [lo, hi] = prefixRange(q);
    const byEmail = sql`email >= ${lo} and email < ${hi}`;
    const a = sql`select email from mailboxes where ${byEmail} ${status}`;
    const b = sql`select email from mailboxes where domain >= ${lo} and domain < ${hi} and not (${byEmail}) ${status}`;
    const upTo = offset + limit;
    keys = (
      await sql<{ email: string }>`select f.email from (
          select x.email from (${a} order by email ${dir} limit ${upTo}) x
          union all select y.email from (${b} order by email ${dir} limit ${upTo}) y) f
        order by f.email ${dir} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    const both = sql<Count>`select (select count(*) from (${a}) x) + (select count(*) from (${b}) y) as n`;
    total = Number((await both.execute(db)).rows[0]?.n ?? 0);
  } else if (q) {
    const [lo, hi] = prefixRange(q);
    const matches = sql`select email from mailboxes where email >= ${lo} and email < ${hi} ${status}
      union select email from mailboxes where domain >= ${lo} and domain < ${hi} ${status}`;
    const page = sql`select m.email, count(*) over () as total
            from (${matches}) f join mailboxes m on m.email = f.email ${usageJoin}
            order by ${order} limit ${limit} offset ${offset}`;
    keys = (await sql<{ email: string; total: number }>`${page}`.execute(db)).rows;
    if (keys.length) total = Number(keys[0]!.total);
    else {
      const c = await sql<{ n: number }>`select count(*) as n from (${matches}) f`.execute(db);
      total = Number(c.rows[0]?.n ?? 0);
    }
  } else if (filtered) {
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        where 1 = 1 ${status} order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    total = await filteredTotal(db, query, status, scope);
  } else {
    total = await totalFromDomainCounters(db, 'mailbox_count');
    const w = pageWindow(total, offset, limit);
    const keyOrder = !w.reverse
      ? order
      : key === 'email'
        ? sql`m.email ${back}`
        : sql`${SORTS[key]} ${back}, m.email ${back}`;
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        order by ${keyOrder} limit ${w.limit} offset ${w.offset}`.execute(db)
    ).rows;
  }
  if (query.cursor === undefined) has = { next: offset + keys.length < total, prev: offset > 0 };
  if (!keys.length) return { items: [], total };
  const emails = keys.map((k) => k.email);
  const rows: MailboxRow[] = await db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select([
      'm.email',
      'm.domain',
      'm.quota',
      'm.status',
      'm.created_at',
      sql<number | null>`u.bytes`.as('used'),
    ])
    .where('m.email', 'in', emails)
    .orderBy(order)
    .execute();
  return {
    items: rows.map((r) => ({
      email: r.email,
      domain: r.domain,
      quota: Number(r.quota),
      used: Number(r.used ?? 0),
      status: r.status === 'suspended' ? 'suspended' : 'active',
      createdAt: r.created_at,
    })),
    total,
    ...neighbourCursors(
      sort,
      rows.map((r) => mailboxKeys(key, r)),
      has,
    ),
  };
}

/** The total of a status and/or domain filter: from the domain's counter when only the domain is given. */
async function filteredTotal(
  db: Db,
  query: MailboxListQuery,
  conditions: ReturnType<typeof sql>,
  scope: readonly string[] | null,
): Promise<number> {
  if (scope !== null) {
    const c = await sql<Count>`select count(*) as n from mailboxes where 1 = 1 ${conditions}`.execute(db);
    return Number(c.rows[0]?.n ?? 0);
  }
  if (query.domain && !query.status) {
    const row = await db
      .selectFrom('mail_domains')
      .select('mailbox_count')
      .where('domain', '=', query.domain)
      .executeTakeFirst();
    return Number(row?.mailbox_count ?? 0);
  }
  if (!query.domain) return totalWithStatus(db, 'mailboxes', query.status!);
  const row = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain', '=', query.domain)
    .where('status', '=', query.status!)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function checkQuota(db: Db, quota: number): Promise<void> {
  if (quota === 0) return;
  const { settings } = await readMailSettings(db);
  if (quota > settings.maxQuota * MB)
    throw fieldError('quota', mailMessages.quotaAboveMax(settings.maxQuota));
}

function checkHosted(email: string): void {
  if (!isHostedDomain(splitAddress(email).domain)) throw fieldError('email', fieldMessages.email);
}

/** Creates a mailbox; answers whether its domain is new (it then needs a DKIM key). */
export async function createMailbox(
  ctx: MailCtx,
  input: { email: string; password: string; quota: number; createDomain?: boolean | undefined },
): Promise<{ newDomain: boolean }> {
  const { email, quota } = input;
  checkHosted(email);
  await checkQuota(ctx.db, quota);
  await requireKnownDomain(ctx.db, splitAddress(email).domain, input.createDomain, 'email');
  const exists = await ctx.db
    .selectFrom('mailboxes')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (exists) throw conflict(mailMessages.mailboxExists(email));
  // Hash before the transaction: the database is not held while a core works on argon2.
  const passwordHash = await ctx.hasher.hash(input.password);
  const now = new Date().toISOString();
  const { domain } = splitAddress(email);
  try {
    return await auditedTransaction(ctx.db, async (trx) => {
      // The address first: an alias create of the same address waits (see mail-write-locks.ts).
      await lockAddresses(trx, [email]);
      // Checked again here: the domain may have been removed since (it would come back silently).
      const newDomain = await enterDomain(trx, domain, input.createDomain, 'email');
      const clash = await trx
        .selectFrom('mail_aliases')
        .select(['source', 'system'])
        .where('source', '=', email)
        .executeTakeFirst();
      // A mailbox may take a required address from its system alias (not from an administrator's).
      if (clash && Number(clash.system) !== 1) throw conflict(mailMessages.mailboxIsAlias(email));
      await trx
        .insertInto('mailboxes')
        .values({
          email,
          domain,
          password_hash: passwordHash,
          quota,
          status: 'active',
          maildir: maildirOf(email),
          created_at: now,
          updated_at: now,
        })
        .execute();
      // A stale usage row from an earlier mailbox of the same address must not count.
      await trx.deleteFrom('mail_quota_usage').where('username', '=', email).execute();
      // The lists in one order: mailboxes, then aliases, then the counters (see mail-write-locks.ts).
      if (clash)
        await trx.deleteFrom('mail_aliases').where('source', '=', email).where('system', '=', 1).execute();
      if (newDomain) await ensureSystemAliases(trx, [domain]);
      await addToCounters(trx, domain, { mailboxes: 1, aliases: clash ? -1 : 0 });
      return { newDomain };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(mailMessages.mailboxExists(email));
    throw err;
  }
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

/**
 * Deletes a mailbox. Its mail folder is moved to /var/vmail/.removed/<domain>/<name>-<time>
 * within the same transaction (a failed move keeps the mailbox); the answer is where it went, and
 * whether the mailbox's domain went with it.
 */
export async function removeMailbox(
  ctx: MailCtx,
  email: string,
): Promise<{ movedTo: string | null; domainGone: boolean }> {
  return auditedTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .selectFrom('mailboxes')
        .select(['maildir', 'domain'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (!row) throw notFound(mailMessages.mailboxNotFound(email));
      // The address: an alias pointing here counts on it staying a mailbox (see mail-write-locks.ts).
      await lockAddresses(trx, [email]);
      await holdDomain(trx, row.domain);
      await trx.deleteFrom('mailboxes').where('email', '=', email).execute();
      await trx.deleteFrom('mail_quota_usage').where('username', '=', email).execute();
      // postmaster@/abuse@ was this mailbox: the domain still answers it (before the counters: see
      // mail-write-locks.ts; it goes with the domain if the domain goes).
      if (isRequiredAddress(email)) await ensureSystemAliases(trx, [row.domain]);
      const domainGone = await countOutOfDomain(trx, row.domain, { mailboxes: 1 });
      const { local } = splitAddress(email);
      const to = `${MAIL_PATHS.removedMail}/${row.domain}/${folderName(local)}-${stamp()}`;
      const moved = await moveFolder(ctx.host, `${MAIL_PATHS.vmail}/${row.maildir}`, to);
      return { movedTo: moved ? ctx.host.path(to) : null, domainGone };
    },
    (v) => ({ details: { movedTo: v.movedTo } }),
  );
}

/** Deletes the set-aside mail folders of an address; answers the folders removed. */
export async function purgeMailbox(ctx: MailCtx, email: string): Promise<string[]> {
  const { local, domain } = splitAddress(email);
  // The domain becomes a folder name: only a host name may (no `..`, no slashes).
  if (!isHostedDomain(domain)) throw fieldError('email', fieldMessages.email);
  const prefix = `${folderName(local)}-`;
  const dir = `${MAIL_PATHS.removedMail}/${domain}`;
  const area = ctx.host.path(MAIL_PATHS.removedMail) + path.sep;
  if (!ctx.host.path(dir).startsWith(area)) throw fieldError('email', fieldMessages.email);
  const names = (await listFolder(ctx.host, dir)).filter(
    (n) => n.startsWith(prefix) && /^\d{8}T\d{9}Z$/.test(n.slice(prefix.length)),
  );
  const removed: string[] = [];
  for (const n of names) {
    if (!ctx.host.path(`${dir}/${n}`).startsWith(area)) continue;
    await removeFolder(ctx.host, `${dir}/${n}`);
    removed.push(ctx.host.path(`${dir}/${n}`));
  }
  return removed;
}

async function updateMailbox(
  db: Db,
  email: string,
  set: { password_hash?: string; quota?: number; status?: string },
) {
  await auditedTransaction(db, async (trx) => {
    const res = await trx
      .updateTable('mailboxes')
      .set({ ...set, updated_at: new Date().toISOString() })
      .where('email', '=', email)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound(mailMessages.mailboxNotFound(email));
    // A new password or a suspension ends what the old state opened: the console sessions of the
    // mailbox's account (a session within its re-authentication window could otherwise mint app
    // passwords or enrol a factor), its pending sign-ins and remembered browsers, its app passwords.
    // Here, in the one place that changes them, so the console, domain administrators, the account
    // itself and any later caller all end the same access (issue 22 items 5 and 6).
    if (set.password_hash !== undefined || set.status === 'suspended')
      await endMailboxAccess(trx, [email], { appPasswords: true });
  });
}

export async function changePassword(ctx: MailCtx, email: string, password: string): Promise<void> {
  const exists = await ctx.db
    .selectFrom('mailboxes')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  if (!exists) throw notFound(mailMessages.mailboxNotFound(email));
  await updateMailbox(ctx.db, email, { password_hash: await ctx.hasher.hash(password) });
  // Its app passwords went with the old password: open IMAP sessions signed in with either end now.
  await kickMailSessions(ctx, email);
}

/** Ends the mailbox's open IMAP/POP3 sessions (they signed in with what is no longer valid). */
async function kickMailSessions(ctx: MailCtx, email: string): Promise<void> {
  if (!ctx.host.reloadEnabled) return;
  const doveadm = await ctx.host.which('doveadm');
  if (doveadm) await ctx.host.run(doveadm, ['kick', email]);
}

export async function changeQuota(ctx: MailCtx, email: string, quota: number): Promise<void> {
  await checkQuota(ctx.db, quota);
  await updateMailbox(ctx.db, email, { quota });
}

/**
 * Suspended: Dovecot's passdb/userdb and Postfix's mailbox map skip it; its mail stays. Its console
 * sessions end and its app passwords are revoked (a resumed mailbox makes new ones).
 */
export async function setMailboxStatus(
  ctx: MailCtx,
  email: string,
  status: 'active' | 'suspended',
): Promise<void> {
  await updateMailbox(ctx.db, email, { status });
  // Open IMAP sessions end now rather than at their next login.
  if (status === 'suspended') await kickMailSessions(ctx, email);
}
