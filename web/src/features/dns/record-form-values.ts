import {
  RECORD_FORM_DEFAULTS,
  type DnsRecord,
  type DnsRecordType,
  type RecordAddRequest,
  type RecordInput,
} from '@mailroom/contract/dns';
import { numberOrUndefined, type NumberField } from '../../lib/zod-form.ts';

export interface RecordFormValues {
  zone: string;
  rtype: DnsRecordType;
  qname: string;
  value: string;
  ttl: NumberField;
  priority: NumberField;
  weight: NumberField;
  port: NumberField;
}

export const hasPriority = (t: DnsRecordType) => t === 'MX' || t === 'SRV';
export const isSrv = (t: DnsRecordType) => t === 'SRV';

/** §9 defaults: type A, TTL 3600, priority 10. */
export function emptyRecordForm(zone = ''): RecordFormValues {
  return {
    zone,
    rtype: RECORD_FORM_DEFAULTS.rtype,
    qname: '',
    value: '',
    ttl: RECORD_FORM_DEFAULTS.ttl,
    priority: RECORD_FORM_DEFAULTS.priority,
    weight: '',
    port: '',
  };
}

export function recordToForm(r: DnsRecord): RecordFormValues {
  return {
    zone: r.zone,
    rtype: r.rtype,
    qname: r.qname,
    value: r.value,
    ttl: r.ttl,
    priority: r.priority ?? (hasPriority(r.rtype) ? RECORD_FORM_DEFAULTS.priority : ''),
    weight: r.weight ?? '',
    port: r.port ?? '',
  };
}

/** Priority only for MX and SRV, weight and port only for SRV; the others send null. */
function typedNumbers(v: RecordFormValues) {
  return {
    priority: hasPriority(v.rtype) ? numberOrUndefined(v.priority) : null,
    weight: isSrv(v.rtype) ? numberOrUndefined(v.weight) : null,
    port: isSrv(v.rtype) ? numberOrUndefined(v.port) : null,
  };
}

function nameOf(qname: string): string {
  const q = qname.trim();
  return q === '@' ? '' : q;
}

export function toRecordAddRequest(v: RecordFormValues): RecordAddRequest {
  return {
    zone: v.zone,
    rtype: v.rtype,
    qname: nameOf(v.qname),
    value: v.value,
    ttl: numberOrUndefined(v.ttl),
    ...typedNumbers(v),
  };
}

export function toRecordInput(v: RecordFormValues): RecordInput {
  return {
    rtype: v.rtype,
    qname: nameOf(v.qname),
    value: v.value,
    ttl: numberOrUndefined(v.ttl),
    ...typedNumbers(v),
  };
}

/** The name column: '@' for the zone's apex. */
export function displayName(qname: string): string {
  return qname === '' ? '@' : qname;
}
