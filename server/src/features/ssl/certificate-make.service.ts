import { KeyObject, randomBytes, webcrypto } from 'node:crypto';
import type { GenerateCertificateParsed } from '@mailroom/contract/ssl';
import { x509 } from './x509.adapter.ts';

type Request = Pick<
  GenerateCertificateParsed,
  | 'domain'
  | 'keyAlgorithm'
  | 'keySize'
  | 'signatureAlgorithm'
  | 'validityPeriod'
  | 'wildcardDomain'
  | 'sanDomains'
  | 'organizationName'
  | 'organizationalUnit'
  | 'country'
  | 'state'
  | 'city'
  | 'email'
>;

const hashOf = (s: Request['signatureAlgorithm']) => `SHA-${s.slice(3)}`;

/** The Web Crypto parameters of a request's key and signature. */
export function algorithmOf(r: Pick<Request, 'keyAlgorithm' | 'keySize' | 'signatureAlgorithm'>) {
  switch (r.keyAlgorithm) {
    case 'RSA':
      return {
        name: 'RSASSA-PKCS1-v1_5',
        hash: hashOf(r.signatureAlgorithm),
        publicExponent: new Uint8Array([1, 0, 1]),
        modulusLength: r.keySize,
      };
    case 'ECDSA':
      return {
        name: 'ECDSA',
        namedCurve: r.keySize === 384 ? 'P-384' : 'P-256',
        hash: hashOf(r.signatureAlgorithm),
      };
    case 'Ed25519':
      return { name: 'Ed25519' };
  }
}

/** Every DNS name of a request: the domain, its wildcard when asked, then the extra names. */
export function requestNames(r: Pick<Request, 'domain' | 'wildcardDomain' | 'sanDomains'>): string[] {
  const d = r.domain.toLowerCase();
  const names = [d, ...(r.wildcardDomain ? [`*.${d}`] : []), ...r.sanDomains.map((s) => s.toLowerCase())];
  return [...new Set(names)];
}

function subjectOf(r: Request): x509.JsonName {
  const name: x509.JsonName = [{ CN: [r.domain.toLowerCase()] }];
  if (r.organizationName) name.push({ O: [r.organizationName] });
  if (r.organizationalUnit) name.push({ OU: [r.organizationalUnit] });
  if (r.city) name.push({ L: [r.city] });
  if (r.state) name.push({ ST: [r.state] });
  if (r.country) name.push({ C: [r.country.toUpperCase()] });
  if (r.email) name.push({ E: [r.email] });
  return name;
}

export interface MadeKey {
  keys: CryptoKeyPair;
  algorithm: ReturnType<typeof algorithmOf>;
  keyPem: string;
}

export async function makeKey(
  r: Pick<Request, 'keyAlgorithm' | 'keySize' | 'signatureAlgorithm'>,
): Promise<MadeKey> {
  const algorithm = algorithmOf(r);
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const keyPem = KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString();
  return { keys, algorithm, keyPem };
}

const sanExtension = (names: string[]) =>
  new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value })));

/** A self-signed server certificate for the request's names. */
export async function makeSelfSigned(r: Request, key: MadeKey, now = new Date()): Promise<string> {
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + r.validityPeriod * 86_400_000);
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: new x509.Name(subjectOf(r)),
    notBefore,
    notAfter,
    keys: key.keys,
    signingAlgorithm: key.algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      sanExtension(requestNames(r)),
    ],
  });
  return cert.toString('pem') + '\n';
}

/** A PKCS#10 request with the organisation fields and every name as a SAN. */
export async function makeCsr(r: Request, key: MadeKey): Promise<string> {
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: new x509.Name(subjectOf(r)),
    keys: key.keys,
    signingAlgorithm: key.algorithm,
    extensions: [sanExtension(requestNames(r))],
  });
  return csr.toString('pem') + '\n';
}
