import type { ImportMailboxesResponse } from '@mailroom/contract/mail';
import { MAX_QUOTA_BYTES, mailMessages, mbToBytes } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { emailField, passwordField } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict, fieldError } from '../../../http/errors.ts';
import { CHECKPOINT_ROWS, type ProgressHooks } from '../../../lib/progress.ts';
import { parseCsv } from '../aliases/alias-import.service.ts';
import { aliasSourcesOfKind, deleteSystemAliasesOf } from '../aliases/alias.repository.ts';
import { existing } from '../bulk/bulk-import.repository.ts';
import { addToDomainCounters } from '../domains/mail-domain.repository.ts';
import { deleteQuotaUsageOf, insertMailboxes } from './mailbox.repository.ts';
import { countIntoDomains, knownDomains } from '../domains/domain.service.ts';
import { isHostedDomain, maildirOf } from '../mail-address.rules.ts';
import { lockDomainRows } from '../mail-write-locks.service.ts';
import type { MailCtx } from '../mail.context.ts';
import { readMailSettings } from '../settings/mail-settings.service.ts';

type Db = Kysely<Database>;

interface Candidate {
  row: number;
  email: string;
  domain: string;
  password: string;
  quota: number;
}

export interface MailboxImportOutcome extends ImportMailboxesResponse {
  newDomains: string[];
}

const emailRule = emailField('Email');
const passwordRule = passwordField('Password', 8);
/** Passwords hashed at once (the pool spreads them over its workers). */
const HASH_BATCH = 32;

function columns(header: string[] | undefined): { email: number; password: number; quota: number } {
  const names = (header ?? []).map((h) => h.trim().toLowerCase());
  const email = names.indexOf('email');
  const password = names.indexOf('password');
  if (email === -1 || password === -1) throw fieldError('file', mailMessages.mailboxImportMissingColumns);
  return { email, password, quota: names.indexOf('quota') };
}

/**
 * Creates mailboxes from CSV (header `email,password[,quota]`, quota in MB, empty = the settings'
 * Default Quota) like the alias import: rows missing email or password are skipped, invalid rows,
 * duplicates, taken addresses and unknown domains (unless `createDomains`) are reported per row
 * (header = row 1), and every other row is written in one transaction. Passwords are hashed on the
 * worker pool before the transaction; a dry run hashes nothing and writes nothing.
 */
export async function importMailboxes(
  ctx: MailCtx,
  csv: string,
  opts: { dryRun: boolean; createDomains: boolean },
  job?: ProgressHooks,
): Promise<MailboxImportOutcome> {
  const { db } = ctx;
  job?.progress({ phase: 'Reading the file', processed: 0 });
  const records = parseCsv(csv);
  const col = columns(records[0]);
  const { settings } = await readMailSettings(db);
  const errors: { row: number; message: string }[] = [];
  let skipped = 0;
  let candidates: Candidate[] = [];
  const firstRow = new Map<string, number>();
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    const row = i + 1;
    const rawEmail = (rec[col.email] ?? '').trim();
    const password = rec[col.password] ?? '';
    if (!rawEmail || !password) {
      skipped++;
      continue;
    }
    const e = emailRule.safeParse(rawEmail);
    if (!e.success) {
      errors.push({ row, message: `email: ${e.error.issues[0]!.message}` });
      continue;
    }
    const email = e.data.toLowerCase();
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (!isHostedDomain(domain)) {
      errors.push({ row, message: `email: ${fieldMessages.email}` });
      continue;
    }
    const p = passwordRule.safeParse(password);
    if (!p.success) {
      errors.push({ row, message: `password: ${p.error.issues[0]!.message}` });
      continue;
    }
    const rawQuota = col.quota === -1 ? '' : (rec[col.quota] ?? '').trim();
    let quota = mbToBytes(settings.defaultQuota);
    if (rawQuota !== '') {
      if (!/^\d{1,12}(\.\d{1,6})?$/.test(rawQuota)) {
        errors.push({ row, message: 'quota: Quota must be a number of MB (0 = unlimited)' });
        continue;
      }
      quota = Math.min(mbToBytes(Number(rawQuota)), MAX_QUOTA_BYTES);
      if (quota > mbToBytes(settings.maxQuota)) {
        errors.push({ row, message: `quota: ${mailMessages.quotaAboveMax(settings.maxQuota)}` });
        continue;
      }
    }
    const first = firstRow.get(email);
    if (first !== undefined) {
      errors.push({ row, message: `email: ${email} appears more than once (first on row ${first})` });
      continue;
    }
    firstRow.set(email, row);
    candidates.push({ row, email, domain, password, quota });
  }

  const domains = [...new Set(candidates.map((c) => c.domain))];
  const known = await knownDomains(db, domains);
  if (!opts.createDomains)
    candidates = candidates.filter((c) => {
      if (known.has(c.domain)) return true;
      errors.push({ row: c.row, message: `email: ${mailMessages.domainUnknown(c.domain)}` });
      return false;
    });
  const emails = candidates.map((c) => c.email);
  const [boxes, aliases] = await Promise.all([
    existing(db, 'mailboxes', 'email', emails, Number.MAX_SAFE_INTEGER),
    existing(db, 'mail_aliases', 'source', emails, Number.MAX_SAFE_INTEGER),
  ]);
  // A system alias (postmaster@, abuse@) is Mailroom's placeholder: a mailbox takes its address.
  const required = emails.filter((e) => /^(postmaster|abuse)@/.test(e));
  if (required.length) {
    for (const h of await aliasSourcesOfKind(db, required, 1)) aliases.delete(h);
  }
  const accepted = candidates.filter((c) => {
    if (boxes.has(c.email))
      errors.push({ row: c.row, message: `email: ${mailMessages.mailboxExists(c.email)}` });
    else if (aliases.has(c.email))
      errors.push({ row: c.row, message: `email: ${mailMessages.mailboxIsAlias(c.email)}` });
    else return true;
    return false;
  });
  errors.sort((a, b) => a.row - b.row);
  const wouldCreate = [...new Set(accepted.map((c) => c.domain))].filter((d) => !known.has(d)).sort();
  if (opts.dryRun || !accepted.length)
    return {
      imported: accepted.length,
      skipped,
      errors,
      dryRun: opts.dryRun,
      newDomains: opts.dryRun ? wouldCreate : [],
    };

  // Hash before the transaction: the database is not held while the cores work on argon2.
  const hashes: string[] = [];
  job?.progress({ phase: 'Hashing passwords', processed: 0, total: accepted.length });
  for (let i = 0; i < accepted.length; i += HASH_BATCH) {
    const batch = accepted.slice(i, i + HASH_BATCH);
    hashes.push(...(await Promise.all(batch.map((c) => ctx.hasher.hash(c.password)))));
    if (job && i % CHECKPOINT_ROWS < HASH_BATCH) {
      job.progress({ processed: i + batch.length });
      await job.checkpoint();
    }
  }
  job?.progress({ phase: 'Writing mailboxes', processed: 0, total: accepted.length });
  const now = new Date().toISOString();
  const newDomains = await db.transaction().execute(async (trx: Db) => {
    const counts = new Map<string, { mailboxes: number; aliases: number }>();
    for (const c of accepted) {
      const e = counts.get(c.domain) ?? { mailboxes: 0, aliases: 0 };
      e.mailboxes++;
      counts.set(c.domain, e);
    }
    // The known domains' rows exclusively first (see mail-write-locks.ts); then the addresses are
    // checked again, as the passwords were hashed with no database held.
    await lockDomainRows(trx, counts.keys());
    const emails = accepted.map((c) => c.email);
    const taken = [...(await existing(trx, 'mailboxes', 'email', emails, Number.MAX_SAFE_INTEGER))];
    for (let i = 0; i < emails.length && !taken.length; i += 500) {
      taken.push(...(await aliasSourcesOfKind(trx, emails.slice(i, i + 500), 0)));
    }
    if (taken.length) throw conflict(mailMessages.importRaced(taken[0]!));
    const created = await countIntoDomains(trx, counts);
    for (let i = 0; i < accepted.length; i += 500) {
      await insertMailboxes(
        trx,
        accepted.slice(i, i + 500).map((c, j) => ({
          email: c.email,
          domain: c.domain,
          password_hash: hashes[i + j]!,
          quota: c.quota,
          status: 'active',
          maildir: maildirOf(c.email),
          created_at: now,
          updated_at: now,
        })),
      );
      // A stale usage row from an earlier mailbox of the same address must not count.
      await deleteQuotaUsageOf(
        trx,
        accepted.slice(i, i + 500).map((c) => c.email),
      );
    }
    // A system alias (postmaster@, abuse@) made for a new domain must not shadow an imported box.
    const takeOver = accepted.filter((c) => /^(postmaster|abuse)@/.test(c.email)).map((c) => c.email);
    if (takeOver.length) {
      for (const domain of await deleteSystemAliasesOf(trx, takeOver))
        await addToDomainCounters(trx, domain, { aliases: -1 });
    }
    return created;
  });
  return { imported: accepted.length, skipped, errors, dryRun: false, newDomains };
}
