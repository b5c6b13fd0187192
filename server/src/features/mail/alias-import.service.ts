import type { ImportAliasesResponse } from '@mailroom/contract/mail';
import { ALIAS_STATUSES, CreateAliasRequest, mailMessages, splitDestinations } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { parse } from 'csv-parse/sync';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isPostgres } from '../../db/database.ts';
import { fieldError } from '../../http/errors.ts';
import { AliasGraph } from './alias-graph.ts';
import { countIntoDomains } from './domain.service.ts';
import { isHostedDomain, splitAddress } from './mail-address.ts';

type Db = Kysely<Database>;

interface Candidate {
  row: number;
  source: string;
  domain: string;
  destination: string;
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

function parseCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false, trim: true }) as string[][];
  } catch (err) {
    throw fieldError('file', `The CSV could not be read: ${(err as Error).message}`);
  }
}

const STATUSES: readonly string[] = ALIAS_STATUSES;

/**
 * Imports aliases from CSV in one transaction. Rows missing source or destination are skipped
 * (§5); invalid rows, duplicates, existing sources, mailbox addresses and loops are reported per
 * row (header = row 1) and not written; every other row is written, all together or not at all.
 * A dry run answers the same without writing.
 */
export async function importAliases(db: Db, csv: string, dryRun: boolean): Promise<ImportOutcome> {
  const records = parseCsv(csv);
  const col = columns(records[0]);
  const errors: { row: number; message: string }[] = [];
  let skipped = 0;
  const candidates: Candidate[] = [];
  const firstRow = new Map<string, number>();

  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    const row = i + 1;
    const rawSource = rec[col.source] ?? '';
    const rawDestination = rec[col.destination] ?? '';
    if (!rawSource || !rawDestination) {
      skipped++;
      continue;
    }
    const parsed = CreateAliasRequest.safeParse({ source: rawSource, destination: rawDestination });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      errors.push({ row, message: `${String(issue.path[0] ?? 'row')}: ${issue.message}` });
      continue;
    }
    const { source, destination } = parsed.data;
    const rawStatus = col.status === -1 ? '' : (rec[col.status] ?? '').toLowerCase();
    if (rawStatus && !STATUSES.includes(rawStatus)) {
      errors.push({ row, message: 'status: Status must be active or disabled' });
      continue;
    }
    const { domain } = splitAddress(source);
    if (!isHostedDomain(domain)) {
      errors.push({ row, message: `source: ${fieldMessages.email}` });
      continue;
    }
    if (splitDestinations(destination).includes(source)) {
      errors.push({ row, message: `destination: ${mailMessages.aliasSelf}` });
      continue;
    }
    const first = firstRow.get(source);
    if (first !== undefined) {
      errors.push({ row, message: `source: ${source} appears more than once (first on row ${first})` });
      continue;
    }
    firstRow.set(source, row);
    candidates.push({ row, source, domain, destination, status: rawStatus === 'disabled' ? 'disabled' : 'active' });
  }

  const run = async (trx: Db): Promise<ImportOutcome> => {
    const taken = new Map<string, string>();
    for (let i = 0; i < candidates.length; i += 500) {
      const chunk = candidates.slice(i, i + 500).map((c) => c.source);
      const [aliases, mailboxes] = await Promise.all([
        trx.selectFrom('mail_aliases').select('source').where('source', 'in', chunk).execute(),
        trx.selectFrom('mailboxes').select('email').where('email', 'in', chunk).execute(),
      ]);
      for (const a of aliases) taken.set(a.source, `source: ${mailMessages.aliasExists(a.source)}`);
      for (const m of mailboxes) taken.set(m.email, `source: ${mailMessages.aliasIsMailbox(m.email)}`);
    }
    const graph = new AliasGraph(trx);
    const free = candidates.filter((c) => {
      const reason = taken.get(c.source);
      if (reason) errors.push({ row: c.row, message: reason });
      return !reason;
    });
    // Sources being imported are not in the database yet: they start as "no alias" until accepted.
    for (const c of free) graph.set(c.source, []);
    await graph.preload(free.flatMap((c) => splitDestinations(c.destination)));
    const accepted: Candidate[] = [];
    for (const c of free) {
      const dests = splitDestinations(c.destination);
      const chain = await graph.findLoop(c.source, dests);
      if (chain) {
        errors.push({ row: c.row, message: `destination: ${mailMessages.aliasLoop(chain)}` });
        continue;
      }
      graph.set(c.source, dests);
      accepted.push(c);
    }
    errors.sort((a, b) => a.row - b.row);
    let newDomains: string[] = [];
    if (!dryRun && accepted.length) {
      await insertAliases(trx, accepted);
      const counts = new Map<string, { mailboxes: number; aliases: number }>();
      for (const c of accepted) {
        const e = counts.get(c.domain) ?? { mailboxes: 0, aliases: 0 };
        e.aliases++;
        counts.set(c.domain, e);
      }
      newDomains = await countIntoDomains(trx, counts);
    }
    return { imported: accepted.length, skipped, errors, dryRun, newDomains };
  };

  return dryRun ? run(db) : db.transaction().execute(run);
}

/** Many rows per statement: `unnest` arrays on PostgreSQL, multi-row VALUES on SQLite. */
async function insertAliases(db: Db, rows: Candidate[]): Promise<void> {
  const now = new Date().toISOString();
  if (isPostgres(db as unknown as Kysely<unknown>)) {
    for (let i = 0; i < rows.length; i += 20_000) {
      const chunk = rows.slice(i, i + 20_000);
      await sql`
        insert into mail_aliases (source, domain, destination, status, created_at, updated_at)
        select s, d, t, st, ${now}, ${now}
        from unnest(${chunk.map((c) => c.source)}::text[], ${chunk.map((c) => c.domain)}::text[],
                    ${chunk.map((c) => c.destination)}::text[], ${chunk.map((c) => c.status)}::text[]) as x(s, d, t, st)
      `.execute(db);
    }
    return;
  }
  for (let i = 0; i < rows.length; i += 2000) {
    const chunk = rows.slice(i, i + 2000);
    await db
      .insertInto('mail_aliases')
      .values(
        chunk.map((c) => ({
          source: c.source,
          domain: c.domain,
          destination: c.destination,
          status: c.status,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}
