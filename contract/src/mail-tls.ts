/**
 * What the SSL area gives the mail area for Postfix and Dovecot: the certificate to serve (with its
 * chain) and the TLS policy from the SSL settings. The SSL feature produces it
 * (server/src/features/ssl/mail-tls.ts); app.ts hands the producer to the mail feature.
 */
export interface MailTlsPolicy {
  /** Protocols switched off, in OpenSSL's names: SSLv2, SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3. */
  excludedProtocols: string[];
  /** The lowest protocol allowed (Dovecot's ssl_min_protocol). */
  minProtocol: string;
  weakCiphers: boolean;
  /** Only forward-secret key exchanges (no static RSA). */
  forwardSecrecy: boolean;
  sessionCache: boolean;
  sessionTimeoutSeconds: number;
  sessionTickets: boolean;
  renegotiation: boolean;
}

export interface MailTls {
  /** The served certificate followed by its chain, PEM. */
  fullchainPem: string;
  keyPem: string;
  fingerprint: string;
  certificateId: number;
}

/** `db`: the database handle the render runs on (a transaction while a change is validated). */
export type MailTlsSource<Db = unknown> = (
  hostname: string,
  db: Db,
) => Promise<{ certificate: MailTls | null; policy: MailTlsPolicy }>;
