import { randomBytes } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import {
  type ApiKeyList,
  type ApiKeyView,
  type CreateApiKey,
  type MetricsAccess,
  type StatsWindow,
} from '@mailroom/contract/api-monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, forbidden, notFound, unauthorized } from '../../http/errors.ts';
import { hashToken, type SessionAdmin } from '../../http/sessions.ts';
import {
  type ApiKeyRow,
  findKey,
  findKeyByHash,
  insertKey,
  keyAllowed,
  keyAreas,
  keyDomains,
  keyNameTaken,
  keyStatus,
  listKeys,
  noteKeyUse,
  readMetricsAccess,
  revokeKey,
  toKeyView,
  writeMetricsAccess,
} from './api-key.repository.ts';
import { type ApiSettings, readApiSettings } from './api-settings.repository.ts';
import { keySums } from './api-stats.repository.ts';
import { fromMinute, keyFigures } from './api-stats.service.ts';
import { type BucketState, readBucketsOf } from './rate-bucket.repository.ts';

/** Every API key starts so (a session key never does): the guard knows which table to ask. */
export const API_KEY_PREFIX = 'mrk_';

export const isApiKeyToken = (token: string) => token.startsWith(API_KEY_PREFIX);

/** The principal a request counts as (rate limit buckets, cache entries). */
export const principalOf = (admin: SessionAdmin) =>
  admin.apiKey ? `key:${admin.apiKey.id}` : `admin:${admin.adminId}`;

/**
 * The area a route belongs to for an API key ('any' for the job calls every key may follow), or
 * null when keys never reach it (accounts, MFA, audit, this page, the account's own calls).
 */
export function areaOfRoute(route: string | undefined): string | null {
  if (route === undefined) return null;
  if (route === '/metrics') return 'metrics';
  if (route === '/api/jobs' || route.startsWith('/api/jobs/')) return 'any';
  const m = /^\/api\/(mail|dns|ssl|system)(\/|$)/.exec(route);
  return m ? m[1]! : null;
}

/** Whether `ip` is one of `list` (addresses or CIDR ranges); an empty list allows any address. */
export function addressAllowed(ip: string, list: string[]): boolean {
  if (list.length === 0) return true;
  const plain = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  const type = isIPv4(plain) ? 'ipv4' : isIPv6(plain) ? 'ipv6' : null;
  if (!type) return false;
  const block = new BlockList();
  for (const entry of list) {
    const [addr, bits] = entry.split('/') as [string, string | undefined];
    const t = isIPv4(addr) ? 'ipv4' : isIPv6(addr) ? 'ipv6' : null;
    if (!t) continue;
    try {
      if (bits === undefined) block.addAddress(addr, t);
      else block.addSubnet(addr, Number(bits), t);
    } catch {
      // a malformed range allows nothing
    }
  }
  return block.check(plain, type);
}

/**
 * Authenticates a request that sent an API key: not revoked, not expired, from an allowed
 * address, read-only keys only read, and only the areas it was given. A key with domains acts like
 * a domain administrator of them. Answers the principal the request runs as, or the refusal.
 */
export async function authenticateKey(
  db: Kysely<Database>,
  token: string,
  request: { ip: string; method: string; route: string | undefined },
  now = Date.now(),
): Promise<{ admin: SessionAdmin | null; error: Error | null }> {
  const row = await findKeyByHash(db, hashToken(token));
  if (!row || keyStatus(row, now) !== 'active') return { admin: null, error: unauthorized() };
  const domains = keyDomains(row);
  // The principal is answered with a refusal too, so the refused call is audited under the key's name.
  const admin: SessionAdmin = {
    sessionId: -Number(row.id),
    adminId: 0,
    email: `api-key:${row.name}`,
    scope: null,
    role: domains.length ? 'domain-admin' : 'admin',
    domains,
    mailboxId: null,
    apiKey: { id: Number(row.id), name: row.name },
  };
  if (!addressAllowed(request.ip, keyAllowed(row)))
    return { admin, error: forbidden('This API key may not be used from this address.') };
  const area = areaOfRoute(request.route);
  if (area === null || (area !== 'any' && !keyAreas(row).includes(area)))
    return { admin, error: forbidden('This API key does not cover this part of the API.') };
  const reads = request.method === 'GET' || request.method === 'HEAD';
  if (!reads && row.access !== 'read-write') return { admin, error: forbidden('This API key is read-only.') };
  return { admin, error: null };
}

export async function noteCall(db: Kysely<Database>, id: number, ip: string, status: number): Promise<void> {
  await noteKeyUse(db, id, ip, status >= 500, Date.now());
}

const keyPrincipal = (id: number) => `key:${id}`;

/**
 * The keys with their figures over `window` (per-key roll-ups of every worker), their rate limit
 * buckets against the current limits and their last use: four reads whatever the number of keys.
 */
async function views(
  db: Kysely<Database>,
  rows: ApiKeyRow[],
  window: StatsWindow,
  now: number,
): Promise<{ keys: ApiKeyView[]; settings: ApiSettings }> {
  const [sums, settings, buckets] = await Promise.all([
    keySums(db, fromMinute(window, now)),
    readApiSettings(db),
    readBucketsOf(
      db,
      rows.map((r) => keyPrincipal(Number(r.id))),
      now,
    ),
  ]);
  const byKey = new Map(sums.map((s) => [s.keyId, s]));
  const keys = rows.map((r) => {
    const b: Pick<BucketState, 'minuteHits' | 'hourHits'> = buckets.get(keyPrincipal(Number(r.id))) ?? {
      minuteHits: 0,
      hourHits: 0,
    };
    const limited =
      settings.rateEnabled && (b.minuteHits >= settings.ratePerMinute || b.hourHits >= settings.ratePerHour);
    return toKeyView(
      r,
      { minute: b.minuteHits, hour: b.hourHits, limited },
      keyFigures(window, byKey.get(Number(r.id))),
    );
  });
  return { keys, settings };
}

async function view(db: Kysely<Database>, r: ApiKeyRow, now: number): Promise<ApiKeyView> {
  return (await views(db, [r], '24h', now)).keys[0]!;
}

export async function listApiKeys(db: Kysely<Database>, window: StatsWindow = '24h'): Promise<ApiKeyList> {
  const now = Date.now();
  const { keys, settings } = await views(db, await listKeys(db), window, now);
  return {
    keys,
    rateLimit: {
      enabled: settings.rateEnabled,
      requestsPerMinute: settings.ratePerMinute,
      requestsPerHour: settings.ratePerHour,
    },
  };
}

export async function createApiKey(
  db: Kysely<Database>,
  input: CreateApiKey,
  createdBy: string,
): Promise<{ key: ApiKeyView; token: string }> {
  if (await keyNameTaken(db, input.name)) throw conflict('An API key with this name already exists.');
  if (input.areas.includes('metrics') && input.domains.length)
    throw fieldError('domains', 'A key limited to domains cannot read /metrics.');
  const token = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = Date.now();
  const id = await insertKey(db, {
    name: input.name,
    hash: hashToken(token),
    prefix: token.slice(0, API_KEY_PREFIX.length + 6),
    access: input.access,
    areas: [...new Set(input.areas)],
    domains: [...new Set(input.domains)],
    allowed: input.allowedAddresses,
    expiresAt: now + input.expiresInDays * 86_400_000,
    createdBy,
    now,
  });
  const row = await findKey(db, id);
  return { key: await view(db, row!, now), token };
}

export async function revokeApiKey(db: Kysely<Database>, id: number): Promise<ApiKeyView> {
  const now = Date.now();
  const row = await findKey(db, id);
  if (!row) throw notFound('API key not found.');
  await revokeKey(db, id, now);
  return view(db, (await findKey(db, id))!, now);
}

export async function metricsAccess(db: Kysely<Database>): Promise<MetricsAccess> {
  const a = await readMetricsAccess(db);
  return { protected: a.protected, allowedAddresses: a.allowed };
}

/** Saves who may read /metrics; `applied` takes the new settings in this process at once. */
export async function saveMetricsAccess(
  db: Kysely<Database>,
  input: MetricsAccess,
  applied: (settings: ApiSettings) => void,
): Promise<{ before: MetricsAccess; after: MetricsAccess }> {
  const change = await db.transaction().execute(async (trx) => {
    const before = await metricsAccess(trx);
    await writeMetricsAccess(trx, { protected: input.protected, allowed: input.allowedAddresses });
    return { before, after: await metricsAccess(trx) };
  });
  applied(await readApiSettings(db));
  return change;
}
