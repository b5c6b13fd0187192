import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { Mailbox, MailboxListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT, MB, mailMessages } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { listFolder, moveFolder, removeFolder } from '../../host/folders.ts';
import { countIntoDomain, countOutOfDomain } from './domain.service.ts';
import {
  folderName,
  isHostedDomain,
  isUniqueViolation,
  maildirOf,
  prefixRange,
  splitAddress,
} from './mail-address.ts';
import type { MailCtx } from './mail-context.ts';
import { totalFromDomainCounters, totalWithStatus } from './list-totals.ts';
import { pageWindow } from './page-window.ts';
import { MAIL_PATHS } from './mail-paths.ts';
import { readMailSettings } from './mail-settings.service.ts';

type Db = Kysely<Database>;

type Count = { n: number };

export interface Page<T> {
  items: T[];
  total: number;
}

const SORTS = {
  email: sql`m.email`,
  quota: sql`m.quota`,
  used: sql`coalesce(u.bytes, 0)`,
  usage: sql`case when m.quota > 0 then coalesce(u.bytes, 0) * 1.0 / m.quota else 0 end`,
  status: sql`m.status`,
  createdAt: sql`m.created_at`,
} as const;

/**
 * A page of mailboxes; `q` matches the start of the address or of its domain.
 *
 * Two steps keep pages fast at 100k rows: the page's keys come from an index (each search branch
 * is an index range), then only those keys are joined to the usage table. The unfiltered total
 * comes from the domains' counters.
 */
export async function listMailboxes(db: Db, query: MailboxListQuery): Promise<Page<Mailbox>> {
  const key = (query.sort ?? 'email').replace(/^-/, '') as keyof typeof SORTS;
  const desc = query.sort?.startsWith('-') ?? false;
  const order = sql`${SORTS[key]} ${desc ? sql`desc` : sql`asc`}, m.email`;
  const usageJoin =
    key === 'used' || key === 'usage' ? sql`left join mail_quota_usage u on u.username = m.email` : sql``;
  const status = query.status ? sql`and status = ${query.status}` : sql``;
  const limit = query.limit ?? MAIL_LIST_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  let keys: { email: string; total?: number }[];
  let total: number | null = null;
  if (query.q?.trim() && key === 'email') {
    // The two branches made disjoint (domain matches whose address does not match), so each is
    // counted and cut to the page on its own index, with no union of every match to sort.
    const [lo, hi] = prefixRange(query.q);
    const byEmail = sql`email >= ${lo} and email < ${hi}`;
    const a = sql`select email from mailboxes where ${byEmail} ${status}`;
    const b = sql`select email from mailboxes where domain >= ${lo} and domain < ${hi} and not (${byEmail}) ${status}`;
    const dir = desc ? sql`desc` : sql`asc`;
    const upTo = offset + limit;
    keys = (
      await sql<{ email: string }>`select f.email from (
          select x.email from (${a} order by email ${dir} limit ${upTo}) x
          union all select y.email from (${b} order by email ${dir} limit ${upTo}) y) f
        order by f.email ${dir} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    const both = sql<Count>`select (select count(*) from (${a}) x) + (select count(*) from (${b}) y) as n`;
    total = Number((await both.execute(db)).rows[0]?.n ?? 0);
  } else if (query.q?.trim()) {
    const [lo, hi] = prefixRange(query.q);
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
  } else if (query.status) {
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        where m.status = ${query.status} order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    total = await totalWithStatus(db, 'mailboxes', query.status);
  } else {
    total = await totalFromDomainCounters(db, 'mailbox_count');
    const w = pageWindow(total, offset, limit);
    const keyOrder = w.reverse ? sql`${SORTS[key]} ${desc ? sql`asc` : sql`desc`}, m.email desc` : order;
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        order by ${keyOrder} limit ${w.limit} offset ${w.offset}`.execute(db)
    ).rows;
  }
  if (!keys.length) return { items: [], total };
  const emails = keys.map((k) => k.email);
  const rows = await db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select(['m.email', 'm.quota', 'm.status', 'm.created_at', sql<number | null>`u.bytes`.as('used')])
    .where('m.email', 'in', emails)
    .orderBy(order)
    .execute();
  return {
    items: rows.map((r) => ({
      email: r.email,
      quota: Number(r.quota),
      used: Number(r.used ?? 0),
      status: r.status === 'suspended' ? 'suspended' : 'active',
      createdAt: r.created_at,
    })),
    total,
  };
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
  input: { email: string; password: string; quota: number },
): Promise<{ newDomain: boolean }> {
  const { email, quota } = input;
  checkHosted(email);
  await checkQuota(ctx.db, quota);
  const clash = await ctx.db
    .selectFrom('mail_aliases')
    .select('source')
    .where('source', '=', email)
    .executeTakeFirst();
  if (clash) throw conflict(mailMessages.mailboxIsAlias(email));
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
      const created = await countIntoDomain(trx, domain, { mailboxes: 1 });
      return { newDomain: created.length > 0 };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(mailMessages.mailboxExists(email));
    throw err;
  }
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

/**
 * Deletes a mailbox. Its mail folder is moved to /var/vmail/.removed/<domain>/<name>-<time>
 * within the same transaction (a failed move keeps the mailbox); the answer is where it went.
 */
export async function removeMailbox(ctx: MailCtx, email: string): Promise<{ movedTo: string | null }> {
  return auditedTransaction(
    ctx.db,
    async (trx) => {
      const row = await trx
        .selectFrom('mailboxes')
        .select(['maildir', 'domain'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (!row) throw notFound(mailMessages.mailboxNotFound(email));
      await trx.deleteFrom('mailboxes').where('email', '=', email).execute();
      await trx.deleteFrom('mail_quota_usage').where('username', '=', email).execute();
      await countOutOfDomain(trx, row.domain, { mailboxes: 1 });
      const { local } = splitAddress(email);
      const to = `${MAIL_PATHS.removedMail}/${row.domain}/${folderName(local)}-${stamp()}`;
      const moved = await moveFolder(ctx.host, `${MAIL_PATHS.vmail}/${row.maildir}`, to);
      return { movedTo: moved ? ctx.host.path(to) : null };
    },
    (v) => ({ details: { movedTo: v.movedTo } }),
  );
}

/** Deletes the set-aside mail folders of an address; answers the folders removed. */
export async function purgeMailbox(ctx: MailCtx, email: string): Promise<string[]> {
  const { local, domain } = splitAddress(email);
  const prefix = `${folderName(local)}-`;
  const dir = `${MAIL_PATHS.removedMail}/${domain}`;
  const names = (await listFolder(ctx.host, dir)).filter(
    (n) => n.startsWith(prefix) && /^\d{8}T\d{9}Z$/.test(n.slice(prefix.length)),
  );
  const removed: string[] = [];
  for (const n of names) {
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
}

export async function changeQuota(ctx: MailCtx, email: string, quota: number): Promise<void> {
  await checkQuota(ctx.db, quota);
  await updateMailbox(ctx.db, email, { quota });
}

/** Suspended: Dovecot's passdb/userdb and Postfix's mailbox map skip it; its mail stays. */
export async function setMailboxStatus(
  ctx: MailCtx,
  email: string,
  status: 'active' | 'suspended',
): Promise<void> {
  await updateMailbox(ctx.db, email, { status });
  if (status === 'suspended' && ctx.host.reloadEnabled) {
    const doveadm = await ctx.host.which('doveadm');
    // Open IMAP sessions end now rather than at their next login.
    if (doveadm) await ctx.host.run(doveadm, ['kick', email]);
  }
}
