import { describe, expect, it } from 'vitest';
import { rewriteIndexPhp } from './index-php.ts';

describe('rewriteIndexPhp', () => {
  it('maps index.php?path= onto the catalogue path and keeps the other parameters', () => {
    expect(rewriteIndexPhp('/api/index.php?path=mail/users&q=ann&limit=5')).toBe(
      '/api/mail/users?q=ann&limit=5',
    );
    expect(rewriteIndexPhp('/api/index.php?path=mail%2Fusers')).toBe('/api/mail/users');
  });
  it('leaves other URLs alone', () => {
    expect(rewriteIndexPhp('/api/mail/users?x=1')).toBe('/api/mail/users?x=1');
    expect(rewriteIndexPhp('/dashboard')).toBe('/dashboard');
  });
  it('sends paths that escape the catalogue nowhere', () => {
    for (const bad of ['../../etc/passwd', '/etc/passwd', 'mail/../../x', '', 'a//b']) {
      expect(rewriteIndexPhp(`/api/index.php?path=${encodeURIComponent(bad)}`)).toBe(
        '/api/index.php/__outside_catalogue__',
      );
    }
  });
});
