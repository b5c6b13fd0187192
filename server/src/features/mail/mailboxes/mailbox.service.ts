import { auditedTransaction } from '../../../apply/audit-scope.ts';
import { MB, mailMessages } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { endMailboxAccess } from '../../../http/account-access.repository.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import { listFolder, moveFolder, removeFolder } from '../../../host/folders.ts';
import { aliasKind, deleteSystemAlias } from '../aliases/alias.repository.ts';
import {
  addToCounters,
  countOutOfDomain,
  enterDomain,
  requireKnownDomain,
} from '../domains/domain.service.ts';
import { holdDomain, lockAddresses } from '../mail-write-locks.service.ts';
import { ensureSystemAliases, isRequiredAddress } from '../aliases/system-aliases.service.ts';
import {
  folderName,
  isHostedDomain,
  isUniqueViolation,
  maildirOf,
  splitAddress,
} from '../mail-address.rules.ts';
import type { MailCtx } from '../mail.context.ts';
import {
  deleteMailboxRow,
  deleteQuotaUsage,
  insertMailbox,
  mailboxIdByEmail,
  mailboxPlace,
  updateMailboxRow,
} from './mailbox.repository.ts';
import { MAIL_PATHS } from '../stack/mail-paths.layout.ts';
import { readMailSettings } from '../settings/mail-settings.service.ts';

type Db = Kysely<Database>;

export { listMailboxes, type Page } from './mailbox.repository.ts';

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
  if ((await mailboxIdByEmail(ctx.db, email)) !== null) throw conflict(mailMessages.mailboxExists(email));
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
      const clash = await aliasKind(trx, email);
      // A mailbox may take a required address from its system alias (not from an administrator's).
      if (clash && Number(clash.system) !== 1) throw conflict(mailMessages.mailboxIsAlias(email));
      await insertMailbox(trx, {
        email,
        domain,
        password_hash: passwordHash,
        quota,
        status: 'active',
        maildir: maildirOf(email),
        created_at: now,
        updated_at: now,
      });
      // A stale usage row from an earlier mailbox of the same address must not count.
      await deleteQuotaUsage(trx, email);
      // The lists in one order: mailboxes, then aliases, then the counters (see mail-write-locks.ts).
      if (clash) await deleteSystemAlias(trx, email);
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
      const row = await mailboxPlace(trx, email);
      if (!row) throw notFound(mailMessages.mailboxNotFound(email));
      // The address: an alias pointing here counts on it staying a mailbox (see mail-write-locks.ts).
      await lockAddresses(trx, [email]);
      await holdDomain(trx, row.domain);
      await deleteMailboxRow(trx, email);
      await deleteQuotaUsage(trx, email);
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
    if (!(await updateMailboxRow(trx, email, { ...set, updated_at: new Date().toISOString() })))
      throw notFound(mailMessages.mailboxNotFound(email));
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
  if ((await mailboxIdByEmail(ctx.db, email)) === null) throw notFound(mailMessages.mailboxNotFound(email));
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
