import type {
  CsrCompletion,
  GenerateCertificateParsed,
  SslActivity,
  SslCertificate,
  SslCertificateDetail,
  SslDashboard,
  UploadCertificate,
} from '@mailroom/contract/ssl';
import { UPLOAD_RSA_MIN_KEY_SIZE, uploadLabels } from '@mailroom/contract/ssl';
import type { z } from 'zod';
import type { CursorPage } from '../../http/cursor.ts';
import { recentAuditOf } from '../../http/audit-log.repository.ts';
import { audited } from './audited.service.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { fieldMessages } from '@mailroom/contract/messages';
import { checkCertificate } from './certificate-check.parser.ts';
import { makeCsr, makeKey, requestNames } from './certificate-make.service.ts';
import { type ListFilter, listRows } from './certificate-list.service.ts';
import {
  deleteCertificateRow,
  insertCertificate,
  listRowToCertificate,
  readRow,
  recentlyExpired,
  stats,
  toCertificate,
  toDetail,
} from './certificate.repository.ts';
import { withMailFollow } from './certificate-usage.service.ts';
import type { SslContext } from './ssl-context.types.ts';
import { deleteCsr, findCsr, insertCsr, listCsrRows } from './csr.repository.ts';
import { clearMailCertificate, readSslSettings } from './ssl-settings.repository.ts';

const threshold = async (ctx: SslContext) => (await readSslSettings(ctx.db)).settings.renewalThreshold;

export async function listCertificates(ctx: SslContext, f: ListFilter): Promise<CursorPage<SslCertificate>> {
  const [t, used] = await Promise.all([threshold(ctx), ctx.usages.all()]);
  const now = Date.now();
  const page = await listRows(ctx.db, f, t, ctx.listCounts, now);
  return {
    ...page,
    items: page.items.map((r) => listRowToCertificate(r, t, used.get(Number(r.id)) ?? [], now)),
  };
}

export async function getCertificate(ctx: SslContext, id: number): Promise<SslCertificateDetail> {
  const [t, uses, row] = await Promise.all([threshold(ctx), ctx.usages.usesOf(id), readRow(ctx.db, id)]);
  return toDetail(row, t, uses);
}

export async function uploadCertificate(
  ctx: SslContext,
  body: z.output<typeof UploadCertificate>,
): Promise<SslCertificate> {
  const checked = checkCertificate(body);
  // The size stored is the certificate's own; the spec's minimum is about RSA keys.
  if (checked.leaf.keyAlgorithm === 'RSA' && body.keySize < UPLOAD_RSA_MIN_KEY_SIZE)
    throw fieldError('keySize', fieldMessages.min(uploadLabels.keySize, UPLOAD_RSA_MIN_KEY_SIZE));
  const row = await withMailFollow(
    ctx,
    (r) => Number(r.id),
    () =>
      audited(ctx.db, async (trx, audit) => {
        const r = await insertCertificate(trx, {
          leaf: checked.leaf,
          chainPem: checked.chainPem,
          keyEnc: ctx.vault.seal(checked.keyPem),
          source: 'upload',
          autoRenew: false,
          renewal: null,
        });
        await audit({
          target: checked.leaf.domain,
          details: { id: Number(r.id), fingerprint: checked.leaf.fingerprint },
        });
        return r;
      }),
  );
  return toCertificate(row, await threshold(ctx), await ctx.usages.usesOf(Number(row.id)));
}

/** A key and a CSR for an outside CA; the key waits (sealed) for the signed certificate. */
export async function createCsr(ctx: SslContext, req: GenerateCertificateParsed) {
  const key = await makeKey(req);
  const csr = await makeCsr(req, key);
  const names = requestNames(req);
  const id = await audited(ctx.db, async (trx, audit) => {
    const csrId = await insertCsr(trx, {
      domain: req.domain.toLowerCase(),
      names,
      csrPem: csr,
      keyEnc: ctx.vault.seal(key.keyPem),
    });
    await audit({ target: req.domain, details: { csr: csrId, names } });
    return csrId;
  });
  return { id, domain: req.domain.toLowerCase(), csr, privateKey: key.keyPem };
}

export async function listCsrs(ctx: SslContext) {
  return listCsrRows(ctx.db);
}

/** The signed result of a CSR: checked against the pending key, stored, and the CSR closed. */
export async function completeCsr(
  ctx: SslContext,
  id: number,
  body: z.output<typeof CsrCompletion>,
): Promise<SslCertificate> {
  const csr = await findCsr(ctx.db, id);
  if (!csr) throw notFound(`No pending CSR with id ${id}`);
  const checked = checkCertificate({
    domain: csr.domain,
    certificate: body.certificate,
    privateKey: ctx.vault.open(csr.key_enc),
    certificateChain: body.certificateChain,
    format: 'pem',
  });
  const row = await withMailFollow(
    ctx,
    (r) => Number(r.id),
    () =>
      audited(ctx.db, async (trx, audit) => {
        const r = await insertCertificate(trx, {
          leaf: checked.leaf,
          chainPem: checked.chainPem,
          keyEnc: csr.key_enc,
          source: 'csr',
          autoRenew: false,
          renewal: null,
        });
        await deleteCsr(trx, id);
        await audit({ target: checked.leaf.domain, details: { id: Number(r.id), csr: id } });
        return r;
      }),
  );
  return toCertificate(row, await threshold(ctx), await ctx.usages.usesOf(Number(row.id)));
}

export async function deleteCertificate(ctx: SslContext, id: number, confirmed: boolean): Promise<void> {
  const row = await readRow(ctx.db, id);
  const uses = await ctx.usages.refuseUnlessConfirmed(id, confirmed);
  await withMailFollow(
    ctx,
    () => null,
    () =>
      audited(ctx.db, async (trx, audit) => {
        await deleteCertificateRow(trx, id);
        await clearMailCertificate(trx, id);
        await audit({ target: row.domain, details: { id, fingerprint: row.fingerprint, inUse: uses } });
      }),
  );
}

const ACTIVITY: Record<string, SslActivity['type']> = {
  'ssl.certificate.upload': 'upload',
  'ssl.csr.complete': 'upload',
  'ssl.certificate.generated': 'generation',
  'ssl.certificate.renewed': 'renewal',
  'ssl.certificate.delete': 'deletion',
};
const WORDS: Record<SslActivity['type'], string> = {
  upload: 'Certificate uploaded',
  generation: 'Certificate generated',
  renewal: 'Certificate renewed',
  deletion: 'Certificate deleted',
  expiry: 'Certificate expired',
};

/** Recent SSL activity: the audit log's certificate changes and the certificates that expired. */
export async function recentActivity(ctx: SslContext, limit: number): Promise<SslActivity[]> {
  const now = Date.now();
  const [audit, expired] = await Promise.all([
    recentAuditOf(ctx.db, Object.keys(ACTIVITY), limit),
    recentlyExpired(ctx.db, now, limit),
  ]);
  const items: SslActivity[] = [
    ...audit.map((a) => {
      const type = ACTIVITY[a.action] ?? 'generation';
      return { type, description: `${WORDS[type]}: ${a.target ?? ''}`.trim(), timestamp: a.at };
    }),
    ...expired.map((e) => ({
      type: 'expiry' as const,
      description: `${WORDS.expiry}: ${e.domain}`,
      timestamp: e.valid_to,
    })),
  ];
  return items.sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, limit);
}

export async function dashboard(ctx: SslContext, limit: number): Promise<SslDashboard> {
  const t = await threshold(ctx);
  const [counts, list, activity] = await Promise.all([
    stats(ctx.db, t),
    listCertificates(ctx, { limit }),
    recentActivity(ctx, 10),
  ]);
  return { stats: counts, certificates: list.items, activity };
}

export function refuseNotRenewable(source: string): never {
  throw conflict(
    source === 'upload'
      ? 'An uploaded certificate is renewed by its CA: upload the new certificate'
      : 'A certificate signed for a CSR is renewed by its CA: make a new CSR and upload the result',
  );
}
