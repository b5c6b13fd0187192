import type { DnsRecord, DnsRecordType } from '@mailroom/contract/dns';
import type { Selectable } from 'kysely';
import type { DnsRecordTable } from '../../../db/dns.tables.ts';

export type RecordRow = Selectable<DnsRecordTable>;

export function toRecord(r: RecordRow): DnsRecord {
  return {
    id: r.id,
    zone: r.zone,
    qname: r.qname,
    rtype: r.rtype as DnsRecordType,
    value: r.value,
    ttl: r.ttl,
    priority: r.priority,
    weight: r.weight,
    port: r.port,
  };
}
