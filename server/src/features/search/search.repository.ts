import {
  SEARCH_DEFAULT_PER_GROUP,
  SEARCH_GROUP_LABELS,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SearchResponse,
} from '@mailroom/contract/search';
import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

/**
 * The global search's read model: one index range read per group over the mail and DNS areas'
 * tables (one statement on PostgreSQL), each row mapped to its hit. Read-only; the tables' writes
 * stay with their owners.
 */

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

type Row = Record<string, unknown>;
const str = (v: unknown) => String(v);

/** One group: its query (an index range read, LIMIT inside) and how a row becomes a hit. */
interface Finder {
  query(db: Db, lo: string, hi: string, n: number, scope: Scope): Compilable;
  hit(row: Row): SearchHit;
}
type Compilable = Expression<unknown> & { execute(): Promise<Row[]> };

const FINDERS: Record<SearchKind, Finder> = {
  mailbox: {
    query: (db, lo, hi, n, scope) =>
      db
        .selectFrom('mailboxes')
        .select(['email', 'quota', 'status'])
        .where('email', '>=', lo)
        .where('email', '<', hi)
        .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
        .orderBy('email')
        .limit(n),
    hit: (r) => {
      const quota = Number(r.quota);
      const email = str(r.email);
      return {
        kind: 'mailbox',
        title: email,
        description: `Mailbox · ${quota === 0 ? 'Unlimited' : `${Math.round(quota / MB)} MB`}${r.status === 'active' ? '' : ` · ${str(r.status)}`}`,
        path: `/mail/mailboxes?q=${enc(email)}`,
      };
    },
  },
  alias: {
    query: (db, lo, hi, n, scope) =>
      db
        .selectFrom('mail_aliases')
        .select(['source', 'destination'])
        .where('source', '>=', lo)
        .where('source', '<', hi)
        .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
        .orderBy('source')
        .limit(n),
    hit: (r) => {
      const source = str(r.source);
      const destination = str(r.destination);
      return {
        kind: 'alias',
        title: source,
        description: `Alias → ${destination.length > 80 ? `${destination.slice(0, 77)}...` : destination}`,
        path: `/mail/aliases?q=${enc(source)}`,
      };
    },
  },
  domain: {
    query: (db, lo, hi, n, scope) =>
      db
        .selectFrom('mail_domains')
        .select(['domain', 'mailbox_count', 'alias_count'])
        .where('domain', '>=', lo)
        .where('domain', '<', hi)
        .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
        .orderBy('domain')
        .limit(n),
    hit: (r) => ({
      kind: 'domain',
      title: str(r.domain),
      description: `Mail domain · ${Number(r.mailbox_count)} mailboxes · ${Number(r.alias_count)} aliases`,
      path: `/mail/domains?q=${enc(str(r.domain))}`,
    }),
  },
  zone: {
    query: (db, lo, hi, n, scope) => {
      const key = folded(db, 'domain');
      return db
        .selectFrom('dns_zones')
        .select(['domain', 'zone_type', 'record_count'])
        .where(sql<boolean>`${key} >= ${lo} and ${key} < ${hi}`)
        .$if(scope !== null, (b) => b.where('domain', 'in', scope!))
        .orderBy(key)
        .limit(n);
    },
    hit: (r) => ({
      kind: 'zone',
      title: str(r.domain),
      description: `DNS zone · ${str(r.zone_type)} · ${Number(r.record_count)} records`,
      path: `/dns/zones/${enc(str(r.domain))}`,
    }),
  },
  record: {
    query: (db, lo, hi, n, scope) => {
      const key = folded(db, 'qname');
      return db
        .selectFrom('dns_records')
        .select(['id', 'zone', 'qname', 'rtype', 'value'])
        .where(sql<boolean>`${key} >= ${lo} and ${key} < ${hi}`)
        .$if(scope !== null, (b) => b.where('zone', 'in', scope!))
        .orderBy(key)
        .orderBy('id')
        .limit(n);
    },
    hit: (r) => {
      const zone = str(r.zone);
      const qname = str(r.qname);
      const raw = str(r.value);
      const value = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
      return {
        kind: 'record',
        title: qname === '@' ? zone : `${qname}.${zone}`,
        description: `${str(r.rtype)} record · ${value}`,
        path: `/dns/records?zone=${enc(zone)}&q=${enc(qname)}`,
      };
    },
  },
};

const KINDS = Object.keys(FINDERS) as SearchKind[];

/** Each group's query, as run (exported for the plan test: every one must be an index range read). */
export function searchQueries(
  db: Db,
  q: string,
  n: number,
  scope: Scope = null,
): Record<SearchKind, Compilable> {
  const [lo, hi] = prefixBounds(q);
  return Object.fromEntries(KINDS.map((k) => [k, FINDERS[k].query(db, lo, hi, n, scope)])) as Record<
    SearchKind,
    Compilable
  >;
}

/**
 * The rows of every group. PostgreSQL: one statement, each group an ordered, limited subquery
 * turned into a JSON array (ARRAY(subquery) keeps the subquery's order), so a search is one round
 * trip on one connection instead of five. SQLite runs in this process: one query after another.
 */
async function readGroups(db: Db, q: string, n: number, scope: Scope): Promise<Row[][]> {
  const queries = searchQueries(db, q, n, scope);
  if (!isPostgres(db as unknown as Kysely<unknown>))
    return Promise.all(KINDS.map((k) => queries[k].execute()));
  const columns = KINDS.map(
    (k) => sql`array_to_json(array(select row_to_json(t) from (${queries[k]}) t)) as ${sql.ref(k)}`,
  );
  const { rows } = await sql<Record<SearchKind, Row[]>>`select ${sql.join(columns)}`.execute(db);
  const row = rows[0];
  return KINDS.map((k) => row?.[k] ?? []);
}

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
  if (scope !== null && !scope.length) return { q: q.trim(), groups: [] };
  const found = await readGroups(db, q, limit + 1, scope);
  const groups: SearchGroup[] = [];
  KINDS.forEach((kind, i) => {
    const rows = found[i] ?? [];
    if (rows.length === 0) return;
    groups.push({
      kind,
      label: SEARCH_GROUP_LABELS[kind],
      hits: rows.slice(0, limit).map((r) => FINDERS[kind].hit(r)),
      more: rows.length > limit,
    });
  });
  return { q: q.trim(), groups };
}
