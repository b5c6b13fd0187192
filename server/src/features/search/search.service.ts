import {
  SEARCH_DEFAULT_PER_GROUP,
  SEARCH_GROUP_LABELS,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SearchResponse,
} from '@mailroom/contract/search';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;
/** A domain administrator's domains (null: everything). */
type Scope = readonly string[] | null;

/**
 * Bounds of a case-folded prefix: `lo <= v < hi` is an index range on bytewise-sorted text
 * (SQLite's BINARY, PostgreSQL's "C" collation), never a LIKE that scans.
 */
export function prefixBounds(q: string): [string, string] {
  const lo = q.trim().toLowerCase();
  return [lo, `${lo}\u{10FFFF}`];
}

const enc = encodeURIComponent;
const MB = 1024 * 1024;

/** The text a zone or record name is matched on: lower-cased, compared bytewise (migration 0017). */
function folded(db: Db, column: string): RawBuilder<string> {
  return isPostgres(db as unknown as Kysely<unknown>)
    ? sql<string>`(lower(${sql.ref(column)}) collate "C")`
    : sql<string>`lower(${sql.ref(column)})`;
}

async function mailboxes(db: Db, lo: string, hi: string, n: number, scope: Scope): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('mailboxes')
    .select(['email', 'quota', 'status'])
    .where('email', '>=', lo)
    .where('email', '<', hi)
    .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
    .orderBy('email')
    .limit(n)
    .execute();
  return rows.map((r) => {
    const quota = Number(r.quota);
    return {
      kind: 'mailbox' as const,
      title: r.email,
      description: `Mailbox · ${quota === 0 ? 'Unlimited' : `${Math.round(quota / MB)} MB`}${r.status === 'active' ? '' : ` · ${r.status}`}`,
      path: `/mail/mailboxes?q=${enc(r.email)}`,
    };
  });
}

async function aliases(db: Db, lo: string, hi: string, n: number, scope: Scope): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('mail_aliases')
    .select(['source', 'destination'])
    .where('source', '>=', lo)
    .where('source', '<', hi)
    .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
    .orderBy('source')
    .limit(n)
    .execute();
  return rows.map((r) => ({
    kind: 'alias' as const,
    title: r.source,
    description: `Alias → ${r.destination.length > 80 ? `${r.destination.slice(0, 77)}...` : r.destination}`,
    path: `/mail/aliases?q=${enc(r.source)}`,
  }));
}

async function domains(db: Db, lo: string, hi: string, n: number, scope: Scope): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('mail_domains')
    .select(['domain', 'mailbox_count', 'alias_count'])
    .where('domain', '>=', lo)
    .where('domain', '<', hi)
    .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
    .orderBy('domain')
    .limit(n)
    .execute();
  return rows.map((r) => ({
    kind: 'domain' as const,
    title: r.domain,
    description: `Mail domain · ${Number(r.mailbox_count)} mailboxes · ${Number(r.alias_count)} aliases`,
    path: `/mail/domains?q=${enc(r.domain)}`,
  }));
}

async function zones(db: Db, lo: string, hi: string, n: number, scope: Scope): Promise<SearchHit[]> {
  const key = folded(db, 'domain');
  const rows = await db
    .selectFrom('dns_zones')
    .select(['domain', 'zone_type', 'record_count'])
    .where(sql<boolean>`${key} >= ${lo} and ${key} < ${hi}`)
    .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
    .orderBy(key)
    .limit(n)
    .execute();
  return rows.map((r) => ({
    kind: 'zone' as const,
    title: r.domain,
    description: `DNS zone · ${r.zone_type} · ${Number(r.record_count)} records`,
    path: `/dns/zones/${enc(r.domain)}`,
  }));
}

async function records(db: Db, lo: string, hi: string, n: number, scope: Scope): Promise<SearchHit[]> {
  const key = folded(db, 'qname');
  const rows = await db
    .selectFrom('dns_records')
    .select(['id', 'zone', 'qname', 'rtype', 'value'])
    .where(sql<boolean>`${key} >= ${lo} and ${key} < ${hi}`)
    .$if(scope !== null, (b) => b.where('zone', 'in', scope!))
    .orderBy(key)
    .orderBy('id')
    .limit(n)
    .execute();
  return rows.map((r) => {
    const name = r.qname === '@' ? r.zone : `${r.qname}.${r.zone}`;
    const value = r.value.length > 60 ? `${r.value.slice(0, 57)}...` : r.value;
    return {
      kind: 'record' as const,
      title: name,
      description: `${r.rtype} record · ${value}`,
      path: `/dns/records?zone=${enc(r.zone)}&q=${enc(r.qname)}`,
    };
  });
}

const FINDERS: Record<
  SearchKind,
  (db: Db, lo: string, hi: string, n: number, scope: Scope) => Promise<SearchHit[]>
> = {
  mailbox: mailboxes,
  alias: aliases,
  domain: domains,
  zone: zones,
  record: records,
};

/**
 * The global search (issue 12): what starts with `q` in each group, at most `limit` per group
 * (one more is read to say there are more). Each group is one index range read.
 */
export async function search(
  db: Db,
  q: string,
  limit = SEARCH_DEFAULT_PER_GROUP,
  scope: Scope = null,
): Promise<SearchResponse> {
  const [lo, hi] = prefixBounds(q);
  const kinds = Object.keys(FINDERS) as SearchKind[];
  if (scope !== null && !scope.length) return { q: q.trim(), groups: [] };
  const found = await Promise.all(kinds.map((k) => FINDERS[k](db, lo, hi, limit + 1, scope)));
  const groups: SearchGroup[] = [];
  kinds.forEach((kind, i) => {
    const hits = found[i] ?? [];
    if (hits.length === 0) return;
    groups.push({
      kind,
      label: SEARCH_GROUP_LABELS[kind],
      hits: hits.slice(0, limit),
      more: hits.length > limit,
    });
  });
  return { q: q.trim(), groups };
}
