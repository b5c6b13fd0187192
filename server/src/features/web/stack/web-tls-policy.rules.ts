/** The SSL area's settings that apply to the web server (given by app.ts). */
export interface WebTlsPolicy {
  protocols: string[];
  weakCiphers: boolean;
  forwardSecrecy: boolean;
  sessionCache: boolean;
  sessionCacheSize: number;
  sessionTimeout: number;
  sessionTickets: boolean;
  ocspStapling: boolean;
  ocspTimeout: number;
  /** The rest (issue 19): absent in an older caller, Apache's defaults then. */
  extras?: WebTlsExtras;
}

/** The SSL settings beyond protocols, ciphers, sessions and OCSP (rendered by ssl-extras.renderer.ts). */
export interface WebTlsExtras {
  /** Server Port: the HTTPS port of hosts whose SSL Port is empty. */
  serverPort: number;
  /** Enable HTTP/2: `Protocols h2 http/1.1` (mod_http2). */
  http2: boolean;
  /** Strict-Transport-Security value for every HTTPS site (null: HSTS off). */
  hsts: string | null;
  /** Enable SNI: SSLStrictSNIVHostCheck. */
  strictSni: boolean;
  /** RequestReadTimeout handshake= / header= and body= (seconds). */
  handshakeTimeout: number;
  readTimeout: number;
  /** SSLRenegBufferSize in bytes (null: buffering off, Apache's default). */
  renegBufferSize: number | null;
  /** LogLevel ssl:<level>. */
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'emerg';
  /** Client certificates: asked for (optional_no_ca) or verified against the CA file (null: off). */
  clientCertificates: { verify: 'optional_no_ca' | 'require'; caFile: string | null; depth: number } | null;
  /** Enable HTTPS: off, Apache serves no HTTPS (no listener, no TLS sides, no redirect, no HSTS). */
  https?: boolean;
  /**
   * The certificate of the HTTPS catch-all and of hosts with SSL on but no certificate of their own
   * (absolute paths; null: Mailroom's self-signed catch-all certificate).
   */
  defaultCertificate?: { certificateFile: string; keyFile: string; chainFile: string | null } | null;
  /** SSL Offloading: the proxy addresses whose X-Forwarded-Proto: https counts as HTTPS (null: off). */
  offloadingProxies?: string[] | null;
  /** Enable SSL Health Checks: seconds between rounds of handshakes with every served name (null: off). */
  healthCheckInterval?: number | null;
  /** Enable SSL Alerts: days before expiry a served certificate raises an alert (null: off). */
  alertThresholdDays?: number | null;
  /**
   * Enable SSL Metrics: Apache logs the protocol, cipher, keep-alive count and resumption of every
   * request (a `tls:` field of the access log), rolled up per minute; SSL Metrics Interval: the
   * seconds the figures shown cover (null: off).
   */
  metricsInterval?: number | null;
}
