import { describe, expect, it } from 'vitest';
import { describeActivity } from './activity-text.ts';

describe('describeActivity', () => {
  it('names known DNS actions and marks refused ones', () => {
    expect(describeActivity({ action: 'dns.zone.create', outcome: 'success' })).toBe('Zone created');
    expect(describeActivity({ action: 'dns.record.import', outcome: 'success' })).toBe('Records imported');
    expect(describeActivity({ action: 'dns.record.create', outcome: 'failure' })).toBe(
      'Record added (failed)',
    );
  });

  it('falls back to the action words for unknown actions', () => {
    expect(describeActivity({ action: 'dns.zone.transfer_out', outcome: 'success' })).toBe(
      'zone transfer out',
    );
  });
});
