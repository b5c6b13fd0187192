import {
  type PhpLimits,
  VHOST_LIST_DEFAULT_LIMIT,
  type VhostListQuery,
  type VirtualHost,
  type VirtualHostValues,
} from '@mailroom/contract/web/vhosts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebVhostTable } from '../../../db/web.tables.ts';
import { keysetAfter, keysetOrderBy, keysetPage, type KeysetOrder } from '../../../db/keyset.ts';
import {
  type CursorPage,
  decodeCursor,
  type KeyValue,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';

type Db = Kysely<Database>;
export type VhostRow = Selectable<WebVhostTable>;

/** The JSON part of a row: every field that is not a column. */
type Fields = Omit<VirtualHostValues, 'domain' | 'documentRoot' | 'status'>;

export interface VhostFigures {
  traffic: number;
  responseTime: number | null;
}

/** Row -> the stored values (what the renderer and the service work with). */
export function rowValues(r: VhostRow): VirtualHostValues {
  const f = JSON.parse(r.fields) as Fields;
  return {
    ...f,
    domain: r.domain,
    documentRoot: r.document_root,
    status: r.status as VirtualHostValues['status'],
  };
}

/** Row -> the API's virtual host. */
export function toVirtualHost(
  r: VhostRow,
  extra: { figures?: VhostFigures; siteUser: string; live: boolean },
): VirtualHost {
  const v = rowValues(r);
  return {
    ...v,
    id: Number(r.id),
    sslPort: v.sslPort ?? null,
    lastModified: r.updated_at,
    traffic: extra.figures?.traffic ?? 0,
    responseTime: extra.figures?.responseTime ?? null,
    siteUser: extra.siteUser,
    live: extra.live,
  };
}

function columns(v: VirtualHostValues, now: string) {
  const { domain, documentRoot, status, ...rest } = v;
  return {
    domain,
    document_root: documentRoot,
    status,
    search: `${domain} ${documentRoot}`.toLowerCase(),
    fields: JSON.stringify(rest),
    updated_at: now,
  };
}

/** Every name a host answers to (what must belong to one host only). */
export const hostNames = (v: VirtualHostValues) => [...new Set([v.domain, v.serverName, ...v.serverAlias])];

export async function findByDomain(db: Db, domain: string): Promise<VhostRow | undefined> {
  return db.selectFrom('web_vhosts').selectAll().where('domain', '=', domain).executeTakeFirst();
}

export async function findById(db: Db, id: number): Promise<VhostRow | undefined> {
  return db.selectFrom('web_vhosts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The host that already answers one of these names (other than `exceptId`). */
export async function nameOwner(
  db: Db,
  names: string[],
  exceptId: number | null,
): Promise<{ name: string; domain: string } | undefined> {
  if (!names.length) return undefined;
  let q = db
    .selectFrom('web_vhost_names as n')
    .innerJoin('web_vhosts as v', 'v.id', 'n.vhost_id')
    .select(['n.name as name', 'v.domain as domain'])
    .where('n.name', 'in', names);
  if (exceptId !== null) q = q.where('n.vhost_id', '!=', exceptId);
  return q.executeTakeFirst();
}

async function writeNames(db: Db, id: number, v: VirtualHostValues): Promise<void> {
  await db.deleteFrom('web_vhost_names').where('vhost_id', '=', id).execute();
  await db
    .insertInto('web_vhost_names')
    .values(hostNames(v).map((name) => ({ name, vhost_id: id })))
    .execute();
}

export async function insertVhost(db: Db, v: VirtualHostValues): Promise<VhostRow> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('web_vhosts')
    .values({ ...columns(v, now), created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeNames(db, Number(row.id), v);
  return row;
}

export async function updateVhost(db: Db, id: number, v: VirtualHostValues): Promise<VhostRow> {
  const row = await db
    .updateTable('web_vhosts')
    .set(columns(v, new Date().toISOString()))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeNames(db, id, v);
  return row;
}

export async function deleteVhost(db: Db, id: number): Promise<void> {
  await db.deleteFrom('web_vhost_names').where('vhost_id', '=', id).execute();
  await db.deleteFrom('web_vhosts').where('id', '=', id).execute();
}

/** The hosts with Enable PHP and their PHP limits (the server-wide ceiling's check). */
export async function phpHostLimits(db: Db): Promise<(PhpLimits & { domain: string })[]> {
  return (await allVhosts(db)).flatMap((r) => {
    const v = rowValues(r);
    if (!v.enablePhp) return [];
    const { domain, phpMemoryLimit, phpMaxExecutionTime, phpUploadMaxFilesize, phpPostMaxSize } = v;
    return [{ domain, phpMemoryLimit, phpMaxExecutionTime, phpUploadMaxFilesize, phpPostMaxSize }];
  });
}

export async function allVhosts(db: Db): Promise<VhostRow[]> {
  return db.selectFrom('web_vhosts').selectAll().orderBy('domain').execute();
}

export async function vhostCounts(db: Db): Promise<{ total: number; active: number; ssl: number }> {
  const rows = await db.selectFrom('web_vhosts').select(['status', 'fields']).execute();
  let active = 0;
  let ssl = 0;
  for (const r of rows) {
    if (r.status === 'active') active++;
    if ((JSON.parse(r.fields) as Fields).sslEnabled) ssl++;
  }
  return { total: rows.length, active, ssl };
}

const SORT_COLUMNS = {
  domain: sql.ref('domain'),
  documentRoot: sql.ref('document_root'),
  status: sql.ref('status'),
  lastModified: sql.ref('updated_at'),
} as const;

/**
 * A page of virtual hosts: `q` matches domain or document root (case-insensitive, anywhere),
 * `status` filters; keyset paging by `cursor` (sort value, id), or an offset.
 */
export async function listVhostRows(
  db: Db,
  query: VhostListQuery & { limit?: number; offset?: number },
  scope: readonly string[] | null,
): Promise<CursorPage<VhostRow>> {
  refuseCursorWithOffset(query);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  const sort = query.sort ?? 'domain';
  const key = sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS;
  const order: KeysetOrder = { keys: [SORT_COLUMNS[key], sql.ref('id')], desc: sort.startsWith('-') };
  const limit = query.limit ?? VHOST_LIST_DEFAULT_LIMIT;
  const q = query.q?.trim().toLowerCase();
  const where = sql.join(
    [
      sql`1 = 1`,
      ...(query.status ? [sql`status = ${query.status}`] : []),
      ...(q ? [sql`search like ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`] : []),
      ...(scope !== null ? [sql`domain in (${sql.join(scope)})`] : []),
    ],
    sql` and `,
  );
  const total = Number(
    (await sql<{ n: number }>`select count(*) as n from web_vhosts where ${where}`.execute(db)).rows[0]?.n ??
      0,
  );
  const keysOf = (r: VhostRow): KeyValue[] => [
    key === 'domain'
      ? r.domain
      : key === 'documentRoot'
        ? r.document_root
        : key === 'status'
          ? r.status
          : r.updated_at,
    Number(r.id),
  ];
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor, sort, ['string', 'number']);
    const before = cursor.dir === 'before';
    const rows = (
      await sql<VhostRow>`select * from web_vhosts where ${where} and ${keysetAfter(order, cursor.keys, before)}
        order by ${keysetOrderBy(order, before)} limit ${limit + 1}`.execute(db)
    ).rows;
    const page = keysetPage(rows, limit, before);
    const has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
    return { items: page.rows, total, ...neighbourCursors(sort, page.rows.map(keysOf), has) };
  }
  const offset = query.offset ?? 0;
  const rows = (
    await sql<VhostRow>`select * from web_vhosts where ${where}
      order by ${keysetOrderBy(order, false)} limit ${limit} offset ${offset}`.execute(db)
  ).rows;
  const has = { next: offset + rows.length < total, prev: offset > 0 };
  return { items: rows, total, ...neighbourCursors(sort, rows.map(keysOf), has) };
}
