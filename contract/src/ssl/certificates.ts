import { z } from 'zod';
import { ListQuery } from '../common.ts';
import { fieldMessages } from '../messages.ts';
import { DOMAIN_RE, domainField, isEmailAddress, requiredInt, requiredString } from '../validators.ts';
import {
  CERTIFICATE_SOURCES,
  CERTIFICATE_STATUSES,
  CERTIFICATE_TYPES,
  CHALLENGE_TYPES,
  type CertificateType,
  ECDSA_KEY_SIZES,
  GENERATION_METHODS,
  KEY_ALGORITHMS,
  type KeyAlgorithm,
  LETS_ENCRYPT_DIRECTORY,
  RSA_KEY_SIZES,
  SIGNATURE_ALGORITHMS,
  sslMessages,
} from './constants.ts';

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
