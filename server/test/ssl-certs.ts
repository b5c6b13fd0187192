import { KeyObject, randomBytes, webcrypto } from 'node:crypto';
import { x509 } from '../src/features/ssl/x509.adapter.ts';

const DAY = 86_400_000;
const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export interface TestCert {
  pem: string;
  keyPem: string;
  keys: CryptoKeyPair;
  cert: x509.X509Certificate;
}

const serial = () => {
  const b = randomBytes(12);
  b[0] = b[0]! & 0x7f;
  return b.toString('hex');
};

/**
 * Real certificates for the tests: a root, an intermediate and leaves, with any validity window,
 * names and policies (made with @peculiar/x509 on node's Web Crypto).
 */
export async function makeCert(opts: {
  cn: string;
  names?: string[];
  issuer?: TestCert;
  ca?: boolean;
  fromDays?: number;
  toDays?: number;
  ec?: boolean;
  policies?: string[];
  org?: string;
}): Promise<TestCert> {
  const alg = opts.ec ? EC : RSA;
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const now = Date.now();
  const name = opts.org ? `CN=${opts.cn}, O=${opts.org}` : `CN=${opts.cn}`;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(opts.ca ?? false, undefined, true),
  ];
  if (opts.ca)
    extensions.push(
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    );
  if (opts.names)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(opts.names.map((value) => ({ type: 'dns' as const, value }))),
    );
  if (opts.policies) extensions.push(new x509.CertificatePolicyExtension(opts.policies));
  const common = {
    serialNumber: serial(),
    notBefore: new Date(now + (opts.fromDays ?? -1) * DAY),
    notAfter: new Date(now + (opts.toDays ?? 90) * DAY),
    signingAlgorithm: alg,
    extensions,
  };
  const cert = opts.issuer
    ? await x509.X509CertificateGenerator.create({
        ...common,
        subject: name,
        issuer: opts.issuer.cert.subject,
        publicKey: keys.publicKey,
        signingKey: opts.issuer.keys.privateKey,
        signingAlgorithm: opts.issuer.cert.publicKey.algorithm.name === 'ECDSA' ? EC : RSA,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...common, name, keys });
  return {
    pem: cert.toString('pem') + '\n',
    keyPem: KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }).toString(),
    keys,
    cert,
  };
}

/** A root, an intermediate under it, and a leaf for `names` under the intermediate. */
export async function makeChain(
  names: string[],
  leaf: { fromDays?: number; toDays?: number; intermediateToDays?: number } = {},
) {
  const root = await makeCert({ cn: 'Test Root', org: 'Test CA', ca: true, ec: true, toDays: 3650 });
  const inter = await makeCert({
    cn: 'Test Issuing CA',
    org: 'Test CA',
    ca: true,
    ec: true,
    issuer: root,
    toDays: leaf.intermediateToDays ?? 1000,
  });
  const cert = await makeCert({
    cn: names[0]!,
    names,
    issuer: inter,
    ec: true,
    ...(leaf.fromDays !== undefined ? { fromDays: leaf.fromDays } : {}),
    ...(leaf.toDays !== undefined ? { toDays: leaf.toDays } : {}),
  });
  return { root, inter, leaf: cert };
}
