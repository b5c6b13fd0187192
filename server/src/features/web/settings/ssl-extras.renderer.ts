import type { ModuleKey } from '../stack/apache-modules.rules.ts';
import type { WebTlsPolicy } from '../stack/web-tls-policy.rules.ts';

/**
 * The SSL area's settings beyond protocols, ciphers, sessions and OCSP, as Apache's server-wide
 * directives (issue 19): HTTP/2, HSTS, SNI strictness, TLS timeouts, the renegotiation buffer,
 * mod_ssl's log level and client certificates. Apart from the TLS policy so each reads alone.
 */

/** The modules these directives need. */
export function tlsExtrasModules(t: WebTlsPolicy | null | undefined): ModuleKey[] {
  const x = t?.extras;
  if (!x) return [];
  const m: ModuleKey[] = ['reqtimeout'];
  if (x.http2) m.push('http2');
  return m;
}

/** Paths inside double quotes: a quote or backslash would end the argument (refused before). */
const q = (s: string) => `"${s.replace(/["\\]/g, '')}"`;

export function tlsExtrasDirectives(t: WebTlsPolicy | null | undefined): string {
  const x = t?.extras;
  if (!x) return '';
  let out = '# The other SSL settings of the SSL area that Apache honours.\n';
  // HTTP/2 is negotiated by ALPN over TLS only (h2); plain HTTP stays HTTP/1.1.
  out += `Protocols ${x.http2 ? 'h2 ' : ''}http/1.1\n`;
  if (x.hsts)
    // A site with Enable Security Headers sends the Server Configuration's HSTS (set before this).
    out += `Header always setifempty Strict-Transport-Security "${x.hsts}" "expr=-n reqenv('mailroom_https')"\n`;
  out += `SSLStrictSNIVHostCheck ${x.strictSni ? 'on' : 'off'}\n`;
  out += `RequestReadTimeout handshake=${x.handshakeTimeout} header=${x.readTimeout} body=${x.readTimeout}\n`;
  // Directory context only: for every path of every host.
  if (x.renegBufferSize !== null)
    out += `<Location "/">\n  SSLRenegBufferSize ${x.renegBufferSize}\n</Location>\n`;
  out += `LogLevel ssl:${x.logLevel}\n`;
  const c = x.clientCertificates;
  if (c) {
    if (c.verify === 'optional_no_ca') out += 'SSLVerifyClient optional_no_ca\n';
    else {
      // Asked in the handshake; a request without a certificate signed by the CA file is refused
      // with 403. Mailroom's probe and ACME challenges (/.well-known/) stay answered.
      out += 'SSLVerifyClient optional\n';
      out += `SSLCACertificateFile ${q(c.caFile ?? '')}\n`;
      out += `<If "%{HTTPS} == 'on' && %{SSL_CLIENT_VERIFY} != 'SUCCESS' && ! %{REQUEST_URI} -strmatch '/.well-known/*'">\n`;
      out += '  Require all denied\n';
      out += '</If>\n';
    }
    out += `SSLVerifyDepth ${c.depth}\n`;
  }
  return out;
}
