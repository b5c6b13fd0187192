// ---------------------------------------------------------------------------------------------
// Constants (spec 2 §3, §4, §9)

export const CERTIFICATE_STATUSES = ['valid', 'expiring', 'expired'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
export const CERTIFICATE_TYPES = ['DV', 'OV', 'EV', 'Wildcard', 'SAN'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
export const KEY_ALGORITHMS = ['RSA', 'ECDSA', 'Ed25519'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];
/** RSA sizes; ECDSA uses 256 (P-256) and 384 (P-384); Ed25519 is 256. */
export const RSA_KEY_SIZES = [2048, 3072, 4096] as const;
export const ECDSA_KEY_SIZES = [256, 384] as const;
export const SIGNATURE_ALGORITHMS = ['SHA256', 'SHA384', 'SHA512'] as const;
export const VALIDITY_PERIODS = [30, 90, 365, 730] as const;
export const CHALLENGE_TYPES = ['http', 'dns', 'tls'] as const;
export const DNS_PROVIDERS = ['cloudflare', 'route53', 'godaddy', 'namecheap', 'digitalocean'] as const;
/** The issuer filter's options (§2). */
export const ISSUER_FILTERS = ["Let's Encrypt", 'DigiCert', 'Comodo', 'Symantec'] as const;
/** How a certificate is made: a self-signed one, a CSR for an outside CA, or ACME. */
export const GENERATION_METHODS = ['self-signed', 'csr', 'acme'] as const;
export const CERTIFICATE_SOURCES = ['upload', 'self-signed', 'csr', 'acme'] as const;
export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';
export const LETS_ENCRYPT_STAGING_DIRECTORY = 'https://acme-staging-v02.api.letsencrypt.org/directory';

export const EXPIRING_DAYS_DEFAULT = 30;

/** The four steps of the generation progress card, in order (job phases). */
export const GENERATION_STEPS = [
  'Validating domain ownership',
  'Generating private key',
  'Requesting certificate from CA',
  'Installing certificate',
] as const;

/**
 * The steps a self-signed certificate really goes through (issue 22 item 10): no CA validates or
 * signs it, so the card does not claim so.
 */
export const SELF_SIGNED_STEPS = [
  'Checking the names against the SSL settings',
  'Generating private key',
  'Signing the certificate with its own key (self-signed)',
  'Installing certificate',
] as const;

/** The steps of a generation job for this method (`phase` is one of them while it runs). */
export const generationSteps = (method: string): readonly string[] =>
  method === 'self-signed' ? SELF_SIGNED_STEPS : GENERATION_STEPS;

/** Shown wherever a self-signed certificate is listed: it is not "valid, no issues" to a client. */
export const SELF_SIGNED_WARNING = 'Self-signed: not trusted by clients';

export const SSL_CSV_COLUMNS = [
  'domain',
  'status',
  'issuer',
  'validFrom',
  'validTo',
  'daysUntilExpiry',
  'type',
  'keySize',
  'fingerprint',
] as const;
export const sslCsvName = (date: string) => `ssl-certificates-${date}.csv`;

export const JOB_KIND_SSL = {
  generate: 'ssl.certificate.generate',
  renew: 'ssl.certificate.renew',
  renewExpiring: 'ssl.certificate.renew-expiring',
} as const;

export const sslMessages = {
  loadCertificates: 'Failed to load SSL certificates',
  loadSettings: 'Failed to load SSL settings',
  noActivity: 'No recent SSL activity',
  noneExpiring: 'No certificates are expiring soon.',
  onlyOutsideRenewals: (domains: string[]) =>
    `No expiring certificate can be renewed by Mailroom; renew these with their CA and upload the new certificate: ${domains.join(', ')}`,
  saved: 'SSL settings saved successfully!',
  notSpecified: 'Not specified',
  noCertificates: 'No SSL certificates found',
  notPem: 'This is not a PEM certificate (-----BEGIN CERTIFICATE-----)',
  keyMismatch: 'The private key does not match the certificate',
  expired: 'The certificate has expired',
  notYetValid: 'The certificate is not valid yet',
  wrongDomain: (domain: string, names: string[]) =>
    `The certificate does not cover ${domain} (it names ${names.join(', ') || 'no domain'})`,
  inUse: (uses: string[]) => `The certificate is in use by ${uses.join(', ')}; confirm to delete it anyway.`,
  ed25519Acme: 'Ed25519 keys are not accepted by ACME certificate authorities; choose RSA or ECDSA',
  appliesToWeb: 'applies to the web server',
  noEffect: 'no effect yet',
} as const;
