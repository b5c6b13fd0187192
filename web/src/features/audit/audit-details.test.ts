import { describe, expect, it } from 'vitest';
import { parseAuditDetails } from './audit-details.ts';

describe('audit details', () => {
  it('lists the fields a change altered, before and after', () => {
    const d = parseAuditDetails(
      JSON.stringify({
        before: { enableDMARC: false, maxRecipients: 100, hostname: 'mail.a.test' },
        after: { enableDMARC: true, maxRecipients: 100, hostname: 'mail.b.test' },
        version: 4,
      }),
    );
    expect(d.changes).toEqual([
      { field: 'enableDMARC', before: 'false', after: 'true' },
      { field: 'hostname', before: 'mail.a.test', after: 'mail.b.test' },
    ]);
    expect(d.other).toEqual([['version', '4']]);
  });

  it('shows a created thing (no before) and a plain status', () => {
    expect(parseAuditDetails(JSON.stringify({ after: { quota: 5 } })).changes).toEqual([
      { field: 'quota', before: '—', after: '5' },
    ]);
    expect(parseAuditDetails('{"status":409}')).toEqual({ changes: [], other: [['status', '409']] });
    expect(parseAuditDetails('not json')).toEqual({ changes: [], other: [['details', 'not json']] });
    expect(parseAuditDetails(null)).toEqual({ changes: [], other: [] });
  });
});
