import type { Mailbox, MailboxListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT, MB, mailMessages } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { listFolder, moveFolder, removeFolder } from '../../host/folders.ts';
import { countIntoDomain, countOutOfDomain } from './domain.service.ts';
import { folderName, isHostedDomain, isUniqueViolation, maildirOf, prefixRange, splitAddress } from './mail-address.ts';
import type { MailCtx } from './mail-context.ts';
import { MAIL_PATHS } from './mail-paths.ts';
import { readMailSettings } from './mail-settings.service.ts';

type Db = Kysely<Database>;

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

/** A page of mailboxes; `q` matches the start of the address or of its domain. */
export async function listMailboxes(db: Db, query: MailboxListQuery): Promise<Page<Mailbox>> {
  const q = query.q?.trim() ? prefixRange(query.q) : null;
  let rows = db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select(['m.email', 'm.quota', 'm.status', 'm.created_at', sql<number | null>`u.bytes`.as('used')]);
  let count = db.selectFrom('mailboxes as m').select((eb) => eb.fn.countAll<number>().as('n'));
  if (q) {
    const [lo, hi] = q;
    rows = rows.where((eb) =>
      eb.or([
        eb.and([eb('m.email', '>=', lo), eb('m.email', '<', hi)]),
        eb.and([eb('m.domain', '>=', lo), eb('m.domain', '<', hi)]),
      ]),
    );
    count = count.where((eb) =>
      eb.or([
        eb.and([eb('m.email', '>=', lo), eb('m.email', '<', hi)]),
        eb.and([eb('m.domain', '>=', lo), eb('m.domain', '<', hi)]),
      ]),
    );
  }
  if (query.status) {
    rows = rows.where('m.status', '=', query.status);
    count = count.where('m.status', '=', query.status);
  }
  const sortKey = (query.sort ?? 'email').replace(/^-/, '') as keyof typeof SORTS;
  const dir = query.sort?.startsWith('-') ? sql`desc` : sql`asc`;
  rows = rows.orderBy(sql`${SORTS[sortKey]} ${dir}`);
  if (sortKey !== 'email') rows = rows.orderBy('m.email');
  const [items, total] = await Promise.all([
    rows
      .limit(query.limit ?? MAIL_LIST_DEFAULT_LIMIT)
      .offset(query.offset ?? 0)
      .execute(),
    q || query.status
      ? count.executeTakeFirstOrThrow().then((r) => Number(r.n))
      : db
          .selectFrom('mail_domains')
          .select((eb) => eb.fn.sum<number>('mailbox_count').as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n ?? 0)),
  ]);
  return {
    items: items.map((r) => ({
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
  if (quota > settings.maxQuota * MB) throw fieldError('quota', mailMessages.quotaAboveMax(settings.maxQuota));
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
  const clash = await ctx.db.selectFrom('mail_aliases').select('id').where('source', '=', email).executeTakeFirst();
  if (clash) throw conflict(mailMessages.mailboxIsAlias(email));
  const exists = await ctx.db.selectFrom('mailboxes').select('id').where('email', '=', email).executeTakeFirst();
  if (exists) throw conflict(mailMessages.mailboxExists(email));
  // Hash before the transaction: the database is not held while a core works on argon2.
  const passwordHash = await ctx.hasher.hash(input.password);
  const now = new Date().toISOString();
  const { domain } = splitAddress(email);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
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
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('mailboxes').select(['maildir', 'domain']).where('email', '=', email).executeTakeFirst();
    if (!row) throw notFound(mailMessages.mailboxNotFound(email));
    await trx.deleteFrom('mailboxes').where('email', '=', email).execute();
    await trx.deleteFrom('mail_quota_usage').where('username', '=', email).execute();
    await countOutOfDomain(trx, row.domain, { mailboxes: 1 });
    const { local } = splitAddress(email);
    const to = `${MAIL_PATHS.removedMail}/${row.domain}/${folderName(local)}-${stamp()}`;
    const moved = await moveFolder(ctx.host, `${MAIL_PATHS.vmail}/${row.maildir}`, to);
    return { movedTo: moved ? ctx.host.path(to) : null };
  });
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

async function updateMailbox(db: Db, email: string, set: { password_hash?: string; quota?: number; status?: string }) {
  const res = await db
    .updateTable('mailboxes')
    .set({ ...set, updated_at: new Date().toISOString() })
    .where('email', '=', email)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound(mailMessages.mailboxNotFound(email));
}

export async function changePassword(ctx: MailCtx, email: string, password: string): Promise<void> {
  const exists = await ctx.db.selectFrom('mailboxes').select('id').where('email', '=', email).executeTakeFirst();
  if (!exists) throw notFound(mailMessages.mailboxNotFound(email));
  await updateMailbox(ctx.db, email, { password_hash: await ctx.hasher.hash(password) });
}

export async function changeQuota(ctx: MailCtx, email: string, quota: number): Promise<void> {
  await checkQuota(ctx.db, quota);
  await updateMailbox(ctx.db, email, { quota });
}

/** Suspended: Dovecot's passdb/userdb and Postfix's mailbox map skip it; its mail stays. */
export async function setMailboxStatus(ctx: MailCtx, email: string, status: 'active' | 'suspended'): Promise<void> {
  await updateMailbox(ctx.db, email, { status });
  if (status === 'suspended' && ctx.host.reloadEnabled) {
    const doveadm = await ctx.host.which('doveadm');
    // Open IMAP sessions end now rather than at their next login.
    if (doveadm) await ctx.host.run(doveadm, ['kick', email]);
  }
}
