import {
  ANGULAR_OUTPUT_DIR,
  APP_LIST_DEFAULT_LIMIT,
  type AppListQuery,
  type AppStatus,
  isPhpAppType,
  type WebApplicationValues,
} from '@mailroom/contract/web/applications';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebAppTable } from '../../../db/web.tables.ts';
import { keysetAfter, keysetOrderBy, keysetPage, type KeysetOrder } from '../../../db/keyset.ts';
import {
  type CursorPage,
  decodeCursor,
  type KeyValue,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';

type Db = Kysely<Database>;
export type AppRow = Selectable<WebAppTable>;
/** The stored config without its environment (which is sealed apart). */
export type AppConfig = Omit<WebApplicationValues, 'customEnvironmentVariables'>;
type Fields = Omit<AppConfig, 'name' | 'domain' | 'type'>;

export function rowConfig(r: AppRow): AppConfig {
  const f = JSON.parse(r.fields) as Fields;
  return { ...f, name: r.name, domain: r.domain, type: r.type as AppConfig['type'] };
}

function columns(v: AppConfig, now: string) {
  const { name, domain, type, ...rest } = v;
  return {
    name,
    domain,
    type,
    search: `${name} ${domain} ${v.description}`.toLowerCase(),
    fields: JSON.stringify(rest),
    updated_at: now,
  };
}

export async function findAppByName(db: Db, name: string): Promise<AppRow | undefined> {
  return db.selectFrom('web_apps').selectAll().where('name', '=', name).executeTakeFirst();
}
export async function findAppById(db: Db, id: number): Promise<AppRow | undefined> {
  return db.selectFrom('web_apps').selectAll().where('id', '=', id).executeTakeFirst();
}
export async function findAppByDomain(db: Db, domain: string): Promise<AppRow | undefined> {
  return db.selectFrom('web_apps').selectAll().where('domain', '=', domain).executeTakeFirst();
}
export async function findAppByVhost(db: Db, vhostId: number): Promise<AppRow | undefined> {
  return db.selectFrom('web_apps').selectAll().where('vhost_id', '=', vhostId).executeTakeFirst();
}

export async function insertApp(
  db: Db,
  v: AppConfig,
  vhostId: number,
  env: { sealed: string; names: string[] },
): Promise<AppRow> {
  const now = new Date().toISOString();
  return db
    .insertInto('web_apps')
    .values({
      ...columns(v, now),
      vhost_id: vhostId,
      status: 'inactive',
      env_sealed: env.sealed,
      env_names: JSON.stringify(env.names),
      status_message: '',
      current_release_id: null,
      running_port: null,
      deploy_job_id: null,
      last_deployed: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAppConfig(
  db: Db,
  id: number,
  v: AppConfig,
  env: { sealed: string; names: string[] },
): Promise<AppRow> {
  return db
    .updateTable('web_apps')
    .set({
      ...columns(v, new Date().toISOString()),
      env_sealed: env.sealed,
      env_names: JSON.stringify(env.names),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The runtime columns a deploy, start or stop changes. */
export interface AppRuntimePatch {
  status?: AppStatus;
  status_message?: string;
  current_release_id?: number | null;
  running_port?: number | null;
  /** JSON array of every running instance's port (set with running_port). */
  instance_ports?: string;
  deploy_job_id?: number | null;
  last_deployed?: string | null;
}

export async function patchAppRuntime(db: Db, id: number, patch: AppRuntimePatch): Promise<AppRow> {
  return db
    .updateTable('web_apps')
    .set({ ...patch, updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteApp(db: Db, id: number): Promise<void> {
  await db.deleteFrom('web_app_log_lines').where('app_id', '=', id).execute();
  await db.deleteFrom('web_app_metrics').where('app_id', '=', id).execute();
  await db.deleteFrom('web_app_releases').where('app_id', '=', id).execute();
  await db.deleteFrom('web_app_hook_deliveries').where('app_id', '=', id).execute();
  await db.deleteFrom('web_app_hooks').where('app_id', '=', id).execute();
  await db.deleteFrom('web_apps').where('id', '=', id).execute();
}

/** The applications in these states (`running`: only those with a release on a port). */
export async function appsWithStatus(
  db: Db,
  states: string[],
  opts: { running?: boolean } = {},
): Promise<AppRow[]> {
  let q = db.selectFrom('web_apps').selectAll().where('status', 'in', states);
  if (opts.running) q = q.where('running_port', 'is not', null);
  return q.execute();
}

export async function allApps(db: Db): Promise<AppRow[]> {
  return db.selectFrom('web_apps').selectAll().orderBy('name').execute();
}

export async function appCounts(db: Db): Promise<{ total: number; active: number }> {
  const rows = await db
    .selectFrom('web_apps')
    .select(['status', sql<number>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  let total = 0;
  let active = 0;
  for (const r of rows) {
    total += Number(r.n);
    if (r.status === 'active') active += Number(r.n);
  }
  return { total, active };
}

/** What the vhost renderer needs of the app behind a host: proxy to a port or serve a release folder. */
export interface AppServe {
  type: string;
  status: string;
  runningPort: number | null;
  releasePath: string | null;
  /** Enable Load Balancing: every running instance's port (null: one ProxyPass to runningPort). */
  balancerPorts?: number[] | null;
  /**
   * A PHP type (served as files, `type` 'Static'): its own PHP-FPM pool runs as the app's user with
   * the app's Memory Limit; `envSealed` is the live release's environment (else the app's own).
   */
  php?: { appName: string; memoryLimit: string; envSealed: string } | null;
}

/** The ports of a row's running instances (migration 0041; first = running_port). */
export function instancePorts(r: Pick<AppRow, 'instance_ports'>): number[] {
  try {
    const v = JSON.parse(r.instance_ports) as unknown;
    return Array.isArray(v) ? v.filter((p): p is number => Number.isInteger(p)) : [];
  } catch {
    return [];
  }
}

export async function appServeByVhost(db: Db): Promise<Map<number, AppServe>> {
  const rows = await db
    .selectFrom('web_apps as a')
    .leftJoin('web_app_releases as r', 'r.id', 'a.current_release_id')
    .select([
      'a.vhost_id',
      'a.name',
      'a.type',
      'a.status',
      'a.running_port',
      'a.instance_ports',
      'a.fields',
      'a.env_sealed',
      'r.path',
      'r.env_sealed as release_env',
    ])
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.vhost_id),
      // Angular is files Apache serves, like Static, from the build's output folder.
      r.type === 'Angular'
        ? {
            type: 'Static',
            status: r.status,
            runningPort: null,
            releasePath: r.path ? `${r.path}/${ANGULAR_OUTPUT_DIR}` : null,
          }
        : isPhpAppType(r.type)
          ? {
              type: 'Static',
              status: r.status,
              runningPort: null,
              releasePath: r.path ?? null,
              php: {
                appName: r.name,
                memoryLimit: (JSON.parse(r.fields) as Fields).memoryLimit,
                envSealed: r.release_env ?? r.env_sealed,
              },
            }
          : {
              type: r.type,
              status: r.status,
              runningPort: r.running_port === null ? null : Number(r.running_port),
              releasePath: r.path ?? null,
              balancerPorts:
                r.running_port !== null && (JSON.parse(r.fields) as Fields).enableLoadBalancing
                  ? instancePorts(r)
                  : null,
            },
    ]),
  );
}

const SORT_COLUMNS = {
  name: sql.ref('name'),
  domain: sql.ref('domain'),
  type: sql.ref('type'),
  status: sql.ref('status'),
  lastDeployed: sql`coalesce(last_deployed, '')`,
} as const;

/**
 * A page of applications: `q` matches name, domain or description (case-insensitive, anywhere),
 * `type` and `status` filter; keyset paging by `cursor` (sort value, id), or an offset.
 */
export async function listAppRows(
  db: Db,
  query: AppListQuery & { limit?: number; offset?: number },
): Promise<CursorPage<AppRow>> {
  refuseCursorWithOffset(query);
  const sort = query.sort ?? 'name';
  const key = sort.replace(/^-/, '') as keyof typeof SORT_COLUMNS;
  const order: KeysetOrder = { keys: [SORT_COLUMNS[key], sql.ref('id')], desc: sort.startsWith('-') };
  const limit = query.limit ?? APP_LIST_DEFAULT_LIMIT;
  const q = query.q?.trim().toLowerCase();
  const where = sql.join(
    [
      sql`1 = 1`,
      ...(query.status ? [sql`status = ${query.status}`] : []),
      ...(query.type ? [sql`type = ${query.type}`] : []),
      ...(q ? [sql`search like ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`] : []),
    ],
    sql` and `,
  );
  const total = Number(
    (await sql<{ n: number }>`select count(*) as n from web_apps where ${where}`.execute(db)).rows[0]?.n ?? 0,
  );
  const keysOf = (r: AppRow): KeyValue[] => [
    key === 'lastDeployed' ? (r.last_deployed ?? '') : String(r[key]),
    Number(r.id),
  ];
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor, sort, ['string', 'number']);
    const before = cursor.dir === 'before';
    const rows = (
      await sql<AppRow>`select * from web_apps where ${where} and ${keysetAfter(order, cursor.keys, before)}
        order by ${keysetOrderBy(order, before)} limit ${limit + 1}`.execute(db)
    ).rows;
    const page = keysetPage(rows, limit, before);
    const has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
    return { items: page.rows, total, ...neighbourCursors(sort, page.rows.map(keysOf), has) };
  }
  const offset = query.offset ?? 0;
  const rows = (
    await sql<AppRow>`select * from web_apps where ${where}
      order by ${keysetOrderBy(order, false)} limit ${limit} offset ${offset}`.execute(db)
  ).rows;
  const has = { next: offset + rows.length < total, prev: offset > 0 };
  return { items: rows, total, ...neighbourCursors(sort, rows.map(keysOf), has) };
}
