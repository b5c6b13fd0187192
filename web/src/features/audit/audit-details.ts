/** One changed value of an audit line's before/after. */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

export interface ParsedDetails {
  /** Fields that differ between `before` and `after` (settings, a mailbox's quota…). */
  changes: AuditChange[];
  /** Everything else the line carries, as `key: value` text. */
  other: [string, string][];
}

const show = (v: unknown): string => {
  if (v === undefined) return '—';
  if (v === null) return 'null';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads an audit line's details (JSON written by the server): a `before`/`after` pair becomes a
 * list of changed fields; anything else is listed as it is. Text that is not JSON is kept whole.
 */
export function parseAuditDetails(details: string | null): ParsedDetails {
  if (!details) return { changes: [], other: [] };
  let value: unknown;
  try {
    value = JSON.parse(details);
  } catch {
    return { changes: [], other: [['details', details]] };
  }
  if (!isRecord(value)) return { changes: [], other: [['details', show(value)]] };
  const { before, after, ...rest } = value;
  const changes: AuditChange[] = [];
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    for (const field of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
      const bs = show(b[field]);
      const as = show(a[field]);
      if (bs !== as) changes.push({ field, before: bs, after: as });
    }
  } else if (before !== undefined || after !== undefined) {
    if (show(before) !== show(after))
      changes.push({ field: 'value', before: show(before), after: show(after) });
  }
  return { changes, other: Object.entries(rest).map(([k, v]) => [k, show(v)]) };
}
