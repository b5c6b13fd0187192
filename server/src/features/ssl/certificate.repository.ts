import type { CertificateType, SslCertificate, SslCertificateDetail } from '@mailroom/contract/ssl';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SslCertificateTable } from '../../db/ssl.tables.ts';
import { notFound } from '../../http/errors.ts';
import type { ListRow } from './certificate-list.service.ts';
import { daysLeft, type ParsedCertificate, statusOf } from './certificate.parser.ts';

type Db = Kysely<Database>;
export type CertRow = Selectable<SslCertificateTable>;
const DAY = 86_400_000;

export interface StoreInput {
  leaf: ParsedCertificate;
  chainPem: string;
  keyEnc: string;
  source: SslCertificate['source'];
  autoRenew: boolean;
  /** The sealed generation request (see certificate-jobs.ts), null when Mailroom cannot renew it. */
  renewal: string | null;
}

function columns(i: StoreInput, now: string) {
  const l = i.leaf;
  return {
    domain: l.domain,
    names: JSON.stringify(l.names),
    search: [...l.names, l.issuer].join(' ').toLowerCase(),
    issuer: l.issuer,
    subject: l.subject,
    valid_from: l.validFrom.toISOString(),
    valid_to: l.validTo.toISOString(),
    not_after: l.validTo.getTime(),
    type: l.type,
    key_algorithm: l.keyAlgorithm,
    key_size: l.keySize,
    signature_algorithm: l.signatureAlgorithm,
    serial: l.serial,
    fingerprint: l.fingerprint,
    certificate_pem: l.pem,
    chain_pem: i.chainPem,
    key_enc: i.keyEnc,
    source: i.source,
    auto_renew: i.autoRenew ? 1 : 0,
    renewal: i.renewal,
    updated_at: now,
  };
}

export async function insertCertificate(db: Db, i: StoreInput): Promise<CertRow> {
  const now = new Date().toISOString();
  return db
    .insertInto('ssl_certificates')
    .values({ ...columns(i, now), created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A renewal replaces the certificate in place: the same id stays in use where it was. */
export async function replaceCertificate(db: Db, id: number, i: StoreInput): Promise<CertRow> {
  return db
    .updateTable('ssl_certificates')
    .set(columns(i, new Date().toISOString()))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function readRow(db: Db, id: number): Promise<CertRow> {
  const row = await db.selectFrom('ssl_certificates').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`No certificate with id ${id}`);
  return row;
}

export function toCertificate(
  r: CertRow,
  threshold: number,
  inUse: string[],
  now = Date.now(),
): SslCertificate {
  const notAfter = Number(r.not_after);
  return {
    id: Number(r.id),
    domain: r.domain,
    status: statusOf(notAfter, threshold, now),
    issuer: r.issuer,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    daysUntilExpiry: daysLeft(notAfter, now),
    type: r.type as CertificateType,
    keySize: Number(r.key_size),
    fingerprint: r.fingerprint,
    keyAlgorithm: r.key_algorithm,
    signatureAlgorithm: r.signature_algorithm,
    serialNumber: r.serial,
    subjectAltNames: JSON.parse(r.names) as string[],
    source: r.source as SslCertificate['source'],
    autoRenewal: Number(r.auto_renew) === 1,
    inUse,
    selfSigned: r.issuer === SELF_SIGNED_ISSUER || r.source === 'self-signed',
  };
}

export function toDetail(r: CertRow, threshold: number, inUse: string[]): SslCertificateDetail {
  return {
    ...toCertificate(r, threshold, inUse),
    subject: r.subject,
    certificate: r.certificate_pem,
    certificateChain: r.chain_pem,
  };
}

export function listRowToCertificate(
  r: ListRow,
  threshold: number,
  inUse: string[],
  now = Date.now(),
): SslCertificate {
  return toCertificate(
    {
      ...r,
      search: '',
      subject: '',
      certificate_pem: '',
      chain_pem: '',
      key_enc: '',
      renewal: null,
      created_at: '',
      updated_at: '',
    },
    threshold,
    inUse,
    now,
  );
}

/** The issuer certificate-parse gives a certificate signed with its own key. */
const SELF_SIGNED_ISSUER = 'Self-signed';

/** Counts for the dashboard in one query. */
export async function stats(db: Db, threshold: number, now = Date.now()) {
  const soon = now + threshold * DAY;
  const r = await db
    .selectFrom('ssl_certificates')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('not_after', '<=', now).then(1).else(0).end()).as('expired'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('not_after', '>', now), eb('not_after', '<=', soon)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('expiring'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.and([
                eb('not_after', '>', now),
                eb.or([eb('issuer', '=', SELF_SIGNED_ISSUER), eb('source', '=', 'self-signed')]),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('selfSigned'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(r.total);
  const expired = Number(r.expired ?? 0);
  const expiring = Number(r.expiring ?? 0);
  return {
    totalCertificates: total,
    validCertificates: total - expired - expiring,
    expiringSoon: expiring,
    expiredCertificates: expired,
    selfSignedCertificates: Number(r.selfSigned ?? 0),
  };
}

/** Domains within the threshold that Mailroom cannot renew itself (uploads, CSR results). */
export async function dueElsewhere(db: Db, threshold: number, now = Date.now()): Promise<string[]> {
  const rows = await db
    .selectFrom('ssl_certificates')
    .select('domain')
    .where('not_after', '<=', now + threshold * DAY)
    .where('renewal', 'is', null)
    .orderBy('not_after')
    .limit(20)
    .execute();
  return rows.map((r) => r.domain);
}

/** Ids due for renewal: auto-renew on, not yet expired past recovery, within the threshold. */
export async function dueForRenewal(
  db: Db,
  threshold: number,
  onlyAuto: boolean,
  now = Date.now(),
): Promise<number[]> {
  let q = db
    .selectFrom('ssl_certificates')
    .select('id')
    .where('not_after', '<=', now + threshold * DAY)
    .where('renewal', 'is not', null);
  if (onlyAuto) q = q.where('auto_renew', '=', 1);
  const rows = await q.orderBy('not_after').execute();
  return rows.map((r) => Number(r.id));
}

/** Whether a certificate with this id is stored. */
export async function certificateExists(db: Db, id: number): Promise<boolean> {
  return !!(await db.selectFrom('ssl_certificates').select('id').where('id', '=', id).executeTakeFirst());
}

/** How many certificates are stored. */
export async function countCertificates(db: Db): Promise<number> {
  return Number(
    (
      await db
        .selectFrom('ssl_certificates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

/** What a renewal plan needs of these certificates (those that exist). */
export async function renewalCandidates(db: Db, ids: number[]) {
  return db
    .selectFrom('ssl_certificates')
    .select(['id', 'domain', 'renewal', 'not_after', 'source'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

/** When the certificate's row last changed and when it expires (undefined: no such certificate). */
export async function certificateTimes(db: Db, id: number) {
  return db
    .selectFrom('ssl_certificates')
    .select(['updated_at', 'not_after'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The id of the domain's certificate that expires last. */
export async function latestIdForDomain(db: Db, domain: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('ssl_certificates')
    .select('id')
    .where('domain', '=', domain)
    .orderBy('not_after', 'desc')
    .executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export async function deleteCertificateRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('ssl_certificates').where('id', '=', id).execute();
}

/** The certificates expired by `now`, most recently expired first. */
export async function recentlyExpired(db: Db, now: number, limit: number) {
  return db
    .selectFrom('ssl_certificates')
    .select(['domain', 'valid_to'])
    .where('not_after', '<=', now)
    .orderBy('not_after', 'desc')
    .limit(limit)
    .execute();
}

/** The certificate's row, or undefined when there is none. */
export async function findRow(db: Db, id: number): Promise<CertRow | undefined> {
  return db.selectFrom('ssl_certificates').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The unexpired certificates' ids and names, the one that expires last first (at most `limit`). */
export async function unexpiredNames(db: Db, now: number, limit: number) {
  return db
    .selectFrom('ssl_certificates')
    .select(['id', 'names'])
    .where('not_after', '>', now)
    .orderBy('not_after', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The certificates that expire before `before` (ms) and have no later one for the same domain (a
 * renewal keeps the old row until it is deleted): what the system alerts warn of, soonest first.
 */
export async function expiringLatest(
  db: Db,
  before: number,
  limit = 100,
): Promise<{ domain: string; notAfter: number }[]> {
  const rows = await db
    .selectFrom('ssl_certificates as a')
    .select(['a.domain', 'a.not_after'])
    .where('a.not_after', '<=', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('ssl_certificates as b')
            .select('b.id')
            .whereRef('b.domain', '=', 'a.domain')
            .whereRef('b.not_after', '>', 'a.not_after'),
        ),
      ),
    )
    .orderBy('a.not_after')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ domain: r.domain, notAfter: Number(r.not_after) }));
}
