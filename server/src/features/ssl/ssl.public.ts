/** What the other features may call of the SSL area (the owner of `ssl_certificates`). */
export { expiringLatest as expiringCertificates } from './certificate.repository.ts';
