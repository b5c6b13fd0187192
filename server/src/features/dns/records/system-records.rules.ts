import type { SystemRecord } from '@mailroom/contract/dns';
import type { MailDnsFacts } from '@mailroom/contract/mail-dns';
import { publicHostWarning } from '@mailroom/contract/validators';

export const SPF_VALUE = 'v=spf1 mx -all';
export const dmarcValue = (domain: string) => `v=DMARC1; p=quarantine; rua=mailto:postmaster@${domain}`;

type Derived = Omit<SystemRecord, 'published' | 'state' | 'ttl'>;

const warn = (role: string, host: string) => {
  const warning = publicHostWarning(role, host);
  return warning ? { warning } : {};
};

/** The records a mail domain needs, with why each exists. Names are relative to the domain. */
export function deriveMailRecords(f: MailDnsFacts): Derived[] {
  const domain = f.domain.toLowerCase();
  const out: Derived[] = [];
  const base = { zone: domain, source: 'mail' as const };
  for (const mx of f.mx) {
    out.push({
      ...base,
      qname: '',
      rtype: 'MX',
      value: mx.host.toLowerCase().replace(/\.$/, ''),
      priority: mx.priority,
      explanation: `Mail for ${domain} is delivered to ${mx.host} (mail settings).`,
      ...warn('MX target', mx.host),
    });
  }
  if (f.spf) {
    out.push({
      ...base,
      qname: '',
      rtype: 'TXT',
      value: SPF_VALUE,
      explanation: `SPF: only the hosts named in the MX records may send mail as @${domain}.`,
    });
  }
  if (f.dkim) {
    out.push({
      ...base,
      qname: `${f.dkim.selector}._domainkey`,
      rtype: 'TXT',
      value: f.dkim.txt,
      explanation: `DKIM public key (selector ${f.dkim.selector}) that receivers use to verify signed mail.`,
    });
  }
  if (f.dmarc) {
    out.push({
      ...base,
      qname: '_dmarc',
      rtype: 'TXT',
      value: dmarcValue(domain),
      explanation: 'DMARC: mail failing SPF and DKIM is quarantined; reports go to postmaster.',
    });
  }
  const mailHost = f.mailHost.toLowerCase().replace(/\.$/, '');
  for (const name of ['autoconfig', 'autodiscover']) {
    if (mailHost === `${name}.${domain}`) continue;
    out.push({
      ...base,
      qname: name,
      rtype: 'CNAME',
      value: mailHost,
      explanation: `Mail clients look up ${name}.${domain} to configure themselves; it points to the mail host.`,
      ...warn(`${name === 'autoconfig' ? 'Autoconfig' : 'Autodiscover'} target`, mailHost),
    });
  }
  return out;
}

const TXT_KIND = /^(v=spf1|v=dmarc1|v=dkim1)\b/i;
const txtKind = (v: string) => TXT_KIND.exec(v)?.[1]?.toLowerCase() ?? null;

/**
 * Whether the administrator's own records at a name take precedence over a derived record:
 * any record beside a derived CNAME, a CNAME beside anything derived, the same type for MX, and a
 * TXT of the same kind (SPF/DMARC/DKIM) for TXT.
 */
export function overriddenBy(d: Derived, own: { rtype: string; value: string }[]): boolean {
  if (own.length === 0) return false;
  if (d.rtype === 'CNAME' || own.some((o) => o.rtype === 'CNAME')) return true;
  if (d.rtype === 'TXT') {
    const kind = txtKind(d.value);
    return own.some((o) => o.rtype === 'TXT' && kind !== null && txtKind(o.value) === kind);
  }
  return own.some((o) => o.rtype === d.rtype);
}
