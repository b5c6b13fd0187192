import {
  SSL_LOG_LEVELS,
  SSL_SERVER_PROTOCOLS,
  SSL_SETTINGS_DEFAULTS,
  SSL_SETTING_EFFECT,
  SSL_SETTING_REASONS,
  type SslSettingEffect,
  type SslSettings,
  sslMessages,
  TLS_VERSIONS,
} from '@mailroom/contract/ssl';
import { Badge } from '@mantine/core';

/** The SSL settings form's fields: labels, choices, sections and what each does in Apache. */

export type Key = keyof SslSettings;
export type Values = Record<Key, string | number | boolean>;

/** Labels of the switches (the spec's model names, in words). */
export const SWITCH_LABELS: Partial<Record<Key, string>> = {
  enableHttps: 'Enable HTTPS',
  enableHttp2: 'Enable HTTP/2',
  enableHttp3: 'Enable HTTP/3',
  enableSslCompression: 'Enable SSL Compression',
  enableSslSessionCache: 'Enable SSL Session Cache',
  enableAutoRenewal: 'Enable Auto-Renewal',
  enableWildcardCertificates: 'Enable Wildcard Certificates',
  enableSanCertificates: 'Enable SAN Certificates',
  enableTls13: 'Enable TLS 1.3',
  enableTls12: 'Enable TLS 1.2',
  enableTls11: 'Enable TLS 1.1',
  enableTls10: 'Enable TLS 1.0',
  enableWeakCiphers: 'Enable Weak Ciphers',
  enablePerfectForwardSecrecy: 'Enable Perfect Forward Secrecy',
  enableHsts: 'Enable HSTS',
  enableHstsIncludeSubdomains: 'HSTS Include Subdomains',
  enableHstsPreload: 'HSTS Preload',
  enableSslSessionTickets: 'Enable SSL Session Tickets',
  enableSslRenegotiation: 'Enable SSL Renegotiation',
  enableSslLogging: 'Enable SSL Logging',
  enableSslMetrics: 'Enable SSL Metrics',
  enableSslAlerts: 'Enable SSL Alerts',
  enableSslHealthChecks: 'Enable SSL Health Checks',
  enableSni: 'Enable SNI',
  enableOcspStapling: 'Enable OCSP Stapling',
  enableSslSessionResumption: 'Enable SSL Session Resumption',
  enableSslBuffering: 'Enable SSL Buffering',
  enableSslClientCertificates: 'Enable SSL Client Certificates',
  enableSslClientVerification: 'Enable SSL Client Verification',
};

/** Switches Apache cannot honour: they cannot be switched on (the reason shows under them). */
export const CANNOT_SWITCH_ON: ReadonlySet<Key> = new Set<Key>(['enableHttp3']);

export const SELECTS: Partial<Record<Key, readonly string[]>> = {
  serverProtocol: SSL_SERVER_PROTOCOLS,
  minimumTlsVersion: TLS_VERSIONS,
  maximumTlsVersion: TLS_VERSIONS,
  sslLogLevel: SSL_LOG_LEVELS,
};

/** The six sections and the controls the form shows (§2: only some flags are editable). */
export const SECTIONS: [string, Key[]][] = [
  [
    'Server Configuration',
    ['serverPort', 'serverProtocol', 'enableHttps', 'enableHttp2', 'enableHttp3', 'enableSni'],
  ],
  [
    'Certificate Configuration',
    [
      'defaultCertificatePath',
      'certificateChainPath',
      'privateKeyPath',
      'enableAutoRenewal',
      'renewalCheckInterval',
      'renewalThreshold',
      'enableWildcardCertificates',
      'enableSanCertificates',
    ],
  ],
  [
    'Security Settings',
    [
      'minimumTlsVersion',
      'maximumTlsVersion',
      'enableTls13',
      'enableTls12',
      'enableTls11',
      'enableTls10',
      'enableWeakCiphers',
      'enablePerfectForwardSecrecy',
      'enableHsts',
      'hstsMaxAge',
      'enableHstsIncludeSubdomains',
      'enableHstsPreload',
    ],
  ],
  [
    'Performance Settings',
    [
      'enableSslSessionCache',
      'sslSessionTimeout',
      'sslSessionCacheSize',
      'enableSslSessionTickets',
      'sslSessionTicketLifetime',
      'enableSslSessionResumption',
      'enableSslBuffering',
      'sslBufferSize',
      'sslHandshakeTimeout',
      'sslReadTimeout',
      'sslWriteTimeout',
    ],
  ],
  [
    'Monitoring and Logging',
    [
      'enableSslLogging',
      'sslLogLevel',
      'enableSslMetrics',
      'sslMetricsInterval',
      'enableSslAlerts',
      'sslAlertThreshold',
      'enableSslHealthChecks',
      'sslHealthCheckInterval',
    ],
  ],
  [
    'Advanced Settings',
    [
      'enableOcspStapling',
      'ocspStaplingTimeout',
      'enableSslRenegotiation',
      'sslRenegotiationTimeout',
      'enableSslClientCertificates',
      'sslClientCertificatePath',
      'enableSslClientVerification',
      'sslClientVerificationDepth',
    ],
  ],
];

// The badge wraps its text instead of cutting it off when the column is narrow.
/** Under an input: what renders it (the badges mark the web-only and no-effect ones). */
export const EFFECT_DESCRIPTION: Partial<Record<SslSettingEffect, string>> = {
  mail: 'Applies to the mail server (Postfix, Dovecot)',
  'mail-web': 'Applies to the mail server (Postfix, Dovecot) and the web server (Apache)',
};

/** What the field does in Apache, or why Apache cannot honour it; else where it applies. */
export const describe = (k: Key): string | undefined =>
  SSL_SETTING_REASONS[k] ?? EFFECT_DESCRIPTION[SSL_SETTING_EFFECT[k]];

export const EFFECT_BADGE_STYLES = {
  root: { height: 'auto', maxWidth: '100%' },
  label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', lineHeight: 1.3 },
} as const;

/** `stacked`: under an input (kept to its text's width), else beside a switch (centred on it). */
export function EffectBadge({ k, stacked }: { k: Key; stacked: boolean }) {
  const e = SSL_SETTING_EFFECT[k];
  if (e !== 'web' && e !== 'none') return null;
  return (
    <Badge
      size="xs"
      variant="outline"
      color="gray"
      tt="none"
      styles={EFFECT_BADGE_STYLES}
      style={{ alignSelf: stacked ? 'flex-start' : 'center' }}
    >
      {e === 'web' ? sslMessages.appliesToWeb : sslMessages.noEffect}
    </Badge>
  );
}

// An emptied number input reads '{Label} is required'; text fields stay strings.
export const toRequest = (v: Values) =>
  Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      x === '' && typeof SSL_SETTINGS_DEFAULTS[k as Key] === 'number' ? undefined : x,
    ]),
  ) as unknown as SslSettings;
