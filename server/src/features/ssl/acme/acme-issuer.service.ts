import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';
import * as acme from 'acme-client';
import type { AppDeps } from '../../../app-deps.ts';
import { readPemFile } from '../../../host/webroot-files.ts';
import { accountFor, forgetAccount, registerAccount } from './acme-account.service.ts';
import { ACME_DIRECTORIES } from './acme-directories.constants.ts';
import { type AcmeKeySpec, createCertificateKey, keyProblem } from './acme-keys.rules.ts';
import { dnsProviderFor, waitAuthoritative } from './dns-provider.service.ts';
import type { DnsTxtProvider, TxtHandle } from './dns-txt-provider.types.ts';
import { type HttpChallengeSink, listenerSink, webrootSink } from './http-challenge.service.ts';

/**
 * What the certificate generation job asks of ACME. The ssl feature owns storing, installing and
 * renewing; this module only talks to the CA (account per directory URL, order, challenges,
 * finalize) and answers with the issued PEMs.
 */
export interface AcmeIssueRequest {
  /** The CA's directory URL (Let's Encrypt production/staging, pebble, any other), or a named one's id. */
  directoryUrl: string;
  contactEmail: string;
  /** First name is the common name; `*.example.com` needs dns-01. */
  domains: string[];
  challenge: 'http-01' | 'dns-01';
  /** dns-01: `mailroom` (Mailroom's own zones) or a provider id such as `cloudflare`. */
  dnsProvider?: string;
  dnsProviderCredentials?: Record<string, string>;
  /** http-01: write the token files under this folder; absent: Mailroom's own listener answers. */
  webroot?: string;
  key: AcmeKeySpec;
}

/** The spec's four generation steps, in order; `install` belongs to the ssl feature. */
export type CertificateStage = 'validate' | 'key' | 'request' | 'install';

export interface AcmeIssued {
  certificatePem: string;
  /** Intermediates, leaf excluded, in order. */
  chainPem: string;
  privateKeyPem: string;
}

export type AcmeIssue = (
  request: AcmeIssueRequest,
  onStage: (stage: CertificateStage, detail: string) => void,
  signal: AbortSignal,
) => Promise<AcmeIssued>;

/** An ACME failure with the CA's own words (`detail` of its problem document). */
export class AcmeError extends Error {
  constructor(
    message: string,
    readonly caMessage: string | undefined,
    /** The problem document's type (`urn:ietf:params:acme:error:…`), when the CA sent one. */
    readonly caType?: string,
  ) {
    super(message);
    this.name = 'AcmeError';
  }
}

/**
 * Whether the CA no longer knows the account (reset, or the account deactivated): RFC 8555
 * `accountDoesNotExist`, or `unauthorized` naming a deactivated or unknown account.
 */
export function accountGone(err: unknown): boolean {
  if (!(err instanceof AcmeError)) return false;
  if (err.caType === 'urn:ietf:params:acme:error:accountDoesNotExist') return true;
  if (err.caType && err.caType !== 'urn:ietf:params:acme:error:unauthorized') return false;
  // acme-client keeps only the problem's detail: the CA's words say it.
  return /\baccount\b.{0,200}?\b(deactivated|revoked|does not exist|not found|unknown)\b|\b(deactivated|revoked)\b.{0,200}?\baccount\b/i.test(
    err.caMessage ?? '',
  );
}

/** How long a DNS-01 record may take to be served: Mailroom's own BIND, then outside providers. */
const OWN_DNS_WAIT_MS = 30_000;
const PROVIDER_DNS_WAIT_MS = 300_000;
const HOSTNAME = /^(\*\.)?(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

// acme-client retries a refused connection or a 5xx five times, 5 s more each time (75 s before an
// unreachable CA fails the job); three tries, 2 s more each, say so within 12 s. A 429's Retry-After
// is still obeyed.
const acmeSettings = (acme.axios.defaults as { acmeSettings?: Record<string, number> }).acmeSettings;
if (acmeSettings) Object.assign(acmeSettings, { retryMaxAttempts: 3, retryDefaultDelay: 2 });

/** Polling of challenge and order states: quick at first, as a CA validates within seconds. */
const BACKOFF = { backoffAttempts: 12, backoffMin: 1000, backoffMax: 10_000 };

function refuse(message: string): never {
  throw new AcmeError(message, undefined);
}

/** Runs one call to the CA: a problem document becomes an AcmeError with its `detail`. */
async function ca<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AcmeError) throw err;
    const e = err as Error & {
      isAxiosError?: boolean;
      code?: string;
      response?: { data?: { detail?: unknown; type?: unknown } };
    };
    // A problem document (RFC 8555 §6.7) on an HTTP error: the CA's own words.
    const detail = e.response?.data?.detail;
    const type = typeof e.response?.data?.type === 'string' ? e.response.data.type : undefined;
    if (typeof detail === 'string' && detail) throw new AcmeError(`${what}: ${detail}`, detail, type);
    if (e.isAxiosError)
      throw new AcmeError(`${what}: the CA could not be reached (${e.code ?? e.message})`, undefined);
    throw new AcmeError(`${what}: ${e.message}`, e.message);
  }
}

function checkRequest(deps: AppDeps, r: AcmeIssueRequest): string[] {
  const domains = [...new Set(r.domains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')))];
  if (!domains.length) refuse('At least one domain name is needed');
  for (const d of domains) if (!HOSTNAME.test(d)) refuse(`"${d}" is not a domain name a CA can validate`);
  if (r.challenge === 'http-01' && domains.some((d) => d.startsWith('*.')))
    refuse('Wildcard names (*.domain) can only be validated with a DNS challenge (dns-01)');
  const problem = keyProblem(r.key);
  if (problem) refuse(problem);
  if (!/^https?:\/\//.test(r.directoryUrl)) refuse('The ACME directory URL must start with https://');
  if (r.webroot !== undefined && !path.isAbsolute(r.webroot))
    refuse(`The webroot must be an absolute folder path, not "${r.webroot}"`);
  if (r.challenge === 'http-01' && !r.webroot && deps.config.acme.httpPort === null)
    refuse('HTTP-01 needs a webroot folder: the challenge listener is off (MAILROOM_ACME_HTTP_PORT=0)');
  return domains;
}

/** A named directory (`letsencrypt`, `letsencrypt-staging`) stands for its URL. */
export function directoryUrlOf(directory: string): string {
  const named = ACME_DIRECTORIES.find((d) => d.id === directory.trim());
  return named ? named.url : directory;
}

let trustedCaFile: string | undefined;

/** Trusts MAILROOM_ACME_CA_FILE for the CA's HTTPS (a private CA such as step-ca or pebble). */
function trustConfiguredCa(deps: AppDeps): void {
  const file = deps.config.acme.caFile;
  if (!file || file === trustedCaFile) return;
  const extra = readPemFile(file);
  acme.axios.defaults.httpsAgent = new https.Agent({ ca: [...tls.rootCertificates, extra] });
  trustedCaFile = file;
}

interface Pending {
  challenge: acme.Authorization['challenges'][number];
  name: string;
}

async function issue(
  deps: AppDeps,
  request: AcmeIssueRequest,
  onStage: (stage: CertificateStage, detail: string) => void,
  signal: AbortSignal,
): Promise<AcmeIssued> {
  request = { ...request, directoryUrl: directoryUrlOf(request.directoryUrl) };
  const domains = checkRequest(deps, request);
  trustConfiguredCa(deps);
  const { directoryUrl, contactEmail } = request;
  const dnsProvider: DnsTxtProvider | null =
    request.challenge === 'dns-01'
      ? (() => {
          try {
            return dnsProviderFor(deps, request.dnsProvider ?? 'mailroom', request.dnsProviderCredentials);
          } catch (err) {
            return refuse((err as Error).message);
          }
        })()
      : null;

  onStage('validate', `Using the ACME account for ${directoryUrl}`);
  const account = await accountFor(deps, directoryUrl, contactEmail);
  const client = new acme.Client({
    directoryUrl,
    accountKey: account.accountKey,
    ...(account.accountUrl ? { accountUrl: account.accountUrl } : {}),
    ...BACKOFF,
  });
  await ca('Registering the ACME account', () => registerAccount(deps, client, account, contactEmail));
  signal.throwIfAborted();

  const order = await ca('Creating the order', () =>
    client.createOrder({ identifiers: domains.map((value) => ({ type: 'dns', value })) }),
  );
  const authorizations = await ca('Reading the authorizations', () => client.getAuthorizations(order));

  let sink: HttpChallengeSink | null = null;
  const tokens: string[] = [];
  const records: TxtHandle[] = [];
  try {
    const pending: Pending[] = [];
    for (const authz of authorizations) {
      const name = `${authz.wildcard ? '*.' : ''}${authz.identifier.value}`;
      if (authz.status === 'valid') {
        onStage('validate', `${name}: already validated for this account`);
        continue;
      }
      const challenge = authz.challenges.find((c) => c.type === request.challenge);
      if (!challenge) refuse(`The CA offers no ${request.challenge} challenge for ${name}`);
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      if (challenge.type === 'http-01') {
        sink ??= request.webroot
          ? webrootSink(deps.host, request.webroot)
          : await listenerSink(deps.config.acme.httpPort as number);
        await sink.put(challenge.token, keyAuthorization);
        tokens.push(challenge.token);
        onStage('validate', `${name}: answering http-01 at /.well-known/acme-challenge/${challenge.token}`);
      } else if (dnsProvider) {
        const fqdn = `_acme-challenge.${authz.identifier.value}`;
        const handle = await dnsProvider.addTxt(fqdn, keyAuthorization);
        records.push(handle);
        onStage('validate', `${name}: TXT record ${fqdn} added to ${handle.zone}`);
        const opts = { signal, timeoutMs: dnsProvider.waitServed ? OWN_DNS_WAIT_MS : PROVIDER_DNS_WAIT_MS };
        if (dnsProvider.waitServed) await dnsProvider.waitServed(fqdn, keyAuthorization, opts);
        else await waitAuthoritative(handle.zone, fqdn, keyAuthorization, opts);
        onStage('validate', `${name}: TXT record ${fqdn} served`);
      }
      pending.push({ challenge, name });
      signal.throwIfAborted();
    }
    for (const p of pending) await ca(`Validating ${p.name}`, () => client.completeChallenge(p.challenge));
    for (const p of pending) {
      await ca(`Validating ${p.name}`, () => client.waitForValidStatus(p.challenge));
      onStage('validate', `${p.name}: validated by the CA (${request.challenge})`);
    }
  } finally {
    // The answers go whatever happened; a failed removal must not hide the order's own error.
    for (const t of tokens) await sink?.remove(t).catch(() => undefined);
    await sink?.close().catch(() => undefined);
    for (const r of records) await dnsProvider?.removeTxt(r).catch(() => undefined);
  }
  signal.throwIfAborted();

  const { algorithm, size } = request.key;
  onStage('key', `Generating the ${algorithm} ${algorithm === 'ECDSA' ? `P-${size}` : size} key`);
  const privateKey = await createCertificateKey(request.key);
  signal.throwIfAborted();

  onStage('request', `Sending the certificate request for ${domains.join(', ')}`);
  const first = domains[0] as string;
  const [, csr] = await acme.crypto.createCsr(
    { ...(first.length <= 64 ? { commonName: first } : {}), altNames: domains },
    privateKey,
  );
  // acme-client's status answers drop the order's URL; it is put back for the next call.
  const withUrl = (o: acme.Order): acme.Order => ({ ...o, url: order.url });
  const ready = withUrl(await ca('Finalizing the order', () => client.waitForValidStatus(order)));
  const finalized = await ca('Finalizing the order', () => client.finalizeOrder(ready, csr));
  const valid = withUrl(await ca('Waiting for the certificate', () => client.waitForValidStatus(finalized)));
  const pem = await ca('Downloading the certificate', () => client.getCertificate(valid));
  const [leaf, ...chain] = acme.crypto.splitPemChain(pem);
  if (!leaf) throw new AcmeError('The CA answered no certificate', undefined);
  onStage('request', 'Certificate issued');
  return {
    certificatePem: leaf.trim() + '\n',
    chainPem: chain.map((c) => c.trim() + '\n').join(''),
    privateKeyPem: privateKey.toString(),
  };
}

/**
 * The ACME issuer: account per directory URL (acme_accounts), an order for the names, each
 * authorization proved by http-01 (Mailroom's listener on MAILROOM_ACME_HTTP_PORT, or token files
 * under `webroot`) or dns-01 (Mailroom's own zones through the DNS apply pipeline, or a provider),
 * a new key, the CSR, and the issued certificate with its chain.
 */
export function createAcmeIssuer(deps: AppDeps): AcmeIssue {
  return async (request, onStage, signal) => {
    signal.throwIfAborted();
    try {
      try {
        return await issue(deps, request, onStage, signal);
      } catch (err) {
        // The CA no longer knows the account (reset, deactivated): a new one is registered, once,
        // and the order tried again.
        if (!accountGone(err) || signal.aborted) throw err;
        const directoryUrl = directoryUrlOf(request.directoryUrl);
        onStage(
          'validate',
          `The CA no longer knows the ACME account (${(err as AcmeError).caMessage ?? ''}): registering a new one`,
        );
        await forgetAccount(deps, directoryUrl);
        return await issue(deps, request, onStage, signal);
      }
    } catch (err) {
      if (err instanceof AcmeError || signal.aborted) throw err;
      throw new AcmeError((err as Error).message, undefined);
    }
  };
}
