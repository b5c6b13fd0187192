import type { DnsRecord } from '@mailroom/contract/dns';

/** The path and pick of one record for PUT/DELETE dns/zones/:zone/records/:qname/:rtype. */
export function recordPath(r: Pick<DnsRecord, 'id' | 'zone' | 'qname' | 'rtype'>) {
  return {
    params: { zone: r.zone, qname: r.qname === '' ? '@' : r.qname, rtype: r.rtype },
    // The id picks this one record when several share the name and type.
    query: { id: r.id },
  };
}
