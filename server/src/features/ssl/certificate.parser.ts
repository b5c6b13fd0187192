import { type KeyObject, X509Certificate } from 'node:crypto';
import type { CertificateStatus, CertificateType } from '@mailroom/contract/ssl';
import { x509 } from './x509.adapter.ts';

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of a text, with their labels (CERTIFICATE, PRIVATE KEY, ...). */
export function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1] ?? '', pem: `${m[0]}\n` }));
}

/** CA/Browser Forum policy identifiers of validation levels. */
const POLICY = {
  ev: '2.23.140.1.1',
  dv: '2.23.140.1.2.1',
  ov: '2.23.140.1.2.2',
  iv: '2.23.140.1.2.3',
} as const;

export interface ParsedCertificate {
  cert: X509Certificate;
  pem: string;
  domain: string;
  names: string[];
  subject: string;
  issuer: string;
  validFrom: Date;
  validTo: Date;
  keyAlgorithm: string;
  keySize: number;
  signatureAlgorithm: string;
  serial: string;
  fingerprint: string;
  type: CertificateType;
  selfSigned: boolean;
}

/** `CN=a\nO=b` (node's form) → { CN: 'a', O: 'b' } (first value of each attribute). */
export function dnFields(dn: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of dn.split('\n')) {
    const i = line.indexOf('=');
    if (i > 0 && !(line.slice(0, i) in out)) out[line.slice(0, i)] = line.slice(i + 1);
  }
  return out;
}

export function dnsNames(cert: X509Certificate): string[] {
  const names = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
  const cn = dnFields(cert.subject).CN?.toLowerCase();
  if (names.length === 0 && cn) names.push(cn);
  return [...new Set(names)];
}

export function keyFacts(key: KeyObject): { algorithm: string; size: number } {
  const d = key.asymmetricKeyDetails ?? {};
  const t = key.asymmetricKeyType;
  if (t === 'rsa' || t === 'rsa-pss') return { algorithm: 'RSA', size: d.modulusLength ?? 0 };
  if (t === 'ec')
    return {
      algorithm: 'ECDSA',
      size: d.namedCurve === 'secp384r1' ? 384 : d.namedCurve === 'secp521r1' ? 521 : 256,
    };
  if (t === 'ed25519') return { algorithm: 'Ed25519', size: 256 };
  return { algorithm: (t ?? 'unknown').toUpperCase(), size: 0 };
}

/** Node has no signature algorithm or policies: those come from @peculiar/x509. */
function peculiarFacts(der: Buffer): { signature: string; policies: string[] } {
  const c = new x509.X509Certificate(new Uint8Array(der));
  const alg = c.signatureAlgorithm as { name: string; hash?: { name: string } };
  const hash = alg.hash?.name?.replace('-', '');
  const signature =
    alg.name === 'RSASSA-PKCS1-v1_5'
      ? `${hash}withRSA`
      : alg.name === 'ECDSA'
        ? `ecdsa-with-${hash}`
        : alg.name === 'RSA-PSS'
          ? `RSASSA-PSS ${hash}`
          : alg.name;
  const ext = c.getExtension(x509.CertificatePolicyExtension);
  return { signature, policies: ext ? [...ext.policies] : [] };
}

export function certificateType(
  names: string[],
  policies: string[],
  subject: Record<string, string>,
): CertificateType {
  if (policies.includes(POLICY.ev)) return 'EV';
  if (
    policies.includes(POLICY.ov) ||
    (!policies.includes(POLICY.dv) && subject.O !== undefined && policies.length > 0)
  )
    return 'OV';
  if (names.some((n) => n.startsWith('*.'))) return 'Wildcard';
  const base = names.map((n) => n.replace(/^www\./, ''));
  if (new Set(base).size > 1) return 'SAN';
  return 'DV';
}

/** Parses one PEM or DER certificate; throws on anything that is not one. */
export function parseCertificate(input: string | Buffer): ParsedCertificate {
  const cert = new X509Certificate(input);
  const names = dnsNames(cert);
  const subject = dnFields(cert.subject);
  const issuerDn = dnFields(cert.issuer);
  const { algorithm, size } = keyFacts(cert.publicKey);
  const { signature, policies } = peculiarFacts(cert.raw);
  const selfSigned = cert.issuer === cert.subject && cert.verify(cert.publicKey);
  return {
    cert,
    pem: cert.toString(),
    domain: subject.CN?.toLowerCase() ?? names[0] ?? '',
    names,
    subject: cert.subject.replace(/\n/g, ', '),
    issuer: selfSigned ? 'Self-signed' : (issuerDn.O ?? issuerDn.CN ?? cert.issuer.replace(/\n/g, ', ')),
    validFrom: new Date(cert.validFrom),
    validTo: new Date(cert.validTo),
    keyAlgorithm: algorithm,
    keySize: size,
    signatureAlgorithm: signature,
    serial: cert.serialNumber.toUpperCase(),
    fingerprint: cert.fingerprint256,
    type: certificateType(names, policies, subject),
    selfSigned,
  };
}

const DAY = 86_400_000;

/** Whole days left, rounded up: a certificate expiring in 3 hours has 1 day left, an expired one ≤ 0. */
export const daysLeft = (notAfter: number, now = Date.now()) => Math.ceil((notAfter - now) / DAY);

export function statusOf(notAfter: number, thresholdDays: number, now = Date.now()): CertificateStatus {
  const d = daysLeft(notAfter, now);
  if (d <= 0) return 'expired';
  return d <= thresholdDays ? 'expiring' : 'valid';
}

/** Whether a certificate name covers a host (one wildcard label at the left). */
export function nameCovers(name: string, host: string): boolean {
  const n = name.toLowerCase();
  const h = host.toLowerCase();
  if (n === h) return true;
  if (!n.startsWith('*.')) return false;
  const dot = h.indexOf('.');
  return dot > 0 && h.slice(dot + 1) === n.slice(2);
}
