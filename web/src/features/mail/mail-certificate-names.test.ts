import { describe, expect, it } from 'vitest';
import { shortFingerprint } from './components/mail-certificate-card.tsx';
import { nameCovers } from './use-mail-certificate.ts';

describe('mail certificate picker helpers', () => {
  it('a name covers the host exactly or through a one-label wildcard', () => {
    expect(nameCovers('Mail.Example.com', 'mail.example.com')).toBe(true);
    expect(nameCovers('*.example.com', 'mail.example.com')).toBe(true);
    expect(nameCovers('*.example.com', 'a.mail.example.com')).toBe(false);
    expect(nameCovers('*.example.com', 'example.com')).toBe(false);
    expect(nameCovers('other.example.com', 'mail.example.com')).toBe(false);
  });

  it('shortens a SHA-256 fingerprint to its first eight bytes', () => {
    const fp = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(':');
    expect(shortFingerprint(fp)).toBe('00:01:02:03:04:05:06:07…');
    expect(shortFingerprint('ab:cd')).toBe('AB:CD');
  });
});
