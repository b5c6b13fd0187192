import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { removeTree } from '../../../host/disk-files.ts';
import { fileExists } from '../../../host/folders.ts';
import { type Host } from '../../../host/host.ts';
import { makeScratchDir, readScratchFile } from '../../../host/scratch.ts';
import { MAIL_PATHS, MANAGED_HEADER } from './mail-paths.layout.ts';

/** Lines in front of the fallback's PEM files: Mailroom made it, and why it is served. */
export const fallbackMark = (hostname: string) =>
  `${MANAGED_HEADER}\n# Mailroom's self-signed fallback certificate for ${hostname}: served by Postfix and Dovecot while no certificate is chosen for the mail server (SSL area). Clients do not trust it.\n`;

/** The subject that marks the fallback in the certificate itself. */
export const FALLBACK_ORGANIZATION = 'Mailroom self-signed fallback';

/** Renewed this long before its end (it is made for 825 days). */
const FALLBACK_RENEW_MS = 30 * 86_400_000;

export interface FallbackCertificate {
  hostname: string;
  fingerprint: string;
  validFrom: string;
  validTo: string;
  path: string;
}

/** The fallback on disk, or null when there is none (or it does not parse). */
export async function readFallbackCertificate(host: Host): Promise<FallbackCertificate | null> {
  const pem = await host.readFile(MAIL_PATHS.tlsFallbackCert);
  if (!pem) return null;
  try {
    const x = new X509Certificate(pem);
    const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject)?.[1] ?? '';
    return {
      hostname: cn,
      fingerprint: x.fingerprint256,
      validFrom: new Date(x.validFrom).toISOString(),
      validTo: new Date(x.validTo).toISOString(),
      path: host.path(MAIL_PATHS.tlsFallbackCert),
    };
  } catch {
    return null;
  }
}

/**
 * Mailroom's self-signed fallback certificate for the mail host, so Postfix and Dovecot always
 * have one to serve: made when TLS is on and there is none yet, for another host name, or near
 * its end. The SSL area's certificate, when it serves one, is written beside it (mail.crt).
 */
export async function ensureFallbackCertificate(host: Host, hostname: string): Promise<string | null> {
  const current = await readFallbackCertificate(host);
  if (
    current &&
    (await fileExists(host, MAIL_PATHS.tlsFallbackKey)) &&
    current.hostname === hostname &&
    Date.parse(current.validTo) - Date.now() > FALLBACK_RENEW_MS
  )
    return null;
  const openssl = await host.which('openssl');
  if (!openssl)
    return `TLS is on but there is no certificate at ${host.path(MAIL_PATHS.tlsFallbackCert)} and openssl is not installed (Debian package: openssl)`;
  const tmp = await makeScratchDir('mailroom-tls-');
  try {
    const key = path.join(tmp, 'key.pem');
    const crt = path.join(tmp, 'crt.pem');
    const r = await host.run(openssl, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '825',
      '-subj',
      `/O=${FALLBACK_ORGANIZATION}/CN=${hostname}`,
      '-addext',
      `subjectAltName=DNS:${hostname}`,
      '-keyout',
      key,
      '-out',
      crt,
    ]);
    if (r.code !== 0) return `could not make a self-signed certificate: ${r.stderr.trim()}`;
    const mark = fallbackMark(hostname);
    await host.commitFiles([
      { path: MAIL_PATHS.tlsFallbackKey, content: mark + (await readScratchFile(key)), mode: 0o600 },
      { path: MAIL_PATHS.tlsFallbackCert, content: mark + (await readScratchFile(crt)) },
    ]);
    return null;
  } finally {
    await removeTree(tmp);
  }
}
