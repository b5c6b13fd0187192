import { X509Certificate, createPrivateKey } from 'node:crypto';
import { SSL_SETTINGS_DEFAULTS, type SslSettings, sslSettingsMessages } from '@mailroom/contract/ssl';
import { webMessages } from '@mailroom/contract/web/vhosts';
import { machineFileExists, readMachineFile } from '../../../host/apache-host.ts';
import { MODULES, modulePath } from '../stack/apache-modules.rules.ts';
import type { WebTlsExtras } from '../stack/web-tls-policy.rules.ts';

/** A path Apache reads inside double quotes: absolute, no quote, backslash or control character. */
const SAFE_PATH = /^\/[^"\\\r\n\0]*$/;
const readSafe = (p: string) => (p && SAFE_PATH.test(p) ? readMachineFile(p) : Promise.resolve(null));

type DefaultCertificate = NonNullable<WebTlsExtras['defaultCertificate']>;

/** The spec's default paths (/etc/ssl/certs/server.crt, /etc/ssl/private/server.key). */
const atSpecDefaults = (c: DefaultCertificate) =>
  c.certificateFile === SSL_SETTINGS_DEFAULTS.defaultCertificatePath &&
  c.keyFile === SSL_SETTINGS_DEFAULTS.privateKeyPath;

const pemBlocks = (text: string) =>
  text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

/**
 * The default certificate Apache serves (the HTTPS catch-all and hosts with SSL on but no
 * certificate of their own): the files set in the SSL settings, or null (Mailroom's self-signed
 * catch-all certificate) while they are the spec's default paths and neither file exists on this
 * machine. A chain file that is absent is left out.
 */
export async function resolveDefaultCertificate(
  c: DefaultCertificate | null | undefined,
): Promise<DefaultCertificate | null> {
  if (!c) return null;
  const [cert, key, chain] = await Promise.all([
    readSafe(c.certificateFile),
    readSafe(c.keyFile),
    c.chainFile ? readSafe(c.chainFile) : Promise.resolve(null),
  ]);
  if (cert === null && key === null && atSpecDefaults(c)) return null;
  return { ...c, chainFile: chain !== null ? c.chainFile : null };
}

/**
 * Default Certificate Path, Certificate Chain Path and Private Key Path, checked before they are
 * saved: readable PEM, the key matches the certificate, the chain verifies it. The spec's default
 * paths absent on this machine are not an error (Mailroom's self-signed certificate serves then).
 */
export async function defaultCertificateRefusals(s: SslSettings): Promise<Record<string, string>> {
  const c: DefaultCertificate = {
    certificateFile: s.defaultCertificatePath,
    keyFile: s.privateKeyPath,
    chainFile: s.certificateChainPath || null,
  };
  const [certPem, keyPem, chainPem] = await Promise.all([
    readSafe(c.certificateFile),
    readSafe(c.keyFile),
    c.chainFile ? readSafe(c.chainFile) : Promise.resolve(null),
  ]);
  if (certPem === null && keyPem === null && atSpecDefaults(c)) return {};
  let cert: X509Certificate | null = null;
  try {
    if (certPem && pemBlocks(certPem).length) cert = new X509Certificate(pemBlocks(certPem)[0]!);
  } catch {
    cert = null;
  }
  if (!cert) return { defaultCertificatePath: sslSettingsMessages.clientCaUnreadable(c.certificateFile) };
  let key: ReturnType<typeof createPrivateKey> | null = null;
  try {
    if (keyPem && /PRIVATE KEY-----/.test(keyPem)) key = createPrivateKey(keyPem);
  } catch {
    key = null;
  }
  if (!key) return { privateKeyPath: sslSettingsMessages.privateKeyUnreadable(c.keyFile) };
  if (!cert.checkPrivateKey(key))
    return { privateKeyPath: sslSettingsMessages.keyMismatch(c.keyFile, c.certificateFile) };
  if (!c.chainFile) return {};
  // The spec's default chain path absent: no chain (a certificate whose issuer is a root, or self-signed).
  if (chainPem === null && c.chainFile === SSL_SETTINGS_DEFAULTS.certificateChainPath) return {};
  let chain: X509Certificate[] = [];
  try {
    chain = pemBlocks(chainPem ?? '').map((b) => new X509Certificate(b));
  } catch {
    chain = [];
  }
  if (!chain.length) return { certificateChainPath: sslSettingsMessages.clientCaUnreadable(c.chainFile) };
  // Each link is issued and signed by the next: the certificate by the chain's first, and so on.
  let child = cert;
  for (const issuer of chain) {
    if (!child.checkIssued(issuer) || !child.verify(issuer.publicKey))
      return { certificateChainPath: sslSettingsMessages.chainUnverified(c.chainFile, c.certificateFile) };
    child = issuer;
  }
  return {};
}

/**
 * SSL settings the installed Apache cannot honour (issue 19), field -> the refusal: the module to
 * install, or the file Apache could not read. The SSL area asks before it saves (wired in app.ts).
 */
export async function sslSettingsRefusals(s: SslSettings): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (s.enableHttp2 && !(await machineFileExists(modulePath(MODULES.http2))))
    out.enableHttp2 = webMessages.moduleMissing('mod_http2', MODULES.http2.package);
  if (s.enableSslClientCertificates && s.enableSslClientVerification && s.sslClientCertificatePath) {
    const p = s.sslClientCertificatePath;
    const pem = await readSafe(p);
    if (!pem || !pem.includes('-----BEGIN CERTIFICATE-----'))
      out.sslClientCertificatePath = sslSettingsMessages.clientCaUnreadable(p);
  }
  Object.assign(out, await defaultCertificateRefusals(s));
  return out;
}
