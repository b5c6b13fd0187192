import type { BulkMailboxAction } from '@mailroom/contract/mail';
import { mailMessages } from '@mailroom/contract/mail';
import { auditedTransaction } from '../../../apply/audit-scope.ts';
import { endMailboxAccess } from '../../../http/account-access.repository.ts';
import { fieldError } from '../../../http/errors.ts';
import { moveFolder } from '../../../host/folders.ts';
import { countOutOfDomain } from '../domains/domain.service.ts';
import { folderName, splitAddress } from '../mail-address.rules.ts';
import type { MailCtx } from '../mail.context.ts';
import { MAIL_PATHS } from '../stack/mail-paths.layout.ts';
import { ensureSystemAliases, isRequiredAddress } from '../aliases/system-aliases.service.ts';
import { lockDomainRows } from '../mail-write-locks.service.ts';
import { existingDomains } from '../domains/mail-domain.repository.ts';
import { deleteMailboxRows, mailboxPlaces, setMailboxesStatus } from '../mailboxes/mailbox.repository.ts';

export interface BulkOutcome {
  changed: number;
  /** delete: the mail folders moved aside (host paths). */
  movedTo?: string[];
  /** Domains whose DNS facts may have moved (a delete can remove a domain). */
  domains: string[];
}

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

/**
 * Suspends, resumes or deletes several mailboxes in one transaction with one audit line: every
 * address must be a mailbox, or nothing changes (the unknown ones are named on `emails`). A
 * delete moves each mail folder aside as the single delete does; a failed move rolls the rows back.
 */
export async function bulkMailboxes(
  ctx: MailCtx,
  action: BulkMailboxAction,
  list: string[],
): Promise<BulkOutcome> {
  const emails = [...new Set(list)];
  const outcome = await auditedTransaction(
    ctx.db,
    async (trx): Promise<BulkOutcome> => {
      const rows = await mailboxPlaces(trx, emails);
      if (rows.length !== emails.length) {
        const found = new Set(rows.map((r) => r.email));
        const missing = emails.filter((e) => !found.has(e));
        throw fieldError(
          'emails',
          missing.length === 1
            ? mailMessages.mailboxNotFound(missing[0]!)
            : `These mailboxes were not found: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`,
        );
      }
      const domains = [...new Set(rows.map((r) => r.domain))];
      if (action !== 'delete') {
        const changed = await setMailboxesStatus(
          trx,
          emails,
          action === 'suspend' ? 'suspended' : 'active',
          new Date().toISOString(),
        );
        // As the single suspension: sessions, pending sign-ins and app passwords end with it.
        if (action === 'suspend') await endMailboxAccess(trx, emails, { appPasswords: true });
        return { changed, domains: [] };
      }
      // The domain rows exclusively first (see mail-write-locks.ts): the system aliases below come
      // after the counters, so no single write of these domains may hold a list meanwhile.
      await lockDomainRows(trx, domains);
      await deleteMailboxRows(trx, emails);
      const perDomain = new Map<string, number>();
      for (const r of rows) perDomain.set(r.domain, (perDomain.get(r.domain) ?? 0) + 1);
      for (const [domain, n] of perDomain) await countOutOfDomain(trx, domain, { mailboxes: n });
      // postmaster@/abuse@ was one of them: the domain still answers it (if it is still there).
      const required = [...new Set(rows.filter((r) => isRequiredAddress(r.email)).map((r) => r.domain))];
      if (required.length) {
        const still = await existingDomains(trx, required);
        await ensureSystemAliases(
          trx,
          required.filter((d) => still.has(d)),
        );
      }
      const movedTo: string[] = [];
      const at = stamp();
      for (const r of rows) {
        const to = `${MAIL_PATHS.removedMail}/${r.domain}/${folderName(splitAddress(r.email).local)}-${at}`;
        if (await moveFolder(ctx.host, `${MAIL_PATHS.vmail}/${r.maildir}`, to))
          movedTo.push(ctx.host.path(to));
      }
      return { changed: rows.length, movedTo, domains };
    },
    (v) => ({
      target: `${v.changed} mailboxes`,
      details: { action, emails, ...(v.movedTo ? { movedTo: v.movedTo } : {}) },
    }),
  );
  if (action === 'suspend' && ctx.host.reloadEnabled) {
    const doveadm = await ctx.host.which('doveadm');
    // Open IMAP sessions end now rather than at their next login.
    if (doveadm) for (const e of emails) await ctx.host.run(doveadm, ['kick', e]);
  }
  return outcome;
}
