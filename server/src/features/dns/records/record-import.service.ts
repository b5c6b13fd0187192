import {
  DNS_RECORD_TYPES,
  type DnsRecordType,
  type RecordImportResult,
  TTL_MAX,
  dnsMessages,
  recordLabels,
} from '@mailroom/contract/dns';
import { fieldMessages } from '@mailroom/contract/messages';
import { CHECKPOINT_ROWS, csvDataLines, type ProgressHooks } from '../../../lib/progress.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { csvRows } from './csv-rows.parser.ts';
import { bulkInsertRecords } from '../bulk/record-bulk.repository.ts';
import { applyCountDeltas, CountDeltas } from './record-count.repository.ts';
import { zoneRecordsToCompare } from './record.repository.ts';
import { zoneSummaries } from '../zones/zone.repository.ts';
import type { DnsContext } from '../dns.context.ts';
import { byNameAndType, runDnsAction } from '../stack/dns-publish.service.ts';
import { loadSettings } from '../settings/dns-settings.service.ts';
import { type ExistingRecord, type RecordFields, conflictAtName, normalizeRecord } from './record.rules.ts';

type Db = Kysely<Database>;

const MAX_ERRORS = 1000;
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
export function parseRow(line: number, f: string[]): ParsedRow | { line: number; message: string } {
  const zone = (f[0] ?? '').trim();
  const name = (f[1] ?? '').trim();
  const type = (f[2] ?? '').trim();
  const value = (f[3] ?? '').trim();
  const ttl = (f[4] ?? '').trim();
  const priority = (f[5] ?? '').trim();
  const weight = (f[6] ?? '').trim();
  const port = (f[7] ?? '').trim();
  if (!zone) return { line, message: fieldMessages.required(recordLabels.zone) };
  if (!name)
    return { line, message: `${fieldMessages.required(recordLabels.qname)} (use @ for the zone apex)` };
  if (!type) return { line, message: fieldMessages.required(recordLabels.rtype) };
  if (!value) return { line, message: fieldMessages.required(recordLabels.value) };
  if (!ttl) return { line, message: fieldMessages.required(recordLabels.ttl) };
  const rtype = type.toUpperCase();
  if (!TYPES.has(rtype))
    return { line, message: `${recordLabels.rtype} must be one of ${DNS_RECORD_TYPES.join(', ')}` };
  if (!/^\d{1,10}$/.test(ttl) || Number(ttl) < 1)
    return { line, message: fieldMessages.min(recordLabels.ttl, 1) };
  if (Number(ttl) > TTL_MAX) return { line, message: fieldMessages.max(recordLabels.ttl, TTL_MAX) };
  let prio: number | null = null;
  if (priority !== '') {
    prio = u16(priority);
    if (prio === null)
      return { line, message: `${recordLabels.priority} must be a whole number from 0 to 65535` };
  }
  const lowerZone = zone.toLowerCase();
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
    zone: lowerZone.endsWith('.') ? lowerZone.slice(0, -1) : lowerZone,
    input: {
      qname: name,
      rtype: rtype as DnsRecordType,
      value: v,
      ttl: Number(ttl),
      priority: prio,
      weight: w,
      port: p,
    },
  };
}

export function isBlank(fields: string[]): boolean {
  for (const f of fields) if (f.trim() !== '') return false;
  return true;
}

type AtName = ExistingRecord | ExistingRecord[];

function addAtName(map: Map<string, AtName>, name: string, r: ExistingRecord, here = map.get(name)) {
  if (!here) map.set(name, r);
  else if (Array.isArray(here)) here.push(r);
  else map.set(name, [here, r]);
}

interface ZoneState {
  domain: string;
  primary: boolean;
  /** Records the zone had before this import. */
  existing: number;
  /**
   * Records at each name: the existing ones (read on first use) and those accepted so far; a name
   * with one record holds it without an array (most names have one, and an import has millions).
   */
  byName: Map<string, AtName> | null;
  accepted: RecordFields[];
}

/**
 * Imports records from CSV in one transaction: good rows are added, refused rows are reported
 * with their line and reason; the affected zones are rendered and checked before the commit.
 */
export async function importRecords(
  ctx: DnsContext,
  text: string,
  dryRun: boolean,
  job?: ProgressHooks,
): Promise<RecordImportResult> {
  const total = job ? csvDataLines(text) + 1 : null;
  return runDnsAction(
    ctx,
    async (trx: Db) => {
      const errors: { row: number; message: string }[] = [];
      let skipped = 0;
      const refuse = (row: number, message: string) => {
        skipped++;
        if (errors.length < MAX_ERRORS) errors.push({ row, message });
      };

      // Every zone (domain, type, count) is small beside the records; each zone's existing records
      // are read the first time a row names it.
      const zones = new Map<string, ZoneState | null>();
      for (const z of await zoneSummaries(trx)) {
        zones.set(z.domain, {
          domain: z.domain,
          primary: z.zone_type === 'primary',
          existing: Number(z.record_count),
          byName: null,
          accepted: [],
        });
      }
      const byNameOf = async (z: ZoneState): Promise<Map<string, AtName>> => {
        if (z.byName) return z.byName;
        const map = new Map<string, AtName>();
        if (z.existing > 0) {
          const rows = await zoneRecordsToCompare(trx, z.domain);
          for (const e of rows) addAtName(map, e.qname, e);
        }
        z.byName = map;
        return map;
      };

      const { settings } = await loadSettings(trx);
      let imported = 0;
      job?.progress({ phase: 'Checking rows', processed: 0, total });
      for (const { line, fields } of csvRows(text)) {
        if (job && line % CHECKPOINT_ROWS === 0) {
          job.progress({ processed: line, counts: { imported, skipped } });
          await job.checkpoint();
        }
        if (isBlank(fields)) continue;
        if (line === 1 && fields[0]?.trim().toLowerCase() === 'zone') continue;
        const p = parseRow(line, fields);
        if ('message' in p) {
          refuse(p.line, p.message);
          continue;
        }
        const zone = zones.get(p.zone);
        if (!zone) {
          refuse(p.line, dnsMessages.zoneNotFound(p.zone));
          continue;
        }
        if (!zone.primary) {
          refuse(p.line, dnsMessages.secondaryNoRecords(zone.domain));
          continue;
        }
        const res = normalizeRecord(p.input, zone.domain, settings);
        if ('problem' in res) {
          refuse(p.line, res.problem.message);
          continue;
        }
        const rec = res.record;
        const byName = zone.byName ?? (await byNameOf(zone));
        const here = byName.get(rec.qname);
        const clash = here ? conflictAtName(rec, Array.isArray(here) ? here : [here]) : null;
        if (clash) {
          refuse(p.line, clash.message);
          continue;
        }
        addAtName(byName, rec.qname, rec, here);
        zone.accepted.push(rec);
        imported++;
      }

      const touched = [...zones.values()]
        .filter((z): z is ZoneState => z !== null && z.accepted.length > 0)
        .sort((a, b) => (a.domain < b.domain ? -1 : 1));
      // In index order (zone, then name): several times faster to insert than file order.
      const deltas = new CountDeltas();
      for (const z of touched) {
        // Stable: rows at one name and type keep their file order, which their ids then follow.
        z.accepted.sort(byNameAndType);
        const perType = new Map<string, number>();
        for (const r of z.accepted) perType.set(r.rtype, (perType.get(r.rtype) ?? 0) + 1);
        for (const [rtype, n] of perType) deltas.add(z.domain, rtype, n);
      }
      const value = { imported, skipped, errors: errors.sort((a, b) => a.row - b.row), dryRun };
      // The rows are read and checked once; only these writes run again for the commit.
      return {
        plan: dryRun
          ? {}
          : {
              zones: touched.map((z) => ({
                domain: z.domain,
                bump: 'always' as const,
                ...(z.existing === 0 ? { records: z.accepted } : {}),
              })),
            },
        write: async (w: Db) => {
          if (dryRun) return value;
          job?.progress({ phase: 'Writing records', processed: total ?? 0 });
          await job?.checkpoint();
          await bulkInsertRecords(
            w,
            ctx.deps.database,
            touched.map((z) => ({ zone: z.domain, records: z.accepted })),
          );
          await applyCountDeltas(w, ctx.deps.database.dialect, deltas);
          return value;
        },
      };
    },
    // The audit line, written in the import's transaction, says what it did.
    (v) => ({ details: { imported: v.imported, skipped: v.skipped, dryRun: v.dryRun } }),
  );
}
