import type { AppDeps } from '../../../app-deps.ts';

/**
 * What the certificate generation job asks of ACME. The ssl feature owns storing, installing and
 * renewing; this module only talks to the CA (account per directory URL, order, challenges,
 * finalize) and answers with the issued PEMs.
 */
export interface AcmeIssueRequest {
  /** The CA's directory URL (Let's Encrypt production/staging, pebble, any other). */
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
  key: { algorithm: 'RSA' | 'ECDSA' | 'Ed25519'; size: number };
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
  ) {
    super(message);
    this.name = 'AcmeError';
  }
}

// Placeholder until the ACME module lands: it refuses instead of pretending to issue.
export function createAcmeIssuer(_deps: AppDeps): AcmeIssue {
  return () => Promise.reject(new AcmeError('ACME issuance is not available in this build', undefined));
}
