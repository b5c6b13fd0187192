import { describe, expect, it } from 'vitest';
import { sharedReasons } from './shared-reasons.ts';

describe('disabled-field reasons', () => {
  it('says a reason shared by several fields once for the section, a single one at its field', () => {
    const php = 'PHP-FPM is not installed';
    const out = sharedReasons(['enablePhp', 'phpVersion', 'phpMemoryLimit', 'enableGzip', 'other'], {
      enablePhp: php,
      phpVersion: php,
      phpMemoryLimit: php,
      enableGzip: 'mod_deflate is missing',
      unrelated: php,
    });
    expect(out.section).toEqual([php]);
    expect(out.perField).toEqual({ enableGzip: 'mod_deflate is missing' });
  });

  it('has nothing to say when nothing is disabled', () => {
    expect(sharedReasons(['a', 'b'], {})).toEqual({ section: [], perField: {} });
  });
});
