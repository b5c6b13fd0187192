import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCert, makeChain } from '../../../test/ssl-certs.ts';
import { checkCertificate, orderChain, readPrivateKey } from './certificate-check.parser.ts';
import { makeCsr, makeKey, makeSelfSigned } from './certificate-make.service.ts';
import { certificateType, daysLeft, nameCovers, parseCertificate, statusOf } from './certificate.parser.ts';
import { X509Certificate } from 'node:crypto';

const DAY = 86_400_000;
const base = {
  domain: 'mail.example.com',
  keyAlgorithm: 'RSA' as const,
  keySize: 2048,
  signatureAlgorithm: 'SHA256' as const,
  validityPeriod: 365,
  wildcardDomain: false,
  sanDomains: [] as string[],
  organizationName: '',
  organizationalUnit: '',
  country: '',
  state: '',
  city: '',
  email: '',
};

describe('certificate parsing', () => {
  it('reads subject, names, issuer, dates, key, signature, serial and fingerprint', async () => {
    const { leaf, inter } = await makeChain(['mail.example.com', 'www.example.com']);
    const p = parseCertificate(leaf.pem);
    const node = new X509Certificate(leaf.pem);
    expect(p.domain).toBe('mail.example.com');
    expect(p.names).toEqual(['mail.example.com', 'www.example.com']);
    expect(p.issuer).toBe('Test CA');
    expect(p.keyAlgorithm).toBe('ECDSA');
    expect(p.keySize).toBe(256);
    expect(p.signatureAlgorithm).toBe('ecdsa-with-SHA256');
    expect(p.fingerprint).toBe(node.fingerprint256);
    expect(p.serial).toBe(node.serialNumber.toUpperCase());
    expect(p.selfSigned).toBe(false);
    expect(p.type).toBe('SAN');
    expect(p.validTo.getTime()).toBe(new Date(node.validTo).getTime());
    expect(parseCertificate(inter.pem).issuer).toBe('Test CA');
  });

  it('derives the type from policies and names, not from a form', async () => {
    expect(certificateType(['a.example.com'], ['2.23.140.1.1'], {})).toBe('EV');
    expect(certificateType(['a.example.com'], ['2.23.140.1.2.2'], { O: 'X' })).toBe('OV');
    expect(certificateType(['*.example.com'], ['2.23.140.1.2.1'], {})).toBe('Wildcard');
    expect(certificateType(['example.com', 'www.example.com'], [], {})).toBe('DV');
    expect(certificateType(['example.com', 'other.org'], [], {})).toBe('SAN');
    const ev = await makeCert({
      cn: 'shop.example.com',
      names: ['shop.example.com'],
      policies: ['2.23.140.1.1'],
      org: 'Shop',
    });
    expect(parseCertificate(ev.pem).type).toBe('EV');
  });

  it('status and days left from real dates with the threshold', () => {
    const now = Date.now();
    expect(daysLeft(now + 10 * DAY, now)).toBe(10);
    expect(statusOf(now - 1000, 30, now)).toBe('expired');
    expect(statusOf(now + 3 * 3600_000, 30, now)).toBe('expiring');
    expect(statusOf(now + 30 * DAY, 30, now)).toBe('expiring');
    expect(statusOf(now + 31 * DAY, 30, now)).toBe('valid');
    expect(statusOf(now + 31 * DAY, 60, now)).toBe('expiring');
  });

  it('wildcards cover one label only', () => {
    expect(nameCovers('*.example.com', 'mail.example.com')).toBe(true);
    expect(nameCovers('*.example.com', 'a.b.example.com')).toBe(false);
    expect(nameCovers('*.example.com', 'example.com')).toBe(false);
  });
});

describe('upload checks', () => {
  it('accepts a leaf with its chain in any order and orders it', async () => {
    const { root, inter, leaf } = await makeChain(['mail.example.com']);
    const c = checkCertificate({
      domain: 'mail.example.com',
      certificate: leaf.pem,
      privateKey: leaf.keyPem,
      certificateChain: root.pem + inter.pem,
      format: 'pem',
    });
    expect(c.chain.map((x) => x.subject)).toEqual(
      [inter.cert.subject, root.cert.subject].map((s) => s.replace(/, /g, '\n')),
    );
  });

  it('refuses a mismatched key, a wrong domain, expired and future certificates, a foreign or expired chain', async () => {
    const { inter, leaf } = await makeChain(['mail.example.com']);
    const other = await makeCert({ cn: 'x.example.com' });
    const field = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { details: { field: string }[] }).details[0]!.field;
      }
      return 'accepted';
    };
    const input = {
      domain: 'mail.example.com',
      certificate: leaf.pem,
      privateKey: leaf.keyPem,
      certificateChain: inter.pem,
      format: 'pem' as const,
    };
    expect(field(() => checkCertificate({ ...input, privateKey: other.keyPem }))).toBe('privateKey');
    expect(field(() => checkCertificate({ ...input, domain: 'www.example.org' }))).toBe('domain');
    expect(field(() => checkCertificate({ ...input, certificate: 'hello' }))).toBe('certificate');
    expect(field(() => checkCertificate({ ...input, certificateChain: other.pem }))).toBe('certificateChain');
    const expired = await makeCert({ cn: 'mail.example.com', fromDays: -20, toDays: -1 });
    expect(
      field(() =>
        checkCertificate({
          ...input,
          certificate: expired.pem,
          privateKey: expired.keyPem,
          certificateChain: '',
        }),
      ),
    ).toBe('certificate');
    const future = await makeCert({ cn: 'mail.example.com', fromDays: 2, toDays: 20 });
    expect(
      field(() =>
        checkCertificate({
          ...input,
          certificate: future.pem,
          privateKey: future.keyPem,
          certificateChain: '',
        }),
      ),
    ).toBe('certificate');
    const old = await makeChain(['mail.example.com'], { intermediateToDays: -1 });
    expect(
      field(() =>
        checkCertificate({
          ...input,
          certificate: old.leaf.pem,
          privateKey: old.leaf.keyPem,
          certificateChain: old.inter.pem,
        }),
      ),
    ).toBe('certificateChain');
    expect(field(() => checkCertificate({ ...input, format: 'pkcs12' }))).toBe('certificate');
    expect(field(() => checkCertificate(input))).toBe('accepted');
  });

  it('reads DER and passphrase-protected keys', async () => {
    const { leaf } = await makeChain(['mail.example.com']);
    const der = new X509Certificate(leaf.pem).raw.toString('base64');
    const encrypted = createPrivateKey(leaf.keyPem)
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
      .toString();
    const c = checkCertificate({
      domain: 'mail.example.com',
      certificate: der,
      privateKey: encrypted,
      certificateChain: '',
      passphrase: 'secret',
      format: 'der',
    });
    expect(c.leaf.domain).toBe('mail.example.com');
    expect(() => readPrivateKey(encrypted, undefined)).toThrow(/passphrase/);
    expect(() => readPrivateKey(encrypted, 'wrong')).toThrow(/passphrase/);
  });

  it('orderChain refuses certificates off the path', async () => {
    const a = await makeChain(['a.example.com']);
    const b = await makeChain(['b.example.com']);
    expect(() => orderChain(new X509Certificate(a.leaf.pem), [new X509Certificate(b.inter.pem)])).toThrow(
      /not on this certificate's path/,
    );
  });
});

describe('generation', () => {
  it.each([
    ['RSA', 3072],
    ['ECDSA', 256],
    ['ECDSA', 384],
    ['Ed25519', 256],
  ] as const)('self-signed %s %i with SANs and organisation, key matching', async (alg, size) => {
    const r = {
      ...base,
      keyAlgorithm: alg,
      keySize: size,
      sanDomains: ['other.example.org'],
      organizationName: 'Acme',
      country: 'fr',
      validityPeriod: 30,
    };
    const key = await makeKey(r);
    const pem = await makeSelfSigned(r, key);
    const p = parseCertificate(pem);
    expect(p.keyAlgorithm).toBe(alg);
    expect(p.keySize).toBe(size);
    expect(p.names).toEqual(['mail.example.com', 'other.example.org']);
    expect(p.subject).toContain('O=Acme');
    expect(p.subject).toContain('C=FR');
    expect(daysLeft(p.validTo.getTime())).toBe(30);
    expect(p.cert.checkPrivateKey(createPrivateKey(key.keyPem))).toBe(true);
    const csr = await makeCsr(r, key);
    expect(csr).toContain('BEGIN CERTIFICATE REQUEST');
  });
});
