import { type DnsRecord, type DnsRecordType, dnsMessages } from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import { toRelativeName } from '../zones/dns-names.rules.ts';
import type { DnsContext } from '../dns.context.ts';
import { runDnsAction } from '../stack/dns-publish.service.ts';
import { loadSettings } from '../settings/dns-settings.service.ts';
import { normalizeValue, normalizeRecord, conflictAtName, type RecordFields } from './record.rules.ts';
import { applyCountDeltas, CountDeltas } from './record-count.repository.ts';
import {
  deleteRecordRows,
  insertRecord,
  recordsAtName,
  recordsByIds,
  recordsMatching,
  recordsNamed,
  updateRecordRow,
} from './record.repository.ts';
import { type RecordRow, toRecord } from './record-rows.mapper.ts';
import { requireZone } from '../zones/zone.service.ts';

export { listRecords } from './record-list.repository.ts';

type Db = Kysely<Database>;

export interface RecordInputFields {
  qname: string;
  rtype: DnsRecordType;
  value: string;
  ttl: number;
  priority?: number | null | undefined;
  weight?: number | null | undefined;
  port?: number | null | undefined;
}

async function prepare(
  trx: Db,
  zone: { domain: string; id: number },
  input: RecordInputFields,
  exceptId?: number,
): Promise<RecordFields> {
  const { settings } = await loadSettings(trx);
  const res = normalizeRecord(input, zone.domain, settings);
  if ('problem' in res) throw fieldError(res.problem.field, res.problem.message);
  const clash = conflictAtName(res.record, await recordsAtName(trx, zone.domain, res.record.qname), exceptId);
  if (clash) throw conflict(clash.message, [{ field: clash.field, message: clash.message }]);
  return res.record;
}

function assertPrimary(zone: { domain: string; zone_type: string }): void {
  if (zone.zone_type !== 'primary') throw conflict(dnsMessages.secondaryNoRecords(zone.domain));
}

export async function addRecord(
  ctx: DnsContext,
  zoneDomain: string,
  input: RecordInputFields,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    assertPrimary(zone);
    const rec = await prepare(trx, zone, input);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        const row = await insertRecord(w, zone.domain, rec);
        await applyCountDeltas(
          w,
          ctx.deps.database.dialect,
          new CountDeltas().add(zone.domain, rec.rtype, 1),
        );
        return toRecord(row);
      },
    };
  });
}

export interface RecordPick {
  value?: string | undefined;
  id?: number | undefined;
}

/** The one record at a name and type, chosen by id or value when there are several. */
async function pickRecord(
  trx: Db,
  zone: { id: number; domain: string },
  qnameInput: string,
  rtype: DnsRecordType,
  pick: RecordPick,
): Promise<RecordRow> {
  const qname = toRelativeName(qnameInput, zone.domain);
  if (qname === null) throw fieldError('qname', dnsMessages.nameOutsideZone(zone.domain));
  const rows = await recordsMatching(trx, zone.domain, qname, rtype, {
    id: pick.id,
    value:
      pick.value !== undefined && pick.value !== ''
        ? normalizeValue(rtype, pick.value, zone.domain)
        : undefined,
  });
  if (rows.length === 0) throw notFound(dnsMessages.recordNotFound);
  if (rows.length > 1) throw conflict(dnsMessages.recordAmbiguous(rows.length), rows.map(toRecord));
  return rows[0] as RecordRow;
}

export async function updateRecord(
  ctx: DnsContext,
  zoneDomain: string,
  qname: string,
  rtype: DnsRecordType,
  pick: RecordPick,
  input: RecordInputFields,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    assertPrimary(zone);
    const current = await pickRecord(trx, zone, qname, rtype, pick);
    const rec = await prepare(trx, zone, input, current.id);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        if (rec.rtype !== current.rtype) {
          const deltas = new CountDeltas().add(zone.domain, current.rtype, -1).add(zone.domain, rec.rtype, 1);
          await applyCountDeltas(w, ctx.deps.database.dialect, deltas);
        }
        const row = await updateRecordRow(w, current.id, rec);
        return toRecord(row);
      },
    };
  });
}

export async function deleteRecord(
  ctx: DnsContext,
  zoneDomain: string,
  qname: string,
  rtype: DnsRecordType,
  pick: RecordPick,
): Promise<DnsRecord> {
  return runDnsAction(ctx, async (trx) => {
    const zone = await requireZone(trx, zoneDomain);
    const current = await pickRecord(trx, zone, qname, rtype, pick);
    return {
      plan: { zones: [{ domain: zone.domain, bump: 'always' }] },
      write: async (w) => {
        await deleteRecordRows(w, [current.id]);
        await applyCountDeltas(
          w,
          ctx.deps.database.dialect,
          new CountDeltas().add(zone.domain, current.rtype, -1),
        );
        return toRecord(current);
      },
    };
  });
}

/**
 * Deletes several records by id in one DNS change (one transaction, one audit line, each zone
 * republished once): every id must exist, or nothing changes.
 */
export async function deleteRecords(ctx: DnsContext, list: number[]): Promise<number> {
  const ids = [...new Set(list)];
  return runDnsAction(
    ctx,
    async (trx) => {
      const rows = await recordsByIds(trx, ids);
      if (rows.length !== ids.length) {
        const found = new Set(rows.map((r) => Number(r.id)));
        const missing = ids.filter((id) => !found.has(id));
        throw fieldError(
          'ids',
          `${missing.length === 1 ? 'This record was' : 'These records were'} not found (deleted meanwhile?): ${missing.slice(0, 10).join(', ')}`,
        );
      }
      const zones = [...new Set(rows.map((r) => r.zone))].sort();
      return {
        plan: { zones: zones.map((domain) => ({ domain, bump: 'always' as const })) },
        write: async (w) => {
          await deleteRecordRows(w, ids);
          const deltas = new CountDeltas();
          for (const r of rows) deltas.add(r.zone, r.rtype, -1);
          await applyCountDeltas(w, ctx.deps.database.dialect, deltas);
          return rows.length;
        },
      };
    },
    (n) => ({ target: `${n} records`, details: { ids } }),
  );
}

/**
 * The spec's `dns/records/remove {qname, rtype}`: without a zone the name may be absolute
 * (`www.example.com`) or relative; zone and value narrow it down to one record.
 */
export async function removeRecordByName(
  ctx: DnsContext,
  body: { qname: string; rtype: DnsRecordType; zone?: string | undefined; value?: string | undefined },
): Promise<DnsRecord> {
  if (body.zone) {
    return deleteRecord(ctx, body.zone, body.qname, body.rtype, { value: body.value });
  }
  const { db } = ctx.deps.database;
  const name = body.qname.trim().toLowerCase().replace(/\.$/, '');
  const rel = name === '@' ? '' : name;
  const rows = await recordsNamed(db, body.rtype, rel, name);
  const matching = body.value
    ? rows.filter((r) => r.value === normalizeValue(body.rtype, body.value ?? '', r.zone))
    : rows;
  if (matching.length === 0) throw notFound(dnsMessages.recordNotFound);
  if (matching.length > 1)
    throw conflict(dnsMessages.recordAmbiguous(matching.length), matching.map(toRecord));
  const only = matching[0] as RecordRow;
  return deleteRecord(ctx, only.zone, only.qname === '' ? '@' : only.qname, body.rtype, { id: only.id });
}
