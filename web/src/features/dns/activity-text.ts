import type { AuditEntry } from '@mailroom/contract/audit';

const DESCRIPTIONS: Record<string, string> = {
  'dns.zone.create': 'Zone created',
  'dns.zone.update': 'Zone updated',
  'dns.zone.delete': 'Zone removed',
  'dns.record.create': 'Record added',
  'dns.record.update': 'Record updated',
  'dns.record.delete': 'Record removed',
  'dns.record.import': 'Records imported',
  'dns.settings.update': 'DNS settings saved',
};

/** The timeline's description of one audit entry; a refused change says so. */
export function describeActivity(e: Pick<AuditEntry, 'action' | 'outcome'>): string {
  const base = DESCRIPTIONS[e.action] ?? e.action.replace(/^dns\./, '').replace(/[._]/g, ' ');
  return e.outcome === 'failure' ? `${base} (failed)` : base;
}
