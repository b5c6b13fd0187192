import type { SslCertificate } from '@mailroom/contract/ssl';
import { describe, expect, it } from 'vitest';
import { certificateChoices, nameCovers, servedNames } from './certificate-choices.ts';

const cert = (id: number, domain: string, sans: string[], status: SslCertificate['status'] = 'valid') =>
  ({
    id,
    domain,
    subjectAltNames: sans,
    status,
    issuer: 'Test CA',
    validTo: '2027-01-31T00:00:00.000Z',
  }) as SslCertificate;

describe('certificate picker', () => {
  it('matches exact names and one-label wildcards only', () => {
    expect(nameCovers('www.example.com', 'WWW.example.com')).toBe(true);
    expect(nameCovers('*.example.com', 'shop.example.com')).toBe(true);
    expect(nameCovers('*.example.com', 'example.com')).toBe(false);
    expect(nameCovers('*.example.com', 'a.b.example.com')).toBe(false);
  });

  it('serves the server name, the domain and every alias as punycode, once each', () => {
    expect(
      servedNames({
        domain: 'example.com',
        serverName: 'www.example.com',
        serverAlias: 'example.com, bücher.example',
      }),
    ).toEqual(['www.example.com', 'example.com', 'xn--bcher-kva.example']);
  });

  it('offers a certificate covering every name; others disabled with the reason, listed after', () => {
    const names = ['www.example.com', 'example.com'];
    const choices = certificateChoices(
      [
        cert(1, 'www.example.com', ['www.example.com']),
        cert(2, 'example.com', ['example.com', '*.example.com']),
        cert(3, 'old.example.com', ['example.com', 'www.example.com'], 'expired'),
      ],
      names,
    );
    expect(choices.map((c) => [c.value, c.reason])).toEqual([
      ['2', null],
      ['3', 'expired'],
      ['1', 'does not cover example.com'],
    ]);
    expect(choices[0]!.label).toBe('example.com (Test CA, until 2027-01-31)');
  });
});
