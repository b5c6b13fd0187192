import type { RecordListQuery } from '@mailroom/contract/dns';

export interface ZoneListParams {
  q?: string;
  limit?: number;
  offset?: number;
  cursor?: string;
  sort?: string;
}

/** The one query-key factory of the DNS area; invalidate only through it. */
export const dnsKeys = {
  all: ['dns'] as const,
  dashboard: () => ['dns', 'dashboard'] as const,
  activity: () => ['dns', 'activity'] as const,
  status: () => ['dns', 'status'] as const,
  zones: () => ['dns', 'zones'] as const,
  zoneList: (q: ZoneListParams) => ['dns', 'zones', 'list', q] as const,
  zone: (domain: string) => ['dns', 'zones', 'one', domain] as const,
  zoneFile: (domain: string) => ['dns', 'zones', 'file', domain] as const,
  records: () => ['dns', 'records'] as const,
  recordList: (q: RecordListQuery) => ['dns', 'records', 'list', q] as const,
  systemRecords: () => ['dns', 'system-records'] as const,
  settings: () => ['dns', 'settings'] as const,
};
