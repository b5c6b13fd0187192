import type { ApiKeyFigures, ApiKeyView } from '@mailroom/contract/api-monitoring';
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyTable } from '../../db/api-monitoring.tables.ts';
import type { Database } from '../../db/schema.ts';

export type ApiKeyRow = Selectable<ApiKeyTable>;

const list = (v: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
};

export const keyAreas = (r: ApiKeyRow) => list(r.areas);
export const keyDomains = (r: ApiKeyRow) => list(r.domains);
export const keyAllowed = (r: ApiKeyRow) => list(r.allowed);

const iso = (v: number | null) => (v === null ? null : new Date(Number(v)).toISOString());

export function keyStatus(r: ApiKeyRow, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (r.revoked_at !== null) return 'revoked';
  if (r.expires_at !== null && Number(r.expires_at) <= now) return 'expired';
  return 'active';
}

export function toKeyView(
  r: ApiKeyRow,
  buckets: { minute: number; hour: number; limited: boolean },
  figures: ApiKeyFigures,
): ApiKeyView {
  return {
    id: Number(r.id),
    name: r.name,
    prefix: r.prefix,
    access: r.access === 'read-write' ? 'read-write' : 'read',
    areas: keyAreas(r) as ApiKeyView['areas'],
    domains: keyDomains(r),
    allowedAddresses: keyAllowed(r),
    createdAt: iso(r.created_at)!,
    createdBy: r.created_by,
    expiresAt: iso(r.expires_at) ?? '',
    revokedAt: iso(r.revoked_at),
    lastUsedAt: iso(r.last_used_at),
    lastIp: r.last_ip,
    status: keyStatus(r),
    requests: Number(r.requests),
    errors: Number(r.errors),
    currentMinute: buckets.minute,
    currentHour: buckets.hour,
    rateLimited: buckets.limited,
    figures,
  };
}

export async function findKeyByHash(db: Kysely<Database>, hash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('token_hash', '=', hash).executeTakeFirst();
}

export async function findKey(db: Kysely<Database>, id: number): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listKeys(db: Kysely<Database>): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('id', 'desc').limit(500).execute();
}

export async function keyNameTaken(db: Kysely<Database>, name: string): Promise<boolean> {
  const r = await db.selectFrom('api_keys').select('id').where('name', '=', name).executeTakeFirst();
  return r !== undefined;
}

export async function insertKey(
  db: Kysely<Database>,
  k: {
    name: string;
    hash: string;
    prefix: string;
    access: string;
    areas: string[];
    domains: string[];
    allowed: string[];
    expiresAt: number;
    createdBy: string;
    now: number;
  },
): Promise<number> {
  const r = await db
    .insertInto('api_keys')
    .values({
      name: k.name,
      token_hash: k.hash,
      prefix: k.prefix,
      access: k.access,
      areas: JSON.stringify(k.areas),
      domains: JSON.stringify(k.domains),
      allowed: JSON.stringify(k.allowed),
      expires_at: k.expiresAt,
      created_at: k.now,
      created_by: k.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function revokeKey(db: Kysely<Database>, id: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** One call of a key: its last use and its counts. */
export async function noteKeyUse(
  db: Kysely<Database>,
  id: number,
  ip: string,
  failed: boolean,
  now: number,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set((eb) => ({
      last_used_at: now,
      last_ip: ip,
      requests: eb('requests', '+', 1),
      errors: eb('errors', '+', failed ? 1 : 0),
    }))
    .where('id', '=', id)
    .execute();
}

export async function readMetricsAccess(
  db: Kysely<Database>,
): Promise<{ protected: boolean; allowed: string[] }> {
  const r = await db
    .selectFrom('api_settings')
    .select(['metrics_protected', 'metrics_allowed'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { protected: Number(r.metrics_protected) === 1, allowed: list(r.metrics_allowed) };
}

export async function writeMetricsAccess(
  db: Kysely<Database>,
  a: { protected: boolean; allowed: string[] },
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('api_settings')
    .set({
      metrics_protected: a.protected ? 1 : 0,
      metrics_allowed: JSON.stringify(a.allowed),
      updated_at: now,
    })
    .where('id', '=', 1)
    .execute();
}
