import { describe, expect, it } from 'vitest';
import { importSummary, importTone } from './import-result.ts';

describe('importSummary', () => {
  it('says what was or would be imported, with singular and plural forms', () => {
    const r = { imported: 1, skipped: 2, errors: [{ row: 3, message: 'x' }], dryRun: false };
    expect(importSummary(r, ['record', 'records'])).toBe('1 record imported, 2 skipped, 1 error.');
    expect(importSummary({ ...r, imported: 1200, errors: [], dryRun: true }, ['alias', 'aliases'])).toBe(
      '1,200 aliases would be imported, 2 skipped, 0 errors.',
    );
  });
  it('tones: all in, some refused, nothing in', () => {
    const r = { imported: 0, skipped: 0, errors: [], dryRun: false };
    expect(importTone({ ...r, imported: 3 })).toBe('success');
    expect(importTone({ ...r, imported: 3, errors: [{ row: 2, message: 'x' }] })).toBe('warning');
    expect(importTone({ ...r, errors: [{ row: 2, message: 'x' }] })).toBe('error');
  });
});
