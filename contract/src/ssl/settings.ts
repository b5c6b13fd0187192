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
  enableHttps: 'none',
  enableHttp2: 'web',
  enableHttp3: 'none',
  enableSslCompression: 'mail',
  enableSslSessionCache: 'mail-web',
  sslSessionTimeout: 'mail-web',
  sslSessionCacheSize: 'web',
  defaultCertificatePath: 'none',
  certificateChainPath: 'none',
  privateKeyPath: 'none',
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
  enableSslOffloading: 'none',
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
  enableSslMetrics: 'none',
  sslMetricsInterval: 'none',
  enableSslAlerts: 'none',
  sslAlertThreshold: 'none',
  enableSslHealthChecks: 'none',
  sslHealthCheckInterval: 'none',
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
  enableHttp2: 'Apache speaks HTTP/2 over HTTPS (mod_http2, Protocols h2 http/1.1)',
  enableHttp3: sslSettingsMessages.http3,
  enableHsts:
    "Strict-Transport-Security on every HTTPS site; a site with Enable Security Headers sends the Server Configuration's HSTS instead",
  enableSslOffloading:
    'Apache always ends TLS for the sites and the web applications behind it; passing TLS through is not built',
  enableSslBuffering:
    "Apache's SSLRenegBufferSize: the request body kept while a client certificate is asked for",
  enableSslSessionResumption: 'Off: Apache resumes no session (cached sessions live 0 seconds, no tickets)',
  sslSessionTicketLifetime:
    'Apache gives tickets the lifetime of cached sessions: SSL Session Timeout applies (SSLSessionCacheTimeout)',
  sslHandshakeTimeout: "Apache's RequestReadTimeout handshake= (mod_reqtimeout)",
  sslReadTimeout: "Apache's RequestReadTimeout header= and body= for every request (mod_reqtimeout)",
  sslWriteTimeout:
    'Apache has no write timeout of its own for TLS: Server Configuration → Timeout applies to every connection',
  enableSslLogging: "Apache's LogLevel ssl: off logs only mod_ssl's emergencies",
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
