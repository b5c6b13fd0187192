import {
  ACME_WEB_SERVER_WEBROOT,
  type GenerateCertificateParsed,
  generationSteps,
  JOB_KIND_SSL,
} from '@mailroom/contract/ssl';
import type { Job } from '@mailroom/contract/jobs';
import { recordAudit } from '../../http/audit-log.repository.ts';
import { fieldError } from '../../http/errors.ts';
import type { AppDeps } from '../../app-deps.ts';

// The job runner's types, through AppDeps (features do not import each other).
type JobWork = Parameters<NonNullable<AppDeps['jobs']>['run']>[3];
type JobContext = Parameters<JobWork>[0];
type JobOutcome = Awaited<ReturnType<JobWork>>;
import { AcmeError, type CertificateStage } from './acme/acme-issuer.service.ts';
import { checkCertificate } from './certificate-check.parser.ts';
import { makeKey, makeSelfSigned, requestNames } from './certificate-make.service.ts';
import { refuseNotRenewable } from './certificate.service.ts';
import {
  type CertRow,
  dueForRenewal,
  insertCertificate,
  latestIdForDomain,
  readRow,
  replaceCertificate,
} from './certificate.repository.ts';
import { withMailFollow } from './certificate-usage.service.ts';
import type { SslContext } from './ssl-context.types.ts';
import { readSslSettings } from './ssl-settings.repository.ts';

const STAGE_INDEX: Record<CertificateStage, number> = { validate: 0, key: 1, request: 2, install: 3 };

/** Reports a stage as the job's phase, in the words of the method's own steps. */
function stageReporter(ctx: JobContext, method: string) {
  const steps = generationSteps(method);
  return (stage: CertificateStage, _detail = '') => {
    const i = STAGE_INDEX[stage];
    ctx.progress({ phase: steps[i], processed: i, total: steps.length });
  };
}

/** Rules the SSL settings impose on a request (wildcard and SAN certificates may be switched off). */
export async function checkRequestAllowed(ctx: SslContext, req: GenerateCertificateParsed): Promise<void> {
  const { settings } = await readSslSettings(ctx.db);
  if (req.wildcardDomain && !settings.enableWildcardCertificates)
    throw fieldError('wildcardDomain', 'Wildcard certificates are switched off in the SSL settings');
  if (req.sanDomains.length && !settings.enableSanCertificates)
    throw fieldError('sanDomains', 'SAN certificates are switched off in the SSL settings');
  if (req.method === 'acme' && req.challengeType === 'tls')
    throw fieldError('challengeType', 'The TLS challenge (tls-alpn-01) is not available; choose HTTP or DNS');
  if (req.method === 'acme' && req.wildcardDomain && req.challengeType !== 'dns')
    throw fieldError('challengeType', 'A wildcard certificate needs the DNS challenge');
}

interface Issued {
  certificatePem: string;
  chainPem: string;
  keyPem: string;
}

/** The three middle steps: validate, key, request (self-signed locally, ACME through the CA). */
async function issue(ctx: SslContext, req: GenerateCertificateParsed, job: JobContext): Promise<Issued> {
  const stage = stageReporter(job, req.method);
  if (req.method === 'acme') {
    try {
      const out = await ctx.acme(
        {
          directoryUrl: req.acmeDirectoryUrl,
          contactEmail: req.email,
          domains: requestNames(req),
          challenge: req.challengeType === 'dns' ? 'dns-01' : 'http-01',
          ...(req.dnsProvider ? { dnsProvider: req.dnsProvider } : {}),
          ...(req.dnsProvider && req.dnsProvider !== 'mailroom'
            ? {
                dnsProviderCredentials: {
                  apiKey: req.dnsCredentials.apiKey,
                  apiSecret: req.dnsCredentials.apiSecret,
                },
              }
            : {}),
          // Through Mailroom's web server: Apache serves this folder's tokens for every host.
          ...(req.challengeType === 'http' && req.httpVia === 'web-server'
            ? { webroot: ACME_WEB_SERVER_WEBROOT }
            : req.webrootPath
              ? { webroot: req.webrootPath }
              : {}),
          key: { algorithm: req.keyAlgorithm, size: req.keySize },
        },
        (s, detail) => stage(s, detail),
        job.signal,
      );
      return { certificatePem: out.certificatePem, chainPem: out.chainPem, keyPem: out.privateKeyPem };
    } catch (err) {
      // The CA's words once: the message already holds them when the call named its step.
      if (err instanceof AcmeError)
        throw new Error(
          err.caMessage && !err.message.includes(err.caMessage)
            ? `${err.message}: ${err.caMessage}`
            : err.message,
        );
      throw err;
    }
  }
  // Self-signed: ownership is not asked of anyone; the names are checked against the settings' rules.
  stage('validate');
  await job.checkpoint();
  stage('key');
  const key = await makeKey(req);
  await job.checkpoint();
  stage('request');
  const certificatePem = await makeSelfSigned(req, key);
  return { certificatePem, chainPem: '', keyPem: key.keyPem };
}

/** Checks what was issued like an upload, and stores it (new, or in place of the renewed one). */
async function install(
  ctx: SslContext,
  req: GenerateCertificateParsed,
  issued: Issued,
  replaces: CertRow | null,
  actor: string | null,
  job: JobContext,
): Promise<number> {
  stageReporter(job, req.method)('install');
  const checked = checkCertificate({
    domain: req.domain,
    certificate: issued.certificatePem,
    privateKey: issued.keyPem,
    certificateChain: issued.chainPem,
    format: 'pem',
  });
  const input = {
    leaf: checked.leaf,
    chainPem: checked.chainPem,
    keyEnc: ctx.vault.seal(checked.keyPem),
    source: req.method === 'acme' ? ('acme' as const) : ('self-signed' as const),
    autoRenew: req.autoRenewal,
    renewal: ctx.vault.seal(JSON.stringify(req)),
  };
  const row = await withMailFollow(
    ctx,
    (r) => Number(r.id),
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const r = replaces
          ? await replaceCertificate(trx, Number(replaces.id), input)
          : await insertCertificate(trx, input);
        await recordAudit(trx, {
          actor,
          action: replaces ? 'ssl.certificate.renewed' : 'ssl.certificate.generated',
          target: checked.leaf.domain,
          outcome: 'success',
          details: {
            id: Number(r.id),
            fingerprint: checked.leaf.fingerprint,
            job: job.jobId,
            source: input.source,
          },
        });
        return r;
      }),
  );
  job.progress({ phase: generationSteps(req.method)[3], processed: 4, total: 4 });
  return Number(row.id);
}

export function startGeneration(
  ctx: SslContext,
  req: GenerateCertificateParsed,
  actor: string | null,
): Promise<Job> {
  const jobs = ctx.deps.jobs!;
  return jobs.run(
    JOB_KIND_SSL.generate,
    `Generate certificate for ${req.domain}`,
    actor,
    async (job): Promise<JobOutcome> => {
      const issued = await issue(ctx, req, job);
      const id = await install(ctx, req, issued, null, actor, job);
      return { result: { certificateId: id }, summary: `Certificate for ${req.domain} installed` };
    },
  );
}

function renewalRequest(ctx: SslContext, row: CertRow): GenerateCertificateParsed {
  if (row.renewal === null) refuseNotRenewable(row.source);
  return JSON.parse(ctx.vault.open(row.renewal)) as GenerateCertificateParsed;
}

export async function renewOne(
  ctx: SslContext,
  id: number,
  actor: string | null,
  job: JobContext,
): Promise<number> {
  const row = await readRow(ctx.db, id);
  const req = renewalRequest(ctx, row);
  const issued = await issue(ctx, req, job);
  return install(ctx, req, issued, row, actor, job);
}

export async function startRenewal(ctx: SslContext, id: number, actor: string | null): Promise<Job> {
  const row = await readRow(ctx.db, id);
  renewalRequest(ctx, row);
  return ctx.deps.jobs!.run(JOB_KIND_SSL.renew, `Renew certificate for ${row.domain}`, actor, async (job) => {
    await renewOne(ctx, id, actor, job);
    return { result: { certificateId: id }, summary: `Certificate for ${row.domain} renewed` };
  });
}

export async function findByDomain(ctx: SslContext, domain: string): Promise<number> {
  const id = await latestIdForDomain(ctx.db, domain.toLowerCase());
  if (id === undefined) throw fieldError('domain', `No certificate for ${domain}`);
  return id;
}

/**
 * Renews every certificate within the threshold that Mailroom can renew (self-signed, ACME), one
 * after the other; a failure is listed and the rest go on. Null: nothing to renew.
 */
export async function startRenewExpiring(
  ctx: SslContext,
  actor: string | null,
  onlyAuto: boolean,
): Promise<Job | null> {
  const { settings } = await readSslSettings(ctx.db);
  const ids = await dueForRenewal(ctx.db, settings.renewalThreshold, onlyAuto);
  if (!ids.length) return null;
  return ctx.deps.jobs!.run(
    JOB_KIND_SSL.renewExpiring,
    `Renew ${ids.length} expiring certificate(s)`,
    actor,
    async (job) => {
      let renewed = 0;
      const errors: { row: number; message: string }[] = [];
      for (const [i, id] of ids.entries()) {
        job.progress({ phase: `Renewing ${i + 1} of ${ids.length}`, processed: i, total: ids.length });
        try {
          await renewOne(ctx, id, actor, {
            jobId: job.jobId,
            signal: job.signal,
            checkpoint: () => job.checkpoint(),
            progress: () => undefined,
          });
          renewed++;
        } catch (err) {
          if (job.signal.aborted) throw err;
          errors.push({ row: id, message: (err as Error).message });
        }
        await job.checkpoint();
      }
      job.progress({ processed: ids.length, total: ids.length });
      return {
        result: { renewed, failed: errors.length },
        counts: { renewed, failed: errors.length },
        errors,
        summary: `${renewed} renewed, ${errors.length} failed`,
      };
    },
  );
}
