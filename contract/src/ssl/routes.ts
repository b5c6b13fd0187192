import { z } from 'zod';
import { OkResponse } from '../common.ts';
import { JobAccepted } from '../jobs.ts';
import { defineRoute } from '../route.ts';
import { domainField, queryInt, requiredInt } from '../validators.ts';
import {
  CertificateListQuery,
  CsrCompletion,
  CsrCreated,
  GenerateCertificate,
  MailCertificateChoice,
  MailCertificateState,
  PendingCsr,
  RenewExpiringAnswer,
  SslCertificate,
  SslCertificateDetail,
  SslDashboard,
  UploadCertificate,
  uploadLabels,
} from './certificates.ts';
import { SaveSslSettings, SslSettingsResponse } from './settings.ts';

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
