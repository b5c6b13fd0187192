import { z } from 'zod';
import { ListQuery, OkResponse } from './common.ts';
import { JobAccepted } from './jobs.ts';
import { fieldMessages } from './messages.ts';
import { defineRoute } from './route.ts';
import {
  DOMAIN_RE,
  domainField,
  isEmailAddress,
  queryInt,
  requiredInt,
  requiredString,
} from './validators.ts';

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

// ---------------------------------------------------------------------------------------------
// Certificates

export const SslCertificate = z.object({
  id: z.number(),
  domain: z.string(),
  status: z.enum(CERTIFICATE_STATUSES),
  issuer: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  daysUntilExpiry: z.number(),
  type: z.enum(CERTIFICATE_TYPES),
  keySize: z.number(),
  fingerprint: z.string(),
  keyAlgorithm: z.string(),
  signatureAlgorithm: z.string(),
  serialNumber: z.string(),
  subjectAltNames: z.array(z.string()),
  source: z.enum(CERTIFICATE_SOURCES),
  autoRenewal: z.boolean(),
  /** Where it is served: `mail server` when Postfix and Dovecot use it. */
  inUse: z.array(z.string()),
  /** Signed with its own key (generated self-signed, or uploaded so): clients do not trust it. */
  selfSigned: z.boolean(),
});
export type SslCertificate = z.infer<typeof SslCertificate>;

export const SslCertificateDetail = SslCertificate.extend({
  subject: z.string(),
  certificate: z.string(),
  certificateChain: z.string(),
});
export type SslCertificateDetail = z.infer<typeof SslCertificateDetail>;

export const CertificateListQuery = ListQuery.extend({
  status: z.enum(CERTIFICATE_STATUSES).optional(),
  issuer: z.string().max(200).optional(),
});

export const uploadLabels = {
  domain: 'Domain',
  certificateType: 'Certificate Type',
  certificate: 'Certificate',
  privateKey: 'Private Key',
  certificateChain: 'Certificate Chain',
  keySize: 'Key Size',
  passphrase: 'Key Passphrase',
} as const;

export const UPLOAD_DEFAULTS = { certificateType: 'DV' as CertificateType, keySize: 2048 };
/** The spec's upload minimum, for RSA keys. */
export const UPLOAD_RSA_MIN_KEY_SIZE = 1024;
const PEM_MAX = 200_000;

/**
 * Upload form (§3, §5). `certificate` is PEM text, or base64 DER / PKCS#12 with `format`;
 * the type and key size are read from the certificate, the form's values are only the spec's fields.
 */
export const UploadCertificate = z.object({
  domain: domainField(uploadLabels.domain),
  certificateType: z.enum(CERTIFICATE_TYPES, { error: fieldMessages.required(uploadLabels.certificateType) }),
  certificate: requiredString(uploadLabels.certificate).max(PEM_MAX),
  privateKey: z.string().max(PEM_MAX).optional().default(''),
  certificateChain: z.string().max(PEM_MAX).optional().default(''),
  /**
   * The size stored is read from the certificate. The spec's minimum of 1024 applies to RSA keys
   * (checked once the certificate is read): an ECDSA P-256 certificate is 256 bits (issue 22 item 9).
   */
  keySize: requiredInt(uploadLabels.keySize, 1, 16384),
  passphrase: z.string().max(1024).optional(),
  format: z.enum(['pem', 'der', 'pkcs12']).optional().default('pem'),
});
export type UploadCertificate = z.input<typeof UploadCertificate>;

export const generateLabels = {
  domain: 'Domain',
  certificateType: 'Certificate Type',
  keyAlgorithm: 'Key Algorithm',
  keySize: 'Key Size',
  signatureAlgorithm: 'Signature Algorithm',
  validityPeriod: 'Validity Period',
  challengeType: 'Challenge Type',
  organizationName: 'Organization Name',
  organizationalUnit: 'Organizational Unit',
  country: 'Country',
  state: 'State',
  city: 'City',
  email: 'Email',
  webrootPath: 'Webroot Path',
  httpVia: 'Answer HTTP-01',
  dnsProvider: 'DNS Provider',
  dnsApiKey: 'API Key',
  dnsApiSecret: 'API Secret',
  method: 'Issued By',
  acmeDirectoryUrl: 'ACME Directory URL',
} as const;

export const GENERATION_DEFAULTS = {
  domain: '',
  certificateType: 'DV' as CertificateType,
  keyAlgorithm: 'RSA' as KeyAlgorithm,
  keySize: 2048,
  signatureAlgorithm: 'SHA256' as (typeof SIGNATURE_ALGORITHMS)[number],
  validityPeriod: 365,
  autoRenewal: true,
  wildcardDomain: false,
  sanDomains: [] as string[],
  organizationName: '',
  organizationalUnit: '',
  country: '',
  state: '',
  city: '',
  email: '',
  challengeType: 'http' as (typeof CHALLENGE_TYPES)[number],
  webrootPath: '',
  httpVia: 'webroot' as (typeof HTTP01_VIA)[number],
  dnsProvider: '',
  dnsCredentials: { apiKey: '', apiSecret: '' },
  method: 'self-signed' as (typeof GENERATION_METHODS)[number],
  acmeDirectoryUrl: LETS_ENCRYPT_DIRECTORY,
};

const optText = (max = 200) => z.string().trim().max(max).optional().default('');

/**
 * How HTTP-01 is answered: token files in a webroot folder the operator's web server serves, or
 * through Mailroom's web server (Apache serves /.well-known/acme-challenge/ of every host from
 * this folder), so no webroot has to be made by hand.
 */
export const HTTP01_VIA = ['webroot', 'web-server'] as const;
export const HTTP01_VIA_LABELS: Record<(typeof HTTP01_VIA)[number], string> = {
  webroot: 'A webroot folder',
  'web-server': "Through Mailroom's web server",
};
export const ACME_WEB_SERVER_WEBROOT = '/var/lib/mailroom/acme-webroot';

/** Generation request (§3) with the rules of §4/§5; `method` says who signs it. */
export const GenerateCertificate = z
  .object({
    domain: domainField(generateLabels.domain),
    certificateType: z.enum(CERTIFICATE_TYPES, {
      error: fieldMessages.required(generateLabels.certificateType),
    }),
    keyAlgorithm: z.enum(KEY_ALGORITHMS, { error: fieldMessages.required(generateLabels.keyAlgorithm) }),
    keySize: requiredInt(generateLabels.keySize, 256, 4096),
    signatureAlgorithm: z.enum(SIGNATURE_ALGORITHMS, {
      error: fieldMessages.required(generateLabels.signatureAlgorithm),
    }),
    validityPeriod: requiredInt(generateLabels.validityPeriod, 1, 3650),
    autoRenewal: z.boolean().optional().default(true),
    wildcardDomain: z.boolean().optional().default(false),
    sanDomains: z
      .array(z.string().trim().regex(DOMAIN_RE, fieldMessages.domain))
      .max(100)
      .optional()
      .default([]),
    organizationName: optText(),
    organizationalUnit: optText(),
    country: optText(2),
    state: optText(),
    city: optText(),
    email: z
      .string()
      .trim()
      .max(254)
      .optional()
      .default('')
      .refine((v) => v === '' || isEmailAddress(v), fieldMessages.email),
    challengeType: z.enum(CHALLENGE_TYPES, { error: fieldMessages.required(generateLabels.challengeType) }),
    webrootPath: optText(1000),
    httpVia: z.enum(HTTP01_VIA).optional().default('webroot'),
    dnsProvider: z.string().max(50).optional().default(''),
    dnsCredentials: z
      .object({ apiKey: z.string().max(500).default(''), apiSecret: z.string().max(500).default('') })
      .optional()
      .default({ apiKey: '', apiSecret: '' }),
    method: z.enum(GENERATION_METHODS).optional().default('self-signed'),
    acmeDirectoryUrl: z.string().url().max(1000).optional().default(LETS_ENCRYPT_DIRECTORY),
  })
  .superRefine((v, ctx) => {
    const need = (field: string, label: string, ok: boolean) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [field], message: fieldMessages.required(label) });
    };
    if (v.certificateType === 'OV' || v.certificateType === 'EV') {
      need('organizationName', generateLabels.organizationName, v.organizationName !== '');
      need('country', generateLabels.country, v.country !== '');
    }
    if (v.method === 'acme') {
      if (v.challengeType === 'http' && v.httpVia === 'webroot')
        need('webrootPath', generateLabels.webrootPath, v.webrootPath !== '');
      if (v.challengeType === 'dns') {
        need('dnsProvider', generateLabels.dnsProvider, v.dnsProvider !== '');
        if (v.dnsProvider !== '' && v.dnsProvider !== 'mailroom') {
          need('dnsCredentials.apiKey', generateLabels.dnsApiKey, v.dnsCredentials.apiKey !== '');
          need('dnsCredentials.apiSecret', generateLabels.dnsApiSecret, v.dnsCredentials.apiSecret !== '');
        }
      }
      if (v.keyAlgorithm === 'Ed25519')
        ctx.addIssue({ code: 'custom', path: ['keyAlgorithm'], message: sslMessages.ed25519Acme });
    }
    if (v.keyAlgorithm === 'RSA' && !(RSA_KEY_SIZES as readonly number[]).includes(v.keySize))
      ctx.addIssue({
        code: 'custom',
        path: ['keySize'],
        message: 'Key Size must be 2048, 3072 or 4096 for RSA',
      });
    if (v.keyAlgorithm === 'ECDSA' && !(ECDSA_KEY_SIZES as readonly number[]).includes(v.keySize))
      ctx.addIssue({
        code: 'custom',
        path: ['keySize'],
        message: 'Key Size must be 256 (P-256) or 384 (P-384) for ECDSA',
      });
  });
export type GenerateCertificate = z.input<typeof GenerateCertificate>;
export type GenerateCertificateParsed = z.output<typeof GenerateCertificate>;

/** A CSR and its key, kept until the signed certificate is uploaded against it. */
export const CsrCreated = z.object({
  id: z.number(),
  domain: z.string(),
  csr: z.string(),
  privateKey: z.string(),
});
export const PendingCsr = z.object({
  id: z.number(),
  domain: z.string(),
  names: z.array(z.string()),
  createdAt: z.string(),
});
export const CsrCompletion = z.object({
  certificate: requiredString(uploadLabels.certificate).max(PEM_MAX),
  certificateChain: z.string().max(PEM_MAX).optional().default(''),
});

export const SslStats = z.object({
  totalCertificates: z.number(),
  validCertificates: z.number(),
  expiringSoon: z.number(),
  expiredCertificates: z.number(),
  /** Unexpired self-signed certificates (counted as valid or expiring, yet not trusted by clients). */
  selfSignedCertificates: z.number(),
});
export type SslStats = z.infer<typeof SslStats>;

export const SslActivity = z.object({
  type: z.enum(['renewal', 'generation', 'expiry', 'upload', 'deletion']),
  description: z.string(),
  timestamp: z.string(),
});
export type SslActivity = z.infer<typeof SslActivity>;

export const SslDashboard = z.object({
  stats: SslStats,
  certificates: z.array(SslCertificate),
  activity: z.array(SslActivity),
});
export type SslDashboard = z.infer<typeof SslDashboard>;

export const RenewExpiringAnswer = z.object({ jobId: z.number().nullable(), message: z.string() });

export const MailCertificateChoice = z.object({
  /**
   * null: automatic, the certificate covering the mail host name (the latest to expire); when none
   * covers it, Mailroom's self-signed fallback certificate.
   */
  certificateId: z.number().int().nullable(),
});

/**
 * Mailroom's own self-signed certificate for the mail host name (`/etc/mailroom/tls/fallback.crt`,
 * subject O=Mailroom self-signed fallback): what Postfix and Dovecot serve while no stored
 * certificate is served. Clients do not trust it.
 */
export const MailFallbackCertificate = z.object({
  hostname: z.string(),
  fingerprint: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  path: z.string(),
});
export type MailFallbackCertificate = z.infer<typeof MailFallbackCertificate>;

export const MailCertificateState = MailCertificateChoice.extend({
  /** The certificate actually served (chosen or found), null: none; the fallback is served. */
  servedId: z.number().nullable(),
  hostname: z.string(),
  /** The fallback on disk (served when servedId is null); null: not made yet (TLS off). */
  fallback: MailFallbackCertificate.nullable(),
});

// ---------------------------------------------------------------------------------------------
// Settings (§3 SSL settings, §5, §9)

export const TLS_VERSIONS = ['1.0', '1.1', '1.2', '1.3'] as const;
export const SSL_SERVER_PROTOCOLS = ['tls', 'ssl', 'both'] as const;
export const SSL_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const sslSettingLabels = {
  serverPort: 'Server Port',
  serverProtocol: 'Server Protocol',
  sslSessionTimeout: 'SSL Session Timeout',
  sslSessionCacheSize: 'SSL Session Cache Size',
  defaultCertificatePath: 'Default Certificate Path',
  certificateChainPath: 'Certificate Chain Path',
  privateKeyPath: 'Private Key Path',
  renewalCheckInterval: 'Renewal Check Interval',
  renewalThreshold: 'Renewal Threshold',
  minimumTlsVersion: 'Minimum TLS Version',
  maximumTlsVersion: 'Maximum TLS Version',
  hstsMaxAge: 'HSTS Max Age',
  sslBufferSize: 'SSL Buffer Size',
  sslSessionTicketLifetime: 'SSL Session Ticket Lifetime',
  sslHandshakeTimeout: 'SSL Handshake Timeout',
  sslReadTimeout: 'SSL Read Timeout',
  sslWriteTimeout: 'SSL Write Timeout',
  sslLogLevel: 'SSL Log Level',
  sslMetricsInterval: 'SSL Metrics Interval',
  sslAlertThreshold: 'SSL Alert Threshold',
  sslHealthCheckInterval: 'SSL Health Check Interval',
  ocspStaplingTimeout: 'OCSP Stapling Timeout',
  sslRenegotiationTimeout: 'SSL Renegotiation Timeout',
  sslClientCertificatePath: 'SSL Client Certificate Path',
  sslClientVerificationDepth: 'SSL Client Verification Depth',
} as const;

export const sslSettingsMessages = {
  http3: 'Apache has no HTTP/3 (QUIC): it cannot be switched on',
  sslProtocols: 'SSL 2.0 and 3.0 are not in the installed OpenSSL: only tls can be served',
  hstsPreloadRules:
    'HSTS Preload needs HSTS Include Subdomains and an HSTS Max Age of at least 31536000 (hstspreload.org)',
  verificationNeedsCertificates: 'SSL Client Verification needs Enable SSL Client Certificates',
  clientCaRequired: 'SSL Client Certificate Path is required to verify client certificates',
  clientCaUnreadable: (path: string) => `No readable PEM certificate at ${path}`,
  privateKeyUnreadable: (path: string) => `No readable PEM private key at ${path}`,
  keyMismatch: (key: string, cert: string) =>
    `The private key at ${key} does not match the certificate at ${cert}`,
  httpsOff:
    'Enable HTTPS is off in the SSL settings: Apache serves no HTTPS and redirects nothing to it (ACME HTTP-01 still works). These values are kept.',
  chainUnverified: (chain: string, cert: string) =>
    `The chain at ${chain} does not verify the certificate at ${cert} (its issuer is not in the chain)`,
} as const;

const L = sslSettingLabels;
const min1 = (label: string) => requiredInt(label, 1);
const path = (label: string) => requiredString(label).max(1000);

export const SslSettings = z
  .object({
    serverPort: requiredInt(L.serverPort, 1, 65535),
    serverProtocol: z.enum(SSL_SERVER_PROTOCOLS, { error: fieldMessages.required(L.serverProtocol) }),
    enableHttps: z.boolean(),
    enableHttp2: z.boolean(),
    enableHttp3: z.boolean(),
    enableSslCompression: z.boolean(),
    enableSslSessionCache: z.boolean(),
    sslSessionTimeout: min1(L.sslSessionTimeout),
    sslSessionCacheSize: min1(L.sslSessionCacheSize),
    defaultCertificatePath: path(L.defaultCertificatePath),
    certificateChainPath: z.string().trim().max(1000),
    privateKeyPath: path(L.privateKeyPath),
    enableAutoRenewal: z.boolean(),
    renewalCheckInterval: min1(L.renewalCheckInterval),
    renewalThreshold: min1(L.renewalThreshold),
    enableWildcardCertificates: z.boolean(),
    enableSanCertificates: z.boolean(),
    minimumTlsVersion: z.enum(TLS_VERSIONS, { error: fieldMessages.required(L.minimumTlsVersion) }),
    maximumTlsVersion: z.enum(TLS_VERSIONS, { error: fieldMessages.required(L.maximumTlsVersion) }),
    enableTls13: z.boolean(),
    enableTls12: z.boolean(),
    enableTls11: z.boolean(),
    enableTls10: z.boolean(),
    enableSslv3: z.boolean(),
    enableSslv2: z.boolean(),
    enableWeakCiphers: z.boolean(),
    enablePerfectForwardSecrecy: z.boolean(),
    enableHsts: z.boolean(),
    hstsMaxAge: min1(L.hstsMaxAge),
    enableHstsIncludeSubdomains: z.boolean(),
    enableHstsPreload: z.boolean(),
    enableSslOffloading: z.boolean(),
    enableSslBuffering: z.boolean(),
    sslBufferSize: requiredInt(L.sslBufferSize, 1024),
    enableSslSessionTickets: z.boolean(),
    sslSessionTicketLifetime: min1(L.sslSessionTicketLifetime),
    enableSslSessionResumption: z.boolean(),
    sslHandshakeTimeout: min1(L.sslHandshakeTimeout),
    sslReadTimeout: min1(L.sslReadTimeout),
    sslWriteTimeout: min1(L.sslWriteTimeout),
    enableSslLogging: z.boolean(),
    sslLogLevel: z.enum(SSL_LOG_LEVELS, { error: fieldMessages.required(L.sslLogLevel) }),
    enableSslMetrics: z.boolean(),
    sslMetricsInterval: min1(L.sslMetricsInterval),
    enableSslAlerts: z.boolean(),
    sslAlertThreshold: min1(L.sslAlertThreshold),
    enableSslHealthChecks: z.boolean(),
    sslHealthCheckInterval: min1(L.sslHealthCheckInterval),
    enableSni: z.boolean(),
    enableOcspStapling: z.boolean(),
    ocspStaplingTimeout: min1(L.ocspStaplingTimeout),
    enableSslRenegotiation: z.boolean(),
    sslRenegotiationTimeout: min1(L.sslRenegotiationTimeout),
    enableSslClientCertificates: z.boolean(),
    sslClientCertificatePath: z.string().trim().max(1000),
    enableSslClientVerification: z.boolean(),
    sslClientVerificationDepth: min1(L.sslClientVerificationDepth),
  })
  .superRefine((v, ctx) => {
    const issue = (field: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    // What Apache cannot honour is refused when switched on, with the reason (issue 19).
    if (v.enableHttp3) issue('enableHttp3', sslSettingsMessages.http3);
    if (v.serverProtocol !== 'tls') issue('serverProtocol', sslSettingsMessages.sslProtocols);
    if (v.enableHsts && v.enableHstsPreload && (!v.enableHstsIncludeSubdomains || v.hstsMaxAge < 31536000))
      issue('enableHstsPreload', sslSettingsMessages.hstsPreloadRules);
    if (v.enableSslClientVerification && !v.enableSslClientCertificates)
      issue('enableSslClientVerification', sslSettingsMessages.verificationNeedsCertificates);
    if (v.enableSslClientCertificates && v.enableSslClientVerification && v.sslClientCertificatePath === '')
      issue('sslClientCertificatePath', sslSettingsMessages.clientCaRequired);
  });
export type SslSettings = z.infer<typeof SslSettings>;

export const SSL_SETTINGS_DEFAULTS: SslSettings = {
  serverPort: 443,
  serverProtocol: 'tls',
  enableHttps: true,
  enableHttp2: true,
  enableHttp3: false,
  enableSslCompression: false,
  enableSslSessionCache: true,
  sslSessionTimeout: 300,
  sslSessionCacheSize: 1000,
  defaultCertificatePath: '/etc/ssl/certs/server.crt',
  certificateChainPath: '/etc/ssl/certs/chain.crt',
  privateKeyPath: '/etc/ssl/private/server.key',
  enableAutoRenewal: true,
  renewalCheckInterval: 24,
  renewalThreshold: 30,
  enableWildcardCertificates: true,
  enableSanCertificates: true,
  minimumTlsVersion: '1.2',
  maximumTlsVersion: '1.3',
  enableTls13: true,
  enableTls12: true,
  enableTls11: false,
  enableTls10: false,
  enableSslv3: false,
  enableSslv2: false,
  enableWeakCiphers: false,
  enablePerfectForwardSecrecy: true,
  enableHsts: true,
  hstsMaxAge: 31536000,
  enableHstsIncludeSubdomains: true,
  enableHstsPreload: false,
  enableSslOffloading: true,
  enableSslBuffering: true,
  sslBufferSize: 8192,
  enableSslSessionTickets: true,
  sslSessionTicketLifetime: 3600,
  enableSslSessionResumption: true,
  sslHandshakeTimeout: 30,
  sslReadTimeout: 60,
  sslWriteTimeout: 60,
  enableSslLogging: true,
  sslLogLevel: 'info',
  enableSslMetrics: true,
  sslMetricsInterval: 300,
  enableSslAlerts: true,
  sslAlertThreshold: 5,
  enableSslHealthChecks: true,
  sslHealthCheckInterval: 60,
  enableSni: true,
  enableOcspStapling: true,
  ocspStaplingTimeout: 10,
  enableSslRenegotiation: false,
  sslRenegotiationTimeout: 30,
  enableSslClientCertificates: false,
  sslClientCertificatePath: '',
  enableSslClientVerification: false,
  sslClientVerificationDepth: 3,
};

/**
 * Where each setting has a real effect: `mail` (rendered into Postfix and Dovecot), `mail-web`
 * (into Postfix, Dovecot and Apache's TLS policy), `web` (into Apache only), `renewal` (Mailroom's
 * renewal scheduler and generation rules), `none` (kept, nothing renders it: `SSL_SETTING_REASONS`
 * says why where the reason is known). The settings page says which.
 */
export type SslSettingEffect = 'mail' | 'mail-web' | 'renewal' | 'web' | 'none';
export const SSL_SETTING_EFFECT: Record<keyof SslSettings, SslSettingEffect> = {
  serverPort: 'web',
  serverProtocol: 'none',
  enableHttps: 'web',
  enableHttp2: 'web',
  enableHttp3: 'none',
  enableSslCompression: 'mail',
  enableSslSessionCache: 'mail-web',
  sslSessionTimeout: 'mail-web',
  sslSessionCacheSize: 'web',
  defaultCertificatePath: 'web',
  certificateChainPath: 'web',
  privateKeyPath: 'web',
  enableAutoRenewal: 'renewal',
  renewalCheckInterval: 'renewal',
  renewalThreshold: 'renewal',
  enableWildcardCertificates: 'renewal',
  enableSanCertificates: 'renewal',
  minimumTlsVersion: 'mail-web',
  maximumTlsVersion: 'mail-web',
  enableTls13: 'mail-web',
  enableTls12: 'mail-web',
  enableTls11: 'mail-web',
  enableTls10: 'mail-web',
  enableSslv3: 'mail-web',
  enableSslv2: 'mail-web',
  enableWeakCiphers: 'mail-web',
  enablePerfectForwardSecrecy: 'mail-web',
  enableHsts: 'web',
  hstsMaxAge: 'web',
  enableHstsIncludeSubdomains: 'web',
  enableHstsPreload: 'web',
  enableSslOffloading: 'web',
  enableSslBuffering: 'web',
  sslBufferSize: 'web',
  enableSslSessionTickets: 'mail-web',
  sslSessionTicketLifetime: 'none',
  enableSslSessionResumption: 'web',
  sslHandshakeTimeout: 'web',
  sslReadTimeout: 'web',
  sslWriteTimeout: 'none',
  enableSslLogging: 'web',
  sslLogLevel: 'web',
  enableSslMetrics: 'web',
  sslMetricsInterval: 'web',
  enableSslAlerts: 'web',
  sslAlertThreshold: 'web',
  enableSslHealthChecks: 'web',
  sslHealthCheckInterval: 'web',
  enableSni: 'web',
  enableOcspStapling: 'web',
  ocspStaplingTimeout: 'web',
  enableSslRenegotiation: 'mail',
  sslRenegotiationTimeout: 'none',
  enableSslClientCertificates: 'web',
  sslClientCertificatePath: 'web',
  enableSslClientVerification: 'web',
  sslClientVerificationDepth: 'web',
};

/**
 * What the web settings do in Apache, said at the field (issue 19): the directive each one renders,
 * or why Apache cannot honour it. Settings marked `none` with a reason here keep their value only.
 */
export const SSL_SETTING_REASONS: Partial<Record<keyof SslSettings, string>> = {
  serverPort:
    "The HTTPS port of every virtual host whose SSL Port is left empty (Apache's Listen and <VirtualHost>)",
  serverProtocol: 'TLS only: SSL 2.0 and 3.0 are not in the installed OpenSSL',
  enableHttps:
    'Off: Apache serves no HTTPS (no HTTPS Listen or virtual host, no HTTP→HTTPS redirect, no HSTS); HTTP and ACME HTTP-01 keep working',
  defaultCertificatePath:
    'The certificate of the HTTPS catch-all (unknown names) and of hosts with SSL on but no certificate chosen (SSLCertificateFile); checked before saving. While the default paths do not exist, Mailroom’s self-signed certificate serves',
  certificateChainPath:
    'The intermediate certificates sent with the default certificate (SSLCertificateChainFile); they must verify it',
  privateKeyPath: "The default certificate's key (SSLCertificateKeyFile); it must match the certificate",
  enableHttp2: 'Apache speaks HTTP/2 over HTTPS (mod_http2, Protocols h2 http/1.1)',
  enableHttp3: sslSettingsMessages.http3,
  enableHsts:
    "Strict-Transport-Security on every HTTPS site; a site with Enable Security Headers sends the Server Configuration's HSTS instead",
  enableSslOffloading:
    'Apache behind a TLS-terminating proxy on this machine (127.0.0.1, ::1): its plain-HTTP requests with X-Forwarded-Proto: https count as HTTPS (no redirect, HSTS sent, HTTPS=on for scripts; SetEnvIfExpr). Other addresses are not trusted',
  enableSslBuffering:
    "Apache's SSLRenegBufferSize: the request body kept while a client certificate is asked for",
  enableSslSessionResumption: 'Off: Apache resumes no session (cached sessions live 0 seconds, no tickets)',
  sslSessionTicketLifetime:
    'mod_ssl has no ticket lifetime of its own: the lifetime hint in its tickets is SSL Session Timeout (SSLSessionCacheTimeout), which applies',
  sslHandshakeTimeout: "Apache's RequestReadTimeout handshake= (mod_reqtimeout)",
  sslReadTimeout: "Apache's RequestReadTimeout header= and body= for every request (mod_reqtimeout)",
  sslWriteTimeout:
    'Apache has no write timeout of its own for TLS: Server Configuration → Timeout (one value for reads and writes of every connection) applies',
  sslRenegotiationTimeout:
    'Apache has no renegotiation timeout: TLS 1.3 has no renegotiation, and mod_ssl refuses renegotiation started by clients; it starts one on TLS 1.2 only for per-directory SSL settings, within Server Configuration → Timeout',
  enableSslLogging: "Apache's LogLevel ssl: off logs only mod_ssl's emergencies",
  enableSslMetrics:
    'Access log: %{SSL_PROTOCOL}x %{SSL_CIPHER}x %k %{SSL_SESSION_RESUMED}x (and the HTTP/2 stream) of every request, rolled up per minute: requests, handshakes and resumed sessions per protocol and cipher (SSL Certificates page, TLS Traffic). Needs Enable HTTPS',
  sslMetricsInterval:
    'Seconds of traffic the TLS Traffic figures cover, rounded up to whole minutes (the roll-up is per minute)',
  enableSslAlerts:
    'System alerts (and their webhooks) from the last health checks: a served certificate within SSL Alert Threshold days of expiry, a served certificate that is not the chosen one, a failed handshake. Needs Enable SSL Health Checks',
  sslAlertThreshold: 'Days before expiry of a served certificate that raise an alert (critical once expired)',
  enableSslHealthChecks:
    "A TLS handshake with SNI with every served HTTPS host name on Apache's HTTPS port, at the interval: served certificate, days left, protocol or failure (SSL Certificates page)",
  sslHealthCheckInterval: 'Seconds between two rounds of health checks',
  enableSni:
    "On: an HTTPS client must name its site by SNI, else 403 (SSLStrictSNIVHostCheck on); off: it reaches the catch-all's certificate and a 421 answer",
  enableSslClientCertificates:
    'Apache asks HTTPS clients for a certificate; with SSL Client Verification, a request without a certificate signed by the CA file is refused (403)',
  sslClientCertificatePath:
    'The CA certificates (PEM) client certificates must be signed by (SSLCACertificateFile)',
};

export const SslSettingsResponse = z.object({
  settings: SslSettings,
  version: z.number(),
  defaults: SslSettings,
});
export const SaveSslSettings = z.object({ settings: SslSettings, version: z.number().int() });

const IdParams = z.object({ id: requiredInt('id', 1) });
const tags = ['ssl'];

export const sslRoutes = {
  dashboard: defineRoute({
    method: 'GET',
    path: 'ssl/dashboard',
    summary: 'Certificate counts, the certificates expiring first and recent SSL activity',
    tags,
    query: z.object({ limit: queryInt(1, 100, 'limit').optional() }),
    response: SslDashboard,
  }),
  list: defineRoute({
    method: 'GET',
    path: 'ssl/certificates',
    summary: 'Certificates (search by domain, issuer, status; filter by status and issuer)',
    tags,
    query: CertificateListQuery,
    response: z.array(SslCertificate),
  }),
  get: defineRoute({
    method: 'GET',
    path: 'ssl/certificates/:id',
    summary: 'One certificate with its PEMs (never the key)',
    tags,
    params: IdParams,
    response: SslCertificateDetail,
  }),
  upload: defineRoute({
    method: 'POST',
    path: 'ssl/certificates/upload',
    summary: 'Store a certificate with its key and chain, after checking them',
    tags,
    body: UploadCertificate,
    response: SslCertificate,
    audit: 'ssl.certificate.upload',
  }),
  generate: defineRoute({
    method: 'POST',
    path: 'ssl/certificates/generate',
    summary: 'Generate a self-signed or ACME certificate as a job (four stages)',
    tags,
    body: GenerateCertificate,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'ssl.certificate.generate',
  }),
  createCsr: defineRoute({
    method: 'POST',
    path: 'ssl/csr',
    summary: 'Make a key and a certificate signing request for an outside CA',
    tags,
    body: GenerateCertificate,
    response: CsrCreated,
    audit: 'ssl.csr.create',
  }),
  listCsrs: defineRoute({
    method: 'GET',
    path: 'ssl/csr',
    summary: 'CSRs waiting for their signed certificate',
    tags,
    response: z.array(PendingCsr),
  }),
  completeCsr: defineRoute({
    method: 'POST',
    path: 'ssl/csr/:id/certificate',
    summary: 'Upload the certificate an outside CA signed for a pending CSR',
    tags,
    params: IdParams,
    body: CsrCompletion,
    response: SslCertificate,
    audit: 'ssl.csr.complete',
  }),
  renew: defineRoute({
    method: 'POST',
    path: 'ssl/certificates/:id/renew',
    summary: 'Renew one certificate (a job)',
    tags,
    params: IdParams,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'ssl.certificate.renew',
  }),
  renewByDomain: defineRoute({
    method: 'POST',
    path: 'ssl/certificates/renew',
    summary: 'Renew the certificate of a domain (a job)',
    tags,
    body: z.object({ domain: domainField(uploadLabels.domain) }),
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'ssl.certificate.renew',
  }),
  renewExpiring: defineRoute({
    method: 'POST',
    path: 'ssl/certificates/renew-expiring',
    summary: 'Renew every expiring certificate (a job), or say none is expiring',
    tags,
    response: RenewExpiringAnswer,
    audit: 'ssl.certificate.renew-expiring',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: 'ssl/certificates/:id',
    summary: 'Delete a certificate (refused while in use unless confirm=true)',
    tags,
    params: IdParams,
    query: z.object({ confirm: z.enum(['true', 'false', '1', '0']).optional() }),
    response: OkResponse,
    audit: 'ssl.certificate.delete',
  }),
  getSettings: defineRoute({
    method: 'GET',
    path: 'ssl/settings',
    summary: 'SSL settings with the defaults',
    tags,
    response: SslSettingsResponse,
  }),
  saveSettings: defineRoute({
    method: 'POST',
    path: 'ssl/settings',
    summary: 'Save SSL settings (renders the mail stack TLS settings)',
    tags,
    body: SaveSslSettings,
    response: SslSettingsResponse,
    audit: 'ssl.settings.save',
  }),
  getMailCertificate: defineRoute({
    method: 'GET',
    path: 'ssl/mail-certificate',
    summary: 'The certificate Postfix and Dovecot serve',
    tags,
    response: MailCertificateState,
  }),
  setMailCertificate: defineRoute({
    method: 'PUT',
    path: 'ssl/mail-certificate',
    summary: 'Choose the certificate Postfix and Dovecot serve (null: the host name’s)',
    tags,
    body: MailCertificateChoice,
    response: MailCertificateState,
    audit: 'ssl.mail-certificate.set',
  }),
} as const;

/** Download and export are streamed (not JSON): their paths. */
export const SSL_DOWNLOAD_PATH = '/api/ssl/certificates/:id/download';
export const SSL_EXPORT_PATH = '/api/ssl/certificates/export';

/** The two file answers as catalogue entries, for the console's downloads (not JSON). */
export const sslFileRoutes = {
  exportCsv: defineRoute({
    method: 'GET',
    path: 'ssl/certificates/export',
    summary: 'ssl-certificates-{date}.csv',
    tags,
    response: z.unknown(),
  }),
  download: defineRoute({
    method: 'GET',
    path: 'ssl/certificates/:id/download',
    summary: 'PEM bundle or zip (key, chain, fullchain)',
    tags,
    params: IdParams,
    query: z.object({ format: z.enum(['pem', 'zip']).optional() }),
    response: z.unknown(),
  }),
} as const;
