import type { SslHealthCheck } from '@mailroom/contract/web/ssl-health';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebSslHealthTable } from '../../../db/web.tables.ts';

type Db = Kysely<Database>;

/** The row of one check -> the contract's shape. */
function toCheck(r: WebSslHealthTable): SslHealthCheck {
  return {
    hostName: r.host_name,
    domain: r.domain,
    port: Number(r.port),
    checkedAt: r.checked_at,
    ok: Number(r.ok) === 1,
    fingerprint: r.fingerprint,
    expectedFingerprint: r.expected_fingerprint,
    mismatch:
      r.fingerprint !== null && r.expected_fingerprint !== null && r.fingerprint !== r.expected_fingerprint,
    notAfter: r.not_after,
    daysLeft: r.days_left === null ? null : Number(r.days_left),
    protocol: r.protocol,
    error: r.error,
  };
}

/** Every name's last check, by host name. */
export async function listSslHealth(db: Db): Promise<SslHealthCheck[]> {
  const rows = await db.selectFrom('web_ssl_health').selectAll().orderBy('host_name').execute();
  return rows.map(toCheck);
}

/** One round's results replace the last (names no longer served go), in one transaction. */
export async function replaceSslHealth(db: Db, rows: WebSslHealthTable[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('web_ssl_health').execute();
    if (rows.length) await trx.insertInto('web_ssl_health').values(rows).execute();
  });
}

/** When the last round ran (ms since the epoch; 0: never). */
export async function lastSslHealthRound(db: Db): Promise<number> {
  const r = await db
    .selectFrom('web_ssl_health')
    .select((eb) => eb.fn.max('checked_at').as('last'))
    .executeTakeFirst();
  return r?.last ? Date.parse(String(r.last)) : 0;
}
