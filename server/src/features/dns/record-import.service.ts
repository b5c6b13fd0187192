import {
  DNS_RECORD_TYPES,
  type DnsRecordType,
  type RecordImportResult,
  TTL_MAX,
  dnsMessages,
  recordLabels,
} from '@mailroom/contract/dns';
import { fieldMessages } from '@mailroom/contract/messages';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { csvRows } from './csv-rows.ts';
import type { DnsContext } from './dns-context.ts';
import { runDnsAction } from './dns-publish.ts';
import { loadSettings } from './dns-settings.service.ts';
import { type ExistingRecord, type RecordFields, conflictAtName, normalizeRecord } from './record-rules.ts';

type Db = Kysely<Database>;

const MAX_ERRORS = 1000;
// 9 parameters a row stays under SQLite's 32766 and PostgreSQL's 65535 bound parameters.
const INSERT_CHUNK = 3000;
const TYPES = new Set<string>(DNS_RECORD_TYPES);

interface ParsedRow {
  line: number;
  zone: string;
  input: {
    qname: string;
    rtype: DnsRecordType;
    value: string;
    ttl: number;
    priority: number | null;
    weight: number | null;
    port: number | null;
  };
}

const u16 = (s: string) => (/^\d{1,5}$/.test(s) && Number(s) <= 65535 ? Number(s) : null);

/**
 * One CSV line → a record input or the reason it is refused. Columns: zone, name, type, value,
 * ttl, priority (optional) and, for SRV, weight and port — or an SRV value written
 * "weight port target" (priority in its column) or "priority weight port target".
 */
function parseRow(line: number, f: string[]): ParsedRow | { line: number; message: string } {
  const zone = (f[0] ?? '').trim();
  const name = (f[1] ?? '').trim();
  const type = (f[2] ?? '').trim();
  const value = (f[3] ?? '').trim();
  const ttl = (f[4] ?? '').trim();
  const priority = (f[5] ?? '').trim();
  const weight = (f[6] ?? '').trim();
  const port = (f[7] ?? '').trim();
  if (!zone) return { line, message: fieldMessages.required(recordLabels.zone) };
  if (!name) return { line, message: `${fieldMessages.required(recordLabels.qname)} (use @ for the zone apex)` };
  if (!type) return { line, message: fieldMessages.required(recordLabels.rtype) };
  if (!value) return { line, message: fieldMessages.required(recordLabels.value) };
  if (!ttl) return { line, message: fieldMessages.required(recordLabels.ttl) };
  const rtype = type.toUpperCase();
  if (!TYPES.has(rtype)) return { line, message: `${recordLabels.rtype} must be one of ${DNS_RECORD_TYPES.join(', ')}` };
  if (!/^\d{1,10}$/.test(ttl) || Number(ttl) < 1) return { line, message: fieldMessages.min(recordLabels.ttl, 1) };
  if (Number(ttl) > TTL_MAX) return { line, message: fieldMessages.max(recordLabels.ttl, TTL_MAX) };
  let prio: number | null = null;
  if (priority !== '') {
    prio = u16(priority);
    if (prio === null) return { line, message: `${recordLabels.priority} must be a whole number from 0 to 65535` };
  }
  let v = value;
  let w: number | null = null;
  let p: number | null = null;
  if (rtype === 'SRV') {
    if (weight !== '' || port !== '') {
      w = u16(weight);
      p = u16(port);
    } else {
      const parts = value.split(/\s+/);
      if (parts.length === 4 && prio === null) {
        prio = u16(parts[0] ?? '');
        parts.shift();
      }
      if (parts.length === 3) {
        w = u16(parts[0] ?? '');
        p = u16(parts[1] ?? '');
        v = parts[2] ?? '';
      }
    }
  }
  return {
    line,
    zone: zone.toLowerCase().replace(/\.$/, ''),
    input: { qname: name, rtype: rtype as DnsRecordType, value: v, ttl: Number(ttl), priority: prio, weight: w, port: p },
  };
}

function isBlank(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
}

async function inChunks<T, R>(items: T[], size: number, fn: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await fn(items.slice(i, i + size))));
  return out;
}

/**
 * Imports records from CSV in one transaction: good rows are added, refused rows are reported
 * with their line and reason; the affected zones are rendered and checked before the commit.
 */
export async function importRecords(ctx: DnsContext, text: string, dryRun: boolean): Promise<RecordImportResult> {
  return runDnsAction(ctx, async (trx: Db) => {
    const errors: { row: number; message: string }[] = [];
    let skipped = 0;
    const refuse = (row: number, message: string) => {
      skipped++;
      if (errors.length < MAX_ERRORS) errors.push({ row, message });
    };

    const parsed: ParsedRow[] = [];
    for (const { line, fields } of csvRows(text)) {
      if (isBlank(fields)) continue;
      if (line === 1 && fields[0]?.trim().toLowerCase() === 'zone') continue;
      const r = parseRow(line, fields);
      if ('message' in r) refuse(r.line, r.message);
      else parsed.push(r);
    }

    const names = [...new Set(parsed.map((p) => p.zone))];
    const zones = new Map(
      (
        await inChunks(names, 500, (chunk) =>
          trx.selectFrom('dns_zones').select(['id', 'domain', 'zone_type', 'record_count']).where('domain', 'in', chunk).execute(),
        )
      ).map((z) => [z.domain, z]),
    );
    const withRecords = [...zones.values()].filter((z) => Number(z.record_count) > 0).map((z) => z.domain);
    const atName = new Map<string, ExistingRecord[]>();
    const key = (zone: string, qname: string) => `${zone}\u0000${qname}`;
    for (let i = 0; i < withRecords.length; i += 200) {
      const existing = await trx
        .selectFrom('dns_records')
        .select(['id', 'zone', 'qname', 'rtype', 'value', 'priority', 'weight', 'port'])
        .where('zone', 'in', withRecords.slice(i, i + 200))
        .execute();
      for (const e of existing) {
        const k = key(e.zone, e.qname);
        const list = atName.get(k);
        if (list) list.push(e);
        else atName.set(k, [e]);
      }
    }

    const { settings } = await loadSettings(trx);
    // Accepted rows per zone, so they can be inserted in index order (several times faster).
    const accepted = new Map<number, RecordFields[]>();
    let imported = 0;
    for (const p of parsed) {
      const zone = zones.get(p.zone);
      if (!zone) {
        refuse(p.line, dnsMessages.zoneNotFound(p.zone));
        continue;
      }
      if (zone.zone_type !== 'primary') {
        refuse(p.line, dnsMessages.secondaryNoRecords(zone.domain));
        continue;
      }
      const res = normalizeRecord(p.input, zone.domain, settings);
      if ('problem' in res) {
        refuse(p.line, res.problem.message);
        continue;
      }
      const rec = res.record;
      const k = key(zone.domain, rec.qname);
      const here = atName.get(k);
      const clash = here ? conflictAtName(rec, here) : null;
      if (clash) {
        refuse(p.line, clash.message);
        continue;
      }
      const seen = { id: -1, rtype: rec.rtype, value: rec.value, priority: rec.priority, weight: rec.weight, port: rec.port };
      if (here) here.push(seen);
      else atName.set(k, [seen]);
      const list = accepted.get(zone.id);
      if (list) list.push(rec);
      else accepted.set(zone.id, [rec]);
      imported++;
    }

    const touched = [...zones.values()].filter((z) => accepted.has(z.id)).sort((a, b) => (a.domain < b.domain ? -1 : 1));
    if (!dryRun) {
      let batch: (RecordFields & { zone: string })[] = [];
      for (const z of touched) {
        const recs = (accepted.get(z.id) ?? []).sort((a, b) => (a.qname < b.qname ? -1 : a.qname > b.qname ? 1 : 0));
        for (const r of recs) {
          batch.push({ zone: z.domain, ...r });
          if (batch.length === INSERT_CHUNK) {
            await trx.insertInto('dns_records').values(batch).execute();
            batch = [];
          }
        }
        await trx
          .updateTable('dns_zones')
          .set((eb) => ({ record_count: eb('record_count', '+', recs.length) }))
          .where('id', '=', z.id)
          .execute();
      }
      if (batch.length) await trx.insertInto('dns_records').values(batch).execute();
    }
    return {
      value: { imported, skipped, errors: errors.sort((a, b) => a.row - b.row), dryRun },
      plan: dryRun ? {} : { zones: touched.map((z) => ({ domain: z.domain, bump: 'always' as const })) },
    };
  });
}
