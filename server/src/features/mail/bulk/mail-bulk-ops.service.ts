import type { BulkFilter } from '@mailroom/contract/bulk';
import {
  ALIAS_STATUSES,
  CreateAliasRequest,
  MAILBOX_STATUSES,
  MAX_QUOTA_BYTES,
  MB,
  mailMessages,
  mbToBytes,
} from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { emailField, passwordField } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { moveFolder } from '../../../host/folders.ts';
import { conflict, fieldError } from '../../../http/errors.ts';
import type { BulkOperationHandler, LedgerEntry, PlanInput, PlannedItem } from '../../../lib/bulk-operation.ts';
import { parseCsv } from '../aliases/alias-import.service.ts';
import {
  aliasForDelete,
  aliasKind,
  aliasKinds,
  aliasSourcesOfKind,
  deleteSystemAlias,
  deleteAliasRows,
  insertAlias,
  listAliases,
  updateAliasRow,
} from '../aliases/alias.repository.ts';
import { refuseLoop } from '../aliases/alias.service.ts';
import { type AliasRow, existing, insertAliasRows } from './bulk-import.repository.ts';
import { addToCounters, countOutOfDomain, knownDomains } from '../domains/domain.service.ts';
import { folderName, isHostedDomain, maildirOf, splitAddress } from '../mail-address.rules.ts';
import type { MailCtx } from '../mail.context.ts';
import { MAIL_PATHS } from '../stack/mail-paths.layout.ts';
import { readMailSettings } from '../settings/mail-settings.service.ts';
import { lockAliasGraph, lockDomainRows } from '../mail-write-locks.service.ts';
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
import { listMailboxes } from '../mailboxes/mailbox.service.ts';
import { ensureSystemAliases, isRequiredAddress } from '../aliases/system-aliases.service.ts';

/**
 * The mail area's bulk operations (issue 21): create mailboxes and aliases from a CSV, delete
 * mailboxes and aliases. Plans use the import's CSV reader and the single create's rules; a batch is one
 * transaction with the import's lock order (the alias graph, the domain rows, the lists, the
 * counters last) and a savepoint per item. Mailboxes and aliases are read by Postfix and Dovecot
 * from the database, so a batch has no daemon file to apply.
 */

type Db = Kysely<Database>;

const emailRule = emailField('Email');
const passwordRule = passwordField('Password', 8);
const PAGE = 1000;

function header(records: string[][], wanted: string[]): Map<string, number> {
  const names = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const at = new Map<string, number>();
  for (const w of wanted) at.set(w, names.indexOf(w));
  return at;
}

function csvOf(input: PlanInput): string {
  if (input.target.kind !== 'csv') throw fieldError('target', 'This operation takes a CSV file.');
  return input.target.csv;
}

/** Mailboxes to create, from `email,password[,quota]` (quota in MB; empty: the Default Quota). */
async function planMailboxCreate(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const records = parseCsv(csvOf(input));
  const col = header(records, ['email', 'password', 'quota']);
  if (col.get('email') === -1 || col.get('password') === -1)
    throw fieldError('target', mailMessages.mailboxImportMissingColumns);
  const { settings } = await readMailSettings(ctx.db);
  const items: PlannedItem[] = [];
  const first = new Map<string, number>();
  const cell = (rec: string[], name: string) => {
    const i = col.get(name)!;
    return i === -1 ? '' : (rec[i] ?? '');
  };
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    const row = i + 1;
    const raw = cell(rec, 'email').trim();
    const password = cell(rec, 'password');
    if (!raw && !password && rec.every((c) => c.trim() === '')) continue;
    const invalid = (reason: string, key = raw || `row ${row}`) =>
      items.push({ key, label: key, action: 'invalid', reason: `row ${row}: ${reason}` });
    if (!raw) {
      invalid(`email: ${fieldMessages.required('Email')}`);
      continue;
    }
    const e = emailRule.safeParse(raw);
    if (!e.success) {
      invalid(`email: ${e.error.issues[0]!.message}`);
      continue;
    }
    const email = e.data.toLowerCase();
    if (!isHostedDomain(splitAddress(email).domain)) {
      invalid(`email: ${fieldMessages.email}`, email);
      continue;
    }
    const p = passwordRule.safeParse(password);
    if (!p.success) {
      invalid(`password: ${p.error.issues[0]!.message}`, email);
      continue;
    }
    const rawQuota = cell(rec, 'quota').trim();
    let quota = mbToBytes(settings.defaultQuota);
    if (rawQuota !== '') {
      if (!/^\d{1,12}(\.\d{1,6})?$/.test(rawQuota)) {
        invalid('quota: Quota must be a number of MB (0 = unlimited)', email);
        continue;
      }
      quota = Math.min(mbToBytes(Number(rawQuota)), MAX_QUOTA_BYTES);
      if (quota > settings.maxQuota * MB) {
        invalid(`quota: ${mailMessages.quotaAboveMax(settings.maxQuota)}`, email);
        continue;
      }
    }
    const dup = first.get(email);
    if (dup !== undefined) {
      invalid(`email: ${email} appears more than once (first on row ${dup})`, email);
      continue;
    }
    first.set(email, row);
    items.push({ key: email, label: email, action: 'create', payload: { email, password, quota } });
  }
  const creates = items.filter((i) => i.action === 'create');
  const emails = creates.map((i) => i.key);
  const domains = [...new Set(emails.map((e) => splitAddress(e).domain))];
  const [known, boxes, aliases] = await Promise.all([
    knownDomains(ctx.db, domains),
    existing(ctx.db, 'mailboxes', 'email', emails, Number.MAX_SAFE_INTEGER),
    existing(ctx.db, 'mail_aliases', 'source', emails, Number.MAX_SAFE_INTEGER),
  ]);
  const system = await systemSources(ctx.db, emails.filter(isRequiredAddress));
  for (const it of creates) {
    const domain = splitAddress(it.key).domain;
    // Like every invalid row, named by its row in the file.
    const row = `row ${first.get(it.key)}`;
    if (!known.has(domain))
      Object.assign(it, {
        action: 'invalid',
        reason: `${row}: email: ${mailMessages.domainUnknown(domain)}`,
        payload: null,
      });
    else if (boxes.has(it.key))
      Object.assign(it, {
        action: 'skip',
        reason: `exists: ${mailMessages.mailboxExists(it.key)}`,
        payload: null,
      });
    else if (aliases.has(it.key) && !system.has(it.key))
      Object.assign(it, {
        action: 'invalid',
        reason: `${row}: email: ${mailMessages.mailboxIsAlias(it.key)}`,
        payload: null,
      });
  }
  return items;
}

async function systemSources(db: Db, sources: string[]): Promise<Set<string>> {
  return new Set(await aliasSourcesOfKind(db, sources, 1));
}

/** Mailboxes to delete: the selected addresses, the list's filter, or every mailbox. */
async function planMailboxDelete(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const { target } = input;
  if (target.kind === 'csv')
    throw fieldError('target', 'Delete Mailboxes takes selected, filtered or all mailboxes.');
  if (target.kind === 'selected') {
    const keys = [...new Set(target.keys.map((k) => k.trim().toLowerCase()))];
    const found = await existing(ctx.db, 'mailboxes', 'email', keys, Number.MAX_SAFE_INTEGER);
    return keys.map((k) =>
      found.has(k)
        ? { key: k, label: k, action: 'delete' as const, payload: { email: k } }
        : { key: k, label: k, action: 'skip' as const, reason: mailMessages.mailboxNotFound(k) },
    );
  }
  const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
  const status =
    f.status && (MAILBOX_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as 'active' | 'suspended')
      : undefined;
  const items: PlannedItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listMailboxes(ctx.db, {
      limit: PAGE,
      sort: 'email',
      ...(f.q ? { q: f.q } : {}),
      ...(f.domain ? { domain: f.domain.toLowerCase() } : {}),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const m of page.items)
      items.push({ key: m.email, label: m.email, action: 'delete', payload: { email: m.email } });
    if (!page.next || page.items.length < PAGE) break;
    cursor = page.next;
  }
  return items;
}

/**
 * Aliases to delete: the selected sources, the alias list's filter (its search and status, and a
 * domain), or every alias. Mailroom's required aliases (postmaster@, abuse@ it made) are skipped:
 * they cannot be deleted (they come back at once), only replaced by the administrator's own.
 */
async function planAliasDelete(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const { target } = input;
  if (target.kind === 'csv')
    throw fieldError('target', 'Delete Aliases takes selected, filtered or all aliases.');
  const item = (source: string, system: boolean): PlannedItem =>
    system
      ? { key: source, label: source, action: 'skip', reason: mailMessages.aliasRequired(source) }
      : { key: source, label: source, action: 'delete', payload: { source } };
  if (target.kind === 'selected') {
    const keys = [...new Set(target.keys.map((k) => k.trim().toLowerCase()))];
    const found = new Map<string, boolean>();
    for (let i = 0; i < keys.length; i += PAGE)
      for (const r of await aliasKinds(ctx.db, keys.slice(i, i + PAGE)))
        found.set(r.source, Number(r.system) === 1);
    return keys.map((k) =>
      found.has(k)
        ? item(k, found.get(k)!)
        : { key: k, label: k, action: 'skip' as const, reason: `missing: ${mailMessages.aliasNotFound(k)}` },
    );
  }
  const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
  const status =
    f.status && (ALIAS_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as 'active' | 'disabled')
      : undefined;
  const domain = f.domain?.trim().toLowerCase() || undefined;
  const items: PlannedItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listAliases(ctx.db, {
      limit: PAGE,
      sort: 'source',
      ...(f.q ? { q: f.q } : {}),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const a of page.items)
      if (!domain || splitAddress(a.source).domain === domain) items.push(item(a.source, a.system));
    if (!page.next || page.items.length < PAGE) break;
    cursor = page.next;
  }
  return items;
}

/** Aliases to create, from `source,destination`. */
async function planAliasCreate(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const records = parseCsv(csvOf(input));
  const col = header(records, ['source', 'destination']);
  if (col.get('source') === -1 || col.get('destination') === -1)
    throw fieldError('target', mailMessages.importMissingColumns);
  const items: PlannedItem[] = [];
  const first = new Map<string, number>();
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    if (rec.every((c) => c.trim() === '')) continue;
    const row = i + 1;
    const rawSource = (rec[col.get('source')!] ?? '').trim();
    const rawDest = (rec[col.get('destination')!] ?? '').trim();
    const key = rawSource.toLowerCase() || `row ${row}`;
    const parsed = CreateAliasRequest.safeParse({ source: rawSource, destination: rawDest });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      items.push({
        key,
        label: `Row ${row}: ${key}`,
        action: 'invalid',
        reason: `${String(issue.path[0] ?? 'row')}: ${issue.message}`,
      });
      continue;
    }
    const { source, destination } = parsed.data;
    const dests = destination.split(',').map((d) => d.trim().toLowerCase());
    if (dests.includes(source)) {
      items.push({
        key: source,
        label: source,
        action: 'invalid',
        reason: `destination: ${mailMessages.aliasSelf}`,
      });
      continue;
    }
    const dup = first.get(source);
    if (dup !== undefined) {
      items.push({
        key: source,
        label: source,
        action: 'invalid',
        reason: `source: ${source} appears more than once (first on row ${dup})`,
      });
      continue;
    }
    first.set(source, row);
    items.push({
      key: source,
      label: `${source} → ${destination}`,
      action: 'create',
      payload: { source, destination },
    });
  }
  const creates = items.filter((i) => i.action === 'create');
  const sources = creates.map((i) => i.key);
  const domains = [...new Set(sources.map((s) => splitAddress(s).domain))];
  const [known, aliases, boxes] = await Promise.all([
    knownDomains(ctx.db, domains),
    existing(ctx.db, 'mail_aliases', 'source', sources, Number.MAX_SAFE_INTEGER),
    existing(ctx.db, 'mailboxes', 'email', sources, Number.MAX_SAFE_INTEGER),
  ]);
  const system = await systemSources(ctx.db, sources.filter(isRequiredAddress));
  for (const it of creates) {
    const domain = splitAddress(it.key).domain;
    if (!known.has(domain))
      Object.assign(it, {
        action: 'invalid',
        reason: `source: ${mailMessages.domainUnknown(domain)}`,
        payload: null,
      });
    else if (aliases.has(it.key) && !system.has(it.key))
      Object.assign(it, {
        action: 'skip',
        reason: `exists: ${mailMessages.aliasExists(it.key)}`,
        payload: null,
      });
    else if (boxes.has(it.key))
      Object.assign(it, {
        action: 'invalid',
        reason: `source: ${mailMessages.aliasIsMailbox(it.key)}`,
        payload: null,
      });
  }
  return items;
}

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
