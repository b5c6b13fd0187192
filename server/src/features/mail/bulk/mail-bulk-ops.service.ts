import { mailMessages } from '@mailroom/contract/mail';
import { moveFolder } from '../../../host/folders.ts';
import { conflict, fieldError } from '../../../http/errors.ts';
import { type BulkOperationHandler, type LedgerEntry } from '../../../lib/bulk-operation.ts';
import {
  aliasForDelete,
  aliasKind,
  aliasKinds,
  deleteSystemAlias,
  deleteAliasRows,
  insertAlias,
  updateAliasRow,
} from '../aliases/alias.repository.ts';
import { refuseLoop } from '../aliases/alias.service.ts';
import { ensureSystemAliases, isRequiredAddress } from '../aliases/system-aliases.service.ts';
import { addToCounters, countOutOfDomain, knownDomains } from '../domains/domain.service.ts';
import { folderName, maildirOf, splitAddress } from '../mail-address.rules.ts';
import { lockAliasGraph, lockDomainRows } from '../mail-write-locks.service.ts';
import { type MailCtx } from '../mail.context.ts';
import {
  deleteMailboxRow,
  deleteQuotaUsage,
  deleteQuotaUsageOf,
  insertMailbox,
  insertMailboxes,
  mailboxForDelete,
  mailboxIdByEmail,
  mailboxPlaces,
} from '../mailboxes/mailbox.repository.ts';
import { MAIL_PATHS } from '../stack/mail-paths.layout.ts';
import { planAliasDelete, planAliasCreate } from './alias-bulk-plan.service.ts';
import { type AliasRow, existing, insertAliasRows } from './bulk-import.repository.ts';
import { type Db } from './bulk-plan.rules.ts';
import { planMailboxCreate, planMailboxDelete } from './mailbox-bulk-plan.service.ts';

/**
 * The mail area's bulk operations (issue 21): create mailboxes and aliases from a CSV, delete
 * mailboxes and aliases. Plans use the import's CSV reader and the single create's rules; a batch is one
 * transaction with the import's lock order (the alias graph, the domain rows, the lists, the
 * counters last) and a savepoint per item. Mailboxes and aliases are read by Postfix and Dovecot
 * from the database, so a batch has no daemon file to apply.
 */

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('.', '');

/** The four mail operations, given the mail context and the DNS republish of domains that went. */
export function mailBulkOperations(
  ctx: MailCtx,
  factsChanged: (domains: string[]) => Promise<void>,
): BulkOperationHandler[] {
  const createMailboxes: BulkOperationHandler = {
    id: 'mail.mailbox.create',
    secretFields: ['password'],
    plan: (input) => planMailboxCreate(ctx, input),
    async runBatch(entries, tools) {
      // Hashed before the transaction (the pool spreads them over the cores, one worker thread
      // each, off the event loop); no database is held. Background: a single create or password
      // change made meanwhile is hashed first, not after this batch.
      const hashes = new Map<number, string>();
      await Promise.all(
        entries.map(async (e) =>
          hashes.set(e.id, await ctx.hasher.hash(String(e.payload.password), 'background')),
        ),
      );
      const domains = [...new Set(entries.map((e) => splitAddress(String(e.payload.email)).domain))];
      await ctx.db.transaction().execute(async (trx) => {
        await lockDomainRows(trx, domains);
        const known = await knownDomains(trx, domains);
        const counts = new Map<string, { mailboxes: number; aliases: number }>();
        const now = new Date().toISOString();
        // The batch's addresses read once under the locks: the mailboxes that exist, and the
        // aliases that hold an address (a required one gives way to the mailbox).
        const emails = entries.map((e) => String(e.payload.email));
        const boxes = await existing(trx, 'mailboxes', 'email', emails, Number.MAX_SAFE_INTEGER);
        const clashes = new Map((await aliasKinds(trx, emails)).map((r) => [r.source, Number(r.system)]));
        const rowOf = (e: LedgerEntry) => {
          const email = String(e.payload.email);
          const quota = Number(e.payload.quota ?? 0);
          return {
            row: {
              email,
              domain: splitAddress(email).domain,
              password_hash: hashes.get(e.id)!,
              quota,
              status: 'active',
              maildir: maildirOf(email),
              created_at: now,
              updated_at: now,
            },
            result: { after: { email, quota, status: 'active' } },
          };
        };
        const added = (domain: string, aliasesGone: number) => {
          const c = counts.get(domain) ?? { mailboxes: 0, aliases: 0 };
          c.mailboxes++;
          c.aliases -= aliasesGone;
          counts.set(domain, c);
        };
        await tools.setItems<ReturnType<typeof rowOf>['row']>(trx, entries, {
          prepare(e) {
            const email = String(e.payload.email);
            const domain = splitAddress(email).domain;
            if (!known.has(domain)) return { error: fieldError('email', mailMessages.domainUnknown(domain)) };
            if (boxes.has(email))
              return { result: { skipped: `exists: ${mailMessages.mailboxExists(email)}` } };
            const clash = clashes.get(email);
            if (clash === 1) return 'single';
            if (clash !== undefined) return { error: conflict(mailMessages.mailboxIsAlias(email)) };
            boxes.add(email);
            return rowOf(e);
          },
          async write(t, rows) {
            await insertMailboxes(t, rows);
            await deleteQuotaUsageOf(
              t,
              rows.map((r) => r.email),
            );
            for (const r of rows) added(r.domain, 0);
          },
          async step(e, t) {
            const email = String(e.payload.email);
            const domain = splitAddress(email).domain;
            if (!known.has(domain)) throw fieldError('email', mailMessages.domainUnknown(domain));
            if ((await mailboxIdByEmail(t, email)) !== null)
              return { skipped: `exists: ${mailMessages.mailboxExists(email)}` };
            const clash = await aliasKind(t, email);
            if (clash && Number(clash.system) !== 1) throw conflict(mailMessages.mailboxIsAlias(email));
            const { row, result } = rowOf(e);
            await insertMailbox(t, row);
            await deleteQuotaUsage(t, email);
            if (clash) await deleteSystemAlias(t, email);
            added(domain, clash ? 1 : 0);
            boxes.add(email);
            return result;
          },
        });
        for (const [domain, c] of counts) await addToCounters(trx, domain, c);
      });
    },
  };

  const deleteMailboxes: BulkOperationHandler = {
    id: 'mail.mailbox.delete',
    plan: (input) => planMailboxDelete(ctx, input),
    async runBatch(entries, tools) {
      const gone: string[] = [];
      await ctx.db.transaction().execute(async (trx) => {
        const rows = await mailboxPlaces(
          trx,
          entries.map((e) => String(e.payload.email)),
        );
        await lockDomainRows(
          trx,
          rows.map((r) => r.domain),
        );
        const at = stamp();
        await tools.items(trx, entries, async (e, t) => {
          const email = String(e.payload.email);
          const row = await mailboxForDelete(t, email);
          if (!row) return { skipped: mailMessages.mailboxNotFound(email) };
          await deleteMailboxRow(t, email);
          await deleteQuotaUsage(t, email);
          if (isRequiredAddress(email)) await ensureSystemAliases(t, [row.domain]);
          if (await countOutOfDomain(t, row.domain, { mailboxes: 1 })) gone.push(row.domain);
          // Last: a failed move rolls this item back (the folder stays where it was).
          const to = `${MAIL_PATHS.removedMail}/${row.domain}/${folderName(splitAddress(email).local)}-${at}`;
          const moved = await moveFolder(ctx.host, `${MAIL_PATHS.vmail}/${row.maildir}`, to);
          return {
            before: { email, quota: Number(row.quota), status: row.status },
            after: { deleted: true, movedTo: moved ? ctx.host.path(to) : null },
          };
        });
      });
      if (gone.length) await factsChanged([...new Set(gone)]);
    },
  };

  const createAliases: BulkOperationHandler = {
    id: 'mail.alias.create',
    plan: (input) => planAliasCreate(ctx, input),
    async runBatch(entries, tools) {
      const domains = [...new Set(entries.map((e) => splitAddress(String(e.payload.source)).domain))];
      await ctx.db.transaction().execute(async (trx) => {
        // The import's order: the alias graph (destinations may be aliases), then the domain rows.
        await lockAliasGraph(trx);
        await lockDomainRows(trx, domains);
        const known = await knownDomains(trx, domains);
        const counts = new Map<string, number>();
        const now = new Date().toISOString();
        // What the batch's items are checked against, read once under the locks: the sources taken
        // (aliases, system or not; mailboxes) and which destinations are mailboxes. An alias whose
        // destinations are all mailboxes cannot close a loop; the others walk the graph.
        const sources = entries.map((e) => String(e.payload.source));
        const dests = [
          ...new Set(
            entries.flatMap((e) =>
              String(e.payload.destination)
                .split(',')
                .map((d) => d.trim()),
            ),
          ),
        ];
        const taken = new Map((await aliasKinds(trx, sources)).map((r) => [r.source, Number(r.system)]));
        const boxes = await existing(
          trx,
          'mailboxes',
          'email',
          [...new Set([...sources, ...dests])],
          Number.MAX_SAFE_INTEGER,
        );
        const insert = async (t: Db, source: string, domain: string, destination: string) => {
          await insertAlias(t, {
            source,
            domain,
            destination,
            status: 'active',
            created_at: now,
            updated_at: now,
          });
          counts.set(domain, (counts.get(domain) ?? 0) + 1);
        };
        // The common case is settled in memory and written as one multi-row insert; an alias that
        // replaces a required one, or whose destinations are not all mailboxes (a loop check
        // walks the graph), runs alone, and so does each item of a set write that failed.
        await tools.setItems<AliasRow>(trx, entries, {
          prepare(e) {
            const source = String(e.payload.source);
            const destination = String(e.payload.destination);
            const domain = splitAddress(source).domain;
            if (!known.has(domain))
              return { error: fieldError('source', mailMessages.domainUnknown(domain)) };
            const system = taken.get(source);
            if (system !== undefined && system !== 1)
              return { result: { skipped: `exists: ${mailMessages.aliasExists(source)}` } };
            if (boxes.has(source)) return { error: conflict(mailMessages.aliasIsMailbox(source)) };
            if (system !== undefined || !destination.split(',').every((d) => boxes.has(d.trim())))
              return 'single';
            taken.set(source, 0);
            return {
              row: { source, domain, destination, status: 'active' },
              result: { after: { source, destination, status: 'active' } },
            };
          },
          async write(t, rows) {
            await insertAliasRows(t, rows);
            for (const r of rows) counts.set(r.domain, (counts.get(r.domain) ?? 0) + 1);
          },
          async step(e, t) {
            const source = String(e.payload.source);
            const destination = String(e.payload.destination);
            const domain = splitAddress(source).domain;
            if (!known.has(domain)) throw fieldError('source', mailMessages.domainUnknown(domain));
            const row = await aliasKind(t, source);
            if (row && Number(row.system) !== 1)
              return { skipped: `exists: ${mailMessages.aliasExists(source)}` };
            if (boxes.has(source)) throw conflict(mailMessages.aliasIsMailbox(source));
            if (!destination.split(',').every((d) => boxes.has(d.trim())))
              await refuseLoop(t, source, destination);
            if (row) {
              // An administrator's alias replaces Mailroom's required one (the count stays).
              await updateAliasRow(t, source, { destination, status: 'active', system: 0, updated_at: now });
            } else await insert(t, source, domain, destination);
            taken.set(source, 0);
            return { after: { source, destination, status: 'active' } };
          },
        });
        for (const [domain, n] of counts) await addToCounters(trx, domain, { aliases: n });
      });
    },
  };

  const deleteAliases: BulkOperationHandler = {
    id: 'mail.alias.delete',
    plan: (input) => planAliasDelete(ctx, input),
    async runBatch(entries, tools) {
      const gone: string[] = [];
      await ctx.db.transaction().execute(async (trx) => {
        // The bulk removal's order: the domain rows (exclusively, sorted), the aliases, the counters.
        const rows = await aliasKinds(
          trx,
          entries.map((e) => String(e.payload.source)),
        );
        await lockDomainRows(trx, [...new Set(rows.map((r) => r.domain))].sort());
        await tools.items(trx, entries, async (e, t) => {
          const source = String(e.payload.source);
          const row = await aliasForDelete(t, source);
          if (!row) return { skipped: `missing: ${mailMessages.aliasNotFound(source)}` };
          // Became Mailroom's required alias since the plan (the administrator's was deleted).
          if (Number(row.system) === 1) return { skipped: mailMessages.aliasRequired(source) };
          await deleteAliasRows(t, [source]);
          // An administrator's postmaster@/abuse@ gone: the system alias takes its place again.
          if (isRequiredAddress(source)) await ensureSystemAliases(t, [row.domain]);
          if (await countOutOfDomain(t, row.domain, { aliases: 1 })) gone.push(row.domain);
          return {
            before: { source, destination: row.destination, status: row.status },
            after: { deleted: true },
          };
        });
      });
      if (gone.length) await factsChanged([...new Set(gone)]);
    },
  };

  return [createMailboxes, deleteMailboxes, createAliases, deleteAliases];
}
