import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { sslMessages } from '@mailroom/contract/ssl';
import { fieldError } from '../../http/errors.ts';
import { nameCovers, type ParsedCertificate, parseCertificate, pemBlocks } from './certificate.parser.ts';

export interface CheckedCertificate {
  leaf: ParsedCertificate;
  /** Intermediates (and a root if one was given), leaf excluded, ordered leaf → root. */
  chain: X509Certificate[];
  chainPem: string;
  /** PKCS#8 PEM, unencrypted (sealed before it is stored). */
  keyPem: string;
}

export const P12_REFUSED =
  'PKCS#12 (.p12/.pfx) files are not accepted: export the certificate and key as PEM (openssl pkcs12 -in file.p12 -nodes) and upload those';

/** The certificate text or bytes as PEM blocks: PEM, or base64 DER when format says so. */
export function readCertificateInput(
  text: string,
  format: 'pem' | 'der' | 'pkcs12',
): { leaf: string; extra: string[] } {
  if (format === 'pkcs12') throw fieldError('certificate', P12_REFUSED);
  if (format === 'der') {
    const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
    try {
      return { leaf: new X509Certificate(der).toString(), extra: [] };
    } catch {
      throw fieldError('certificate', 'This is not a DER certificate');
    }
  }
  const blocks = pemBlocks(text);
  if (blocks.some((b) => b.label === 'PKCS7'))
    throw fieldError(
      'certificate',
      'PKCS#7 bundles are not accepted: upload the PEM certificates (openssl pkcs7 -print_certs)',
    );
  const certs = blocks.filter((b) => b.label === 'CERTIFICATE').map((b) => b.pem);
  if (certs.length === 0) throw fieldError('certificate', sslMessages.notPem);
  return { leaf: certs[0]!, extra: certs.slice(1) };
}

/** The private key, decrypted with the passphrase when it is encrypted. */
export function readPrivateKey(text: string, passphrase: string | undefined): KeyObject {
  if (!text.trim()) throw fieldError('privateKey', 'Private Key is required');
  const encrypted = /ENCRYPTED/.test(text);
  if (encrypted && !passphrase)
    throw fieldError('passphrase', 'The private key is encrypted: enter its passphrase');
  try {
    return createPrivateKey(passphrase ? { key: text, passphrase } : { key: text });
  } catch {
    if (encrypted) throw fieldError('passphrase', 'The passphrase does not decrypt the private key');
    throw fieldError('privateKey', 'This is not a PEM private key (-----BEGIN PRIVATE KEY-----)');
  }
}

function parseChain(texts: string[]): X509Certificate[] {
  return texts.map((t, i) => {
    try {
      return new X509Certificate(t);
    } catch {
      throw fieldError('certificateChain', `Certificate ${i + 1} of the chain is not a valid certificate`);
    }
  });
}

/**
 * Orders the chain from the leaf upwards (each one issued and signed by the next) and refuses
 * certificates that are not on the leaf's path, and expired or not-yet-valid chain members.
 */
export function orderChain(
  leaf: X509Certificate,
  given: X509Certificate[],
  now = new Date(),
): X509Certificate[] {
  const left = [...given];
  const out: X509Certificate[] = [];
  let cur = leaf;
  for (;;) {
    if (cur.issuer === cur.subject && cur.verify(cur.publicKey)) break; // a root
    const i = left.findIndex((c) => cur.checkIssued(c) && cur.verify(c.publicKey));
    if (i < 0) break;
    const next = left.splice(i, 1)[0]!;
    out.push(next);
    cur = next;
  }
  if (left.length > 0) {
    throw fieldError(
      'certificateChain',
      `The chain holds certificates that are not on this certificate's path: ${left.map((c) => c.subject.replace(/\n/g, ', ')).join('; ')}`,
    );
  }
  if (given.length > 0 && out.length === 0)
    throw fieldError('certificateChain', 'No certificate of the chain issued this certificate');
  for (const c of out) {
    if (new Date(c.validTo) < now)
      throw fieldError(
        'certificateChain',
        `A chain certificate has expired: ${c.subject.replace(/\n/g, ', ')}`,
      );
    if (new Date(c.validFrom) > now)
      throw fieldError(
        'certificateChain',
        `A chain certificate is not valid yet: ${c.subject.replace(/\n/g, ', ')}`,
      );
  }
  return out;
}

/** Everything an upload must pass; each refusal names its field. */
export function checkCertificate(
  input: {
    domain: string;
    certificate: string;
    privateKey: string;
    certificateChain: string;
    passphrase?: string | undefined;
    format: 'pem' | 'der' | 'pkcs12';
  },
  now = new Date(),
): CheckedCertificate {
  const { leaf: leafPem, extra } = readCertificateInput(input.certificate, input.format);
  let leaf: ParsedCertificate;
  try {
    leaf = parseCertificate(leafPem);
  } catch {
    throw fieldError('certificate', sslMessages.notPem);
  }
  const key = readPrivateKey(input.privateKey, input.passphrase);
  if (!leaf.cert.checkPrivateKey(key)) throw fieldError('privateKey', sslMessages.keyMismatch);
  if (leaf.validTo <= now) throw fieldError('certificate', sslMessages.expired);
  if (leaf.validFrom > now) throw fieldError('certificate', sslMessages.notYetValid);
  const domain = input.domain.toLowerCase();
  if (!leaf.names.some((n) => nameCovers(n, domain)))
    throw fieldError('domain', sslMessages.wrongDomain(domain, leaf.names));
  const chainTexts = [
    ...extra,
    ...pemBlocks(input.certificateChain)
      .filter((b) => b.label === 'CERTIFICATE')
      .map((b) => b.pem),
  ];
  if (input.certificateChain.trim() && pemBlocks(input.certificateChain).length === 0)
    throw fieldError('certificateChain', 'The chain must be PEM certificates (-----BEGIN CERTIFICATE-----)');
  const chain = orderChain(leaf.cert, parseChain(chainTexts), now);
  return {
    leaf,
    chain,
    chainPem: chain.map((c) => c.toString()).join(''),
    keyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
