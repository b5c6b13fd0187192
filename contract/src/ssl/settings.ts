import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { requiredInt, requiredString } from '../validators.ts';

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
