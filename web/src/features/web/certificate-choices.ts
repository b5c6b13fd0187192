import type { SslCertificate } from '@mailroom/contract/ssl';
import { splitList, toAsciiHost } from '@mailroom/contract/web';

/** One entry of the virtual host form's certificate picker. */
export interface CertificateChoice {
  value: string;
  label: string;
  /** Why it cannot serve this host (null: it can). */
  reason: string | null;
}

/** Whether a certificate name (exact, or `*.example.com` for one label) covers a host name. */
export function nameCovers(certName: string, host: string): boolean {
  const c = certName.toLowerCase();
  const h = host.toLowerCase();
  if (c === h) return true;
  if (!c.startsWith('*.')) return false;
  const dot = h.indexOf('.');
  return dot > 0 && h.slice(dot + 1) === c.slice(2);
}

/** The names a virtual host serves: server name, domain and aliases, as punycode, without repeats. */
export function servedNames(values: { domain: string; serverName: string; serverAlias: string }): string[] {
  const names = [values.serverName, values.domain, ...splitList(values.serverAlias)]
    .map((n) => toAsciiHost(n))
    .filter((n): n is string => n !== null);
  return [...new Set(names)];
}

/**
 * The SSL area's certificates as picker choices: one that covers every served name and has not
 * expired can be chosen; the others are listed disabled with the reason (the server refuses them).
 * Usable ones first, then by domain.
 */
export function certificateChoices(
  certs: readonly SslCertificate[],
  names: readonly string[],
): CertificateChoice[] {
  const choices = certs.map((c) => {
    const certNames = [c.domain, ...c.subjectAltNames];
    const missing = names.filter((n) => !certNames.some((cn) => nameCovers(cn, n)));
    let reason: string | null = null;
    if (c.status === 'expired') reason = 'expired';
    else if (missing.length > 0) reason = `does not cover ${missing.join(', ')}`;
    const until = c.validTo.slice(0, 10);
    return {
      value: String(c.id),
      label: `${c.domain} (${c.issuer}, until ${until})${reason ? ` — ${reason}` : ''}`,
      reason,
      domain: c.domain,
    };
  });
  choices.sort(
    (a, b) => Number(a.reason !== null) - Number(b.reason !== null) || a.domain.localeCompare(b.domain),
  );
  return choices.map(({ value, label, reason }) => ({ value, label, reason }));
}
