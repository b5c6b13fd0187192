import type { ImportAliasesResponse } from '@mailroom/contract/mail';
import {
  ALIAS_STATUSES,
  CATCH_ALL_RE,
  destinationField,
  mailMessages,
  splitDestinations,
} from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { emailField } from '@mailroom/contract/validators';
import { parse } from 'csv-parse/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { fieldError } from '../../../http/errors.ts';
import { CHECKPOINT_ROWS, type ProgressHooks } from '../../../lib/progress.ts';
import { AliasGraph } from './alias-graph.rules.ts';
import { aliasSourcesOfKind, deleteSystemAliasesOf } from './alias.repository.ts';
import { existing, insertAliasRows } from '../bulk/bulk-import.repository.ts';
import { countIntoDomains, knownDomains, tableSizes } from '../domains/domain.service.ts';
import { lockAliasGraph, lockDomainRows } from '../mail-write-locks.service.ts';
import { isRequiredAddress } from './system-aliases.service.ts';
import { isHostedDomain } from '../mail-address.rules.ts';
import { splitPlainCsv } from './plain-csv.parser.ts';

type Db = Kysely<Database>;

interface Candidate {
  row: number;
  source: string;
  domain: string;
  destination: string;
  /** The destination's addresses; shared by every row with the same destination text. */
  dests: string[];
  status: 'active' | 'disabled';
}

export interface ImportOutcome extends ImportAliasesResponse {
  /** Domains the import created (they need DKIM keys). */
  newDomains: string[];
}

/** Header row → column positions; `status` is optional (the export writes it). */
function columns(header: string[] | undefined): { source: number; destination: number; status: number } {
  const names = (header ?? []).map((h) => h.trim().toLowerCase());
  const source = names.indexOf('source');
  const destination = names.indexOf('destination');
  if (source === -1 || destination === -1) throw fieldError('file', mailMessages.importMissingColumns);
  return { source, destination, status: names.indexOf('status') };
}

/** The records of an import file (the plain fast path, else csv-parse); unreadable → 400 on `file`. */
export function parseCsv(text: string): string[][] {
  const plain = splitPlainCsv(text);
  if (plain) return plain;
  try {
    return parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: false,
      trim: true,
    });
  } catch (err) {
    throw fieldError('file', `The CSV could not be read: ${(err as Error).message}`);
  }
}

const STATUSES: readonly string[] = ALIAS_STATUSES;
// The contract's field rules (same messages as the Create alias form), built once.
const sourceField = emailField('Source Email');
const destinationRule = destinationField('Destination Email');

type Checked = { ok: true; value: string } | { ok: false; message: string };
const check = (schema: typeof sourceField | typeof destinationRule, v: string): Checked => {
  const r = schema.safeParse(v);
  return r.success
    ? { ok: true, value: r.data.toLowerCase() }
    : { ok: false, message: r.error.issues[0]!.message };
};

// The contract's email rule (trimmed, ≤ 254, something@something.tld) as one test, for the
// per-row hot path; anything it refuses goes to the contract's schema, which words the error.
const PLAIN_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const checkSource = (v: string): Checked =>
  (v.length <= 254 && PLAIN_EMAIL.test(v)) || CATCH_ALL_RE.test(v)
    ? { ok: true, value: v.toLowerCase() }
    : check(sourceField, v);

interface Destination {
  checked: Checked;
  /** The accepted list's addresses (for the self-alias check). */
  parts: string[];
}

/**
 * Imports aliases from CSV in one transaction. Rows missing source or destination are skipped
 * (§5); invalid rows, duplicates, existing sources, mailbox addresses and loops are reported per
 * row (header = row 1) and not written; every other row is written, all together or not at all.
 * A dry run answers the same without writing.
 */
export async function importAliases(
  db: Db,
  csv: string,
  dryRun: boolean,
  job?: ProgressHooks,
  createDomains = false,
): Promise<ImportOutcome> {
  job?.progress({ phase: 'Reading the file', processed: 0 });
  const records = parseCsv(csv);
  const total = Math.max(0, records.length - 1);
  const col = columns(records[0]);
  const errors: { row: number; message: string }[] = [];
  let skipped = 0;
  let candidates: Candidate[] = [];
  const firstRow = new Map<string, number>();
  const destinationCache = new Map<string, Destination>();
  const hostedCache = new Map<string, boolean>();

  for (let i = 1; i < records.length; i++) {
    if (job && i % CHECKPOINT_ROWS === 1) {
      job.progress({ phase: 'Checking rows', processed: i - 1, total });
      await job.checkpoint();
    }
    const rec = records[i]!;
    const row = i + 1;
    const rawSource = (rec[col.source] ?? '').trim();
    const rawDestination = (rec[col.destination] ?? '').trim();
    if (!rawSource || !rawDestination) {
      skipped++;
      continue;
    }
    const src = checkSource(rawSource);
    if (!src.ok) {
      errors.push({ row, message: `source: ${src.message}` });
      continue;
    }
    // Destinations repeat across rows (many aliases to few mailboxes): check each text once.
    let cached = destinationCache.get(rawDestination);
    if (!cached) {
      const checked = check(destinationRule, rawDestination);
      cached = { checked, parts: checked.ok ? splitDestinations(checked.value) : [] };
      destinationCache.set(rawDestination, cached);
    }
    const dst = cached.checked;
    if (!dst.ok) {
      errors.push({ row, message: `destination: ${dst.message}` });
      continue;
    }
    const source = src.value;
    const destination = dst.value;
    const rawStatus = col.status === -1 ? '' : (rec[col.status] ?? '').trim().toLowerCase();
    if (rawStatus && !STATUSES.includes(rawStatus)) {
      errors.push({ row, message: 'status: Status must be active or disabled' });
      continue;
    }
    const domain = source.slice(source.lastIndexOf('@') + 1);
    let hosted = hostedCache.get(domain);
    if (hosted === undefined) hostedCache.set(domain, (hosted = isHostedDomain(domain)));
    if (!hosted) {
      errors.push({ row, message: `source: ${fieldMessages.email}` });
      continue;
    }
    if (cached.parts.includes(source)) {
      errors.push({ row, message: `destination: ${mailMessages.aliasSelf}` });
      continue;
    }
    const first = firstRow.get(source);
    if (first !== undefined) {
      errors.push({ row, message: `source: ${source} appears more than once (first on row ${first})` });
      continue;
    }
    firstRow.set(source, row);
    candidates.push({
      row,
      source,
      domain,
      destination,
      dests: cached.parts,
      status: rawStatus === 'disabled' ? 'disabled' : 'active',
    });
  }

  const run = async (trx: Db): Promise<ImportOutcome> => {
    // The graph's lock and the known domains' rows exclusively (see mail-write-locks.ts): no single
    // create of these domains runs between the checks below and the inserts.
    if (!dryRun) {
      await lockAliasGraph(trx);
      await lockDomainRows(trx, new Set(candidates.map((c) => c.domain)));
    }
    // New mail domains are deliberate: rows of unknown domains are refused unless asked for.
    const known = await knownDomains(trx, [...new Set(candidates.map((c) => c.domain))]);
    const missing = [...new Set(candidates.map((c) => c.domain))].filter((d) => !known.has(d)).sort();
    if (missing.length && !createDomains) {
      const unknown = new Set(missing);
      candidates = candidates.filter((c) => {
        if (!unknown.has(c.domain)) return true;
        errors.push({ row: c.row, message: `source: ${mailMessages.domainUnknown(c.domain)}` });
        return false;
      });
    }
    const sources = candidates.map((c) => c.source);
    const sizes = await tableSizes(trx);
    const [aliases, mailboxes] = await Promise.all([
      existing(trx, 'mail_aliases', 'source', sources, sizes.aliases),
      existing(trx, 'mailboxes', 'email', sources, sizes.mailboxes),
    ]);
    // A system alias (postmaster@, abuse@) is Mailroom's placeholder: an imported row replaces it.
    const required = sources.filter(isRequiredAddress);
    const systemHeld = new Set(await aliasSourcesOfKind(trx, required, 1));
    const taken = new Map<string, string>();
    for (const a of aliases) if (!systemHeld.has(a)) taken.set(a, `source: ${mailMessages.aliasExists(a)}`);
    for (const m of mailboxes) taken.set(m, `source: ${mailMessages.aliasIsMailbox(m)}`);
    const graph = new AliasGraph(trx);
    const free = taken.size
      ? candidates.filter((c) => {
          const reason = taken.get(c.source);
          if (reason) errors.push({ row: c.row, message: reason });
          return !reason;
        })
      : candidates;
    // Sources being imported are not in the database (else they are taken), so the graph reads
    // them as "no alias" until accepted. Each destination address is read once, not once per row.
    const reachable = new Set<string>();
    for (const d of destinationCache.values()) for (const a of d.parts) reachable.add(a);
    await graph.preload(reachable);
    const accepted: Candidate[] = [];
    job?.progress({ phase: 'Checking existing addresses and loops', processed: 0, total: free.length });
    let n = 0;
    for (const c of free) {
      if (job && n++ % CHECKPOINT_ROWS === 0) {
        job.progress({ processed: n - 1 });
        await job.checkpoint();
      }
      const { dests } = c;
      const chain = graph.leadsNowhere(c.source, dests) ? null : await graph.findLoop(c.source, dests);
      if (chain) {
        errors.push({ row: c.row, message: `destination: ${mailMessages.aliasLoop(chain)}` });
        continue;
      }
      graph.set(c.source, dests);
      accepted.push(c);
    }
    errors.sort((a, b) => a.row - b.row);
    // A dry run names the domains the import would create (only those with an accepted row).
    let newDomains: string[] = createDomains
      ? [...new Set(accepted.map((c) => c.domain))].filter((d) => !known.has(d)).sort()
      : [];
    if (!dryRun && accepted.length) {
      const replaced = accepted.filter((c) => systemHeld.has(c.source)).map((c) => c.source);
      if (replaced.length) await deleteSystemAliasesOf(trx, replaced);
      job?.progress({ phase: 'Writing aliases', processed: 0, total: accepted.length });
      await job?.checkpoint();
      await insertAliasRows(trx, accepted);
      const counts = new Map<string, { mailboxes: number; aliases: number }>();
      for (const c of accepted) {
        const e = counts.get(c.domain) ?? { mailboxes: 0, aliases: 0 };
        // A replaced system alias was counted already.
        if (!systemHeld.has(c.source)) e.aliases++;
        counts.set(c.domain, e);
      }
      newDomains = await countIntoDomains(trx, counts);
    }
    return { imported: accepted.length, skipped, errors, dryRun, newDomains };
  };

  return dryRun ? run(db) : db.transaction().execute(run);
}
