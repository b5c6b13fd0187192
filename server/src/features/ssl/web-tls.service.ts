import type { SslSettings } from '@mailroom/contract/ssl';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretVault } from '../../security/secret-vault.ts';
import { allowedTlsVersions, readSslSettings } from './ssl-settings.service.ts';
import { findRow } from './certificate.repository.ts';

type Db = Kysely<Database>;

/** A stored certificate for a web site: PEMs (the key opened from the vault) and its names. */
export interface WebTls {
  certificatePem: string;
  chainPem: string;
  keyPem: string;
  names: string[];
  fingerprint: string;
}

/** For the web area (app.ts hands it over): the certificate with this id, or null. */
export function webTlsSource(vault: SecretVault): (id: number, db: Db) => Promise<WebTls | null> {
  return async (id, db) => {
    const row = await findRow(db, id);
    if (!row) return null;
    return {
      certificatePem: row.certificate_pem,
      chainPem: row.chain_pem,
      keyPem: vault.open(row.key_enc),
      names: JSON.parse(row.names) as string[],
      fingerprint: row.fingerprint,
    };
  };
}

/** The SSL settings that apply to the web server (Apache's SSL directives; the web area's own copy of this shape is web/stack/web-tls-policy.ts: neither feature imports the other). */
export interface WebTlsPolicy {
  /** OpenSSL names of the TLS versions switched on between the minimum and the maximum. */
  protocols: string[];
  weakCiphers: boolean;
  forwardSecrecy: boolean;
  sessionCache: boolean;
  sessionCacheSize: number;
  sessionTimeout: number;
  sessionTickets: boolean;
  ocspStapling: boolean;
  ocspTimeout: number;
  extras: WebTlsExtras;
}

/** The settings beyond protocols, ciphers, sessions and OCSP that Apache honours (issue 19). */
export interface WebTlsExtras {
  serverPort: number;
  http2: boolean;
  hsts: string | null;
  strictSni: boolean;
  handshakeTimeout: number;
  readTimeout: number;
  renegBufferSize: number | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'emerg';
  clientCertificates: { verify: 'optional_no_ca' | 'require'; caFile: string | null; depth: number } | null;
  /** Enable HTTPS: off, Apache serves no HTTPS (no listener, no TLS sides, no redirect, no HSTS). */
  https: boolean;
  /** The default certificate's files as set (the web area falls back when the spec's defaults are absent). */
  defaultCertificate: { certificateFile: string; keyFile: string; chainFile: string | null };
  /** SSL Offloading: the proxy addresses whose X-Forwarded-Proto: https counts as HTTPS (null: off). */
  offloadingProxies: string[] | null;
  /** Enable SSL Health Checks: seconds between rounds of handshakes with every served name (null: off). */
  healthCheckInterval: number | null;
  /** Enable SSL Alerts: days before expiry a served certificate raises an alert (null: off). */
  alertThresholdDays: number | null;
  /**
   * Enable SSL Metrics: Apache logs the protocol, cipher, keep-alive count and resumption of every
   * request (a `tls:` field of the access log), rolled up per minute; SSL Metrics Interval: the
   * seconds the figures shown cover (null: off).
   */
  metricsInterval: number | null;
}

/**
 * The addresses of the TLS-terminating proxies SSL Offloading trusts: the loopback addresses, a
 * proxy on this machine (no setting of the spec names them; a proxy elsewhere is not trusted).
 */
export const TRUSTED_PROXIES = ['127.0.0.1', '::1'];

const OPENSSL: Record<string, string> = {
  '1.0': 'TLSv1',
  '1.1': 'TLSv1.1',
  '1.2': 'TLSv1.2',
  '1.3': 'TLSv1.3',
};

/** For the web area (app.ts hands it over): the SSL settings as Apache's TLS policy. */
export function webTlsPolicySource(): (db: Db) => Promise<WebTlsPolicy> {
  return async (db) => {
    const { settings: s } = await readSslSettings(db);
    return {
      protocols: allowedTlsVersions(s).map((v) => OPENSSL[v]!),
      weakCiphers: s.enableWeakCiphers,
      forwardSecrecy: s.enablePerfectForwardSecrecy,
      // Session Resumption off: no session is resumed at all. The cache stays configured with a
      // lifetime of 0 (Apache 2.4 dies on a graceful restart from a shared cache to `none`), and no
      // tickets are issued.
      sessionCache: s.enableSslSessionCache,
      sessionCacheSize: s.sslSessionCacheSize,
      sessionTimeout: s.enableSslSessionResumption ? s.sslSessionTimeout : 0,
      sessionTickets: s.enableSslSessionTickets && s.enableSslSessionResumption,
      ocspStapling: s.enableOcspStapling,
      ocspTimeout: s.ocspStaplingTimeout,
      extras: webTlsExtras(s),
    };
  };
}

/** The SSL settings beyond the TLS policy that Apache honours (issue 19). */
export function webTlsExtras(s: SslSettings): WebTlsExtras {
  const hsts = [`max-age=${s.hstsMaxAge}`];
  if (s.enableHstsIncludeSubdomains) hsts.push('includeSubDomains');
  if (s.enableHstsPreload) hsts.push('preload');
  return {
    serverPort: s.serverPort,
    http2: s.enableHttp2,
    hsts: s.enableHsts ? hsts.join('; ') : null,
    strictSni: s.enableSni,
    handshakeTimeout: s.sslHandshakeTimeout,
    readTimeout: s.sslReadTimeout,
    renegBufferSize: s.enableSslBuffering ? s.sslBufferSize : null,
    logLevel: s.enableSslLogging ? s.sslLogLevel : 'emerg',
    clientCertificates: s.enableSslClientCertificates
      ? s.enableSslClientVerification
        ? { verify: 'require', caFile: s.sslClientCertificatePath, depth: s.sslClientVerificationDepth }
        : { verify: 'optional_no_ca', caFile: null, depth: s.sslClientVerificationDepth }
      : null,
    https: s.enableHttps,
    defaultCertificate: {
      certificateFile: s.defaultCertificatePath,
      keyFile: s.privateKeyPath,
      chainFile: s.certificateChainPath || null,
    },
    offloadingProxies: s.enableSslOffloading ? TRUSTED_PROXIES : null,
    healthCheckInterval: s.enableSslHealthChecks ? s.sslHealthCheckInterval : null,
    alertThresholdDays: s.enableSslAlerts ? s.sslAlertThreshold : null,
    metricsInterval: s.enableSslMetrics ? s.sslMetricsInterval : null,
  };
}
