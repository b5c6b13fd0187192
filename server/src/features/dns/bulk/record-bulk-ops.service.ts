import type { BulkFilter } from '@mailroom/contract/bulk';
import { DNS_RECORD_TYPES, type DnsRecordType, dnsMessages } from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import type { BulkOperationHandler, PlanInput, PlannedItem } from '../../../lib/bulk-operation.ts';
import { csvRows } from '../records/csv-rows.parser.ts';
import type { DnsContext } from '../dns.context.ts';
import { runDnsAction } from '../stack/dns-publish.service.ts';
import { loadSettings } from '../settings/dns-settings.service.ts';
import { isBlank, parseRow } from '../records/record-import.service.ts';
import { type ExistingRecord, conflictAtName, normalizeRecord } from '../records/record.rules.ts';
import { applyCountDeltas, CountDeltas } from '../records/record-count.repository.ts';
import {
  findRecord,
  insertRecord,
  recordsAtName,
  recordsAtNames,
  recordsByIds,
  recordZones,
  updateRecordRow,
} from '../records/record.repository.ts';
import { toRecord } from '../records/record-rows.mapper.ts';
import { listRecords } from '../records/record.service.ts';
import { zoneRowsIn, zoneSummaries } from '../zones/zone.repository.ts';
import { requireZone } from '../zones/zone.service.ts';

/**
 * The DNS area's bulk operations (issue 21): create records from a CSV (the import's reader and
 * rules), update records (a new TTL for selected, filtered or all records, or value/TTL/priority
 * per record id from a CSV). A batch is one DNS change through the apply pipeline: one
 * transaction, each item under a savepoint, every touched zone rendered and proved by BIND once,
 * one reload.
 */

type Db = Kysely<Database>;
const PAGE = 1000;
const TYPES = new Set<string>(DNS_RECORD_TYPES);

const nameOf = (qname: string) => (qname === '' ? '@' : qname);
const labelOf = (zone: string, r: { qname: string; rtype: string; value: string }) =>
  `${nameOf(r.qname)}.${zone} ${r.rtype} ${r.value}`.replace(/^@\./, '');

async function atName(db: Db, zone: string, qname: string): Promise<ExistingRecord[]> {
  return recordsAtName(db, zone, qname);
}

async function planCreate(ctx: DnsContext, input: PlanInput): Promise<PlannedItem[]> {
  if (input.target.kind !== 'csv') throw fieldError('target', 'Create DNS Records takes a CSV file.');
  const { db } = ctx.deps.database;
  const { settings } = await loadSettings(db);
  const zones = new Map((await zoneSummaries(db)).map((z) => [z.domain, z.zone_type]));
  const seen = new Map<string, ExistingRecord[]>();
  const items: PlannedItem[] = [];
  for (const { line, fields } of csvRows(input.target.csv)) {
    if (isBlank(fields)) continue;
    if (line === 1 && fields[0]?.trim().toLowerCase() === 'zone') continue;
    const p = parseRow(line, fields);
    const rowKey = `row ${line}`;
    if ('message' in p) {
      items.push({ key: rowKey, label: `Row ${line}`, action: 'invalid', reason: p.message });
      continue;
    }
    const zoneType = zones.get(p.zone);
    if (!zoneType) {
      items.push({
        key: rowKey,
        label: `Row ${line}: ${p.zone}`,
        action: 'invalid',
        reason: dnsMessages.zoneNotFound(p.zone),
      });
      continue;
    }
    if (zoneType !== 'primary') {
      items.push({
        key: rowKey,
        label: `Row ${line}: ${p.zone}`,
        action: 'invalid',
        reason: dnsMessages.secondaryNoRecords(p.zone),
      });
      continue;
    }
    const res = normalizeRecord(p.input, p.zone, settings);
    if ('problem' in res) {
      items.push({
        key: rowKey,
        label: `Row ${line}: ${p.input.qname}.${p.zone}`,
        action: 'invalid',
        reason: res.problem.message,
      });
      continue;
    }
    const rec = res.record;
    const key = `${p.zone}|${rec.qname}|${rec.rtype}|${rec.value}`;
    const label = labelOf(p.zone, rec);
    const nameKey = `${p.zone}|${rec.qname}`;
    let here = seen.get(nameKey);
    if (!here) {
      here = await atName(db, p.zone, rec.qname);
      seen.set(nameKey, here);
    }
    const clash = conflictAtName(rec, here);
    if (clash) {
      const inDb = conflictAtName(
        rec,
        here.filter((h) => h.id !== undefined),
      );
      if (clash.message === dnsMessages.recordExists && inDb)
        items.push({ key, label, action: 'skip', reason: `exists: ${clash.message}` });
      else
        items.push({
          key,
          label,
          action: 'invalid',
          reason: inDb ? clash.message : `${clash.message} (an earlier row)`,
        });
      continue;
    }
    here.push({
      rtype: rec.rtype,
      value: rec.value,
      priority: rec.priority,
      weight: rec.weight,
      port: rec.port,
    });
    items.push({ key, label, action: 'create', payload: { zone: p.zone, ...rec } });
  }
  return items;
}

async function planUpdate(ctx: DnsContext, input: PlanInput): Promise<PlannedItem[]> {
  const { db } = ctx.deps.database;
  const { target } = input;
  if (target.kind === 'csv') {
    const items: PlannedItem[] = [];
    let cols: Map<string, number> | null = null;
    for (const { line, fields } of csvRows(target.csv)) {
      if (isBlank(fields)) continue;
      if (!cols) {
        cols = new Map(fields.map((f, i) => [f.trim().toLowerCase(), i]));
        if (!cols.has('id'))
          throw fieldError('target', 'The CSV needs an id column (and value, ttl or priority).');
        continue;
      }
      const cell = (n: string) => (cols!.has(n) ? (fields[cols!.get(n)!] ?? '').trim() : '');
      const rawId = cell('id');
      if (!/^\d{1,10}$/.test(rawId)) {
        items.push({
          key: `row ${line}`,
          label: `Row ${line}`,
          action: 'invalid',
          reason: 'id: the record id must be a whole number',
        });
        continue;
      }
      const current = await findRecord(db, Number(rawId));
      if (!current) {
        items.push({
          key: rawId,
          label: `Row ${line}: record ${rawId}`,
          action: 'invalid',
          reason: dnsMessages.recordNotFound,
        });
        continue;
      }
      const change: Record<string, unknown> = {};
      const v = cell('value');
      const t = cell('ttl');
      const pr = cell('priority');
      if (v !== '') change.value = v;
      if (t !== '') {
        if (!/^\d{1,10}$/.test(t)) {
          items.push({
            key: rawId,
            label: labelOf(current.zone, current),
            action: 'invalid',
            reason: 'ttl: TTL must be a whole number',
          });
          continue;
        }
        change.ttl = Number(t);
      }
      if (pr !== '') change.priority = Number(pr);
      items.push(await classifyUpdate(ctx, current, change));
    }
    return items;
  }
  const ttl = input.options.ttl;
  if (ttl === undefined) throw fieldError('options.ttl', 'TTL is required');
  const rows: { id: number; zone: string }[] = [];
  if (target.kind === 'selected') {
    const ids = [...new Set(target.keys.map(Number).filter((n) => Number.isInteger(n) && n > 0))];
    for (let i = 0; i < ids.length; i += 500) {
      rows.push(...(await recordZones(db, ids.slice(i, i + 500))));
    }
  } else {
    const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
    const type =
      f.type && TYPES.has(f.type.toUpperCase()) ? (f.type.toUpperCase() as DnsRecordType) : undefined;
    let cursor: string | undefined;
    for (;;) {
      const page = await listRecords(db, {
        limit: PAGE,
        sort: 'id',
        ...(f.q ? { q: f.q } : {}),
        ...(f.zone ? { zone: f.zone } : {}),
        ...(type ? { type } : {}),
        ...(cursor ? { cursor } : {}),
      });
      rows.push(...page.items.map((r) => ({ id: r.id, zone: r.zone })));
      if (!page.next || page.items.length < PAGE) break;
      cursor = page.next;
    }
  }
  const items: PlannedItem[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const part = await recordsByIds(
      db,
      rows.slice(i, i + 500).map((r) => r.id),
    );
    for (const r of part) items.push(await classifyUpdate(ctx, r, { ttl }));
  }
  return items;
}

async function classifyUpdate(
  ctx: DnsContext,
  current: Parameters<typeof toRecord>[0],
  change: Record<string, unknown>,
): Promise<PlannedItem> {
  const key = String(current.id);
  const label = labelOf(current.zone, current);
  const before = { value: current.value, ttl: current.ttl, priority: current.priority };
  const { settings } = await loadSettings(ctx.deps.database.db);
  const res = normalizeRecord(
    {
      qname: nameOf(current.qname),
      rtype: current.rtype as DnsRecordType,
      value: typeof change.value === 'string' ? change.value : current.value,
      ttl: typeof change.ttl === 'number' ? change.ttl : current.ttl,
      priority: typeof change.priority === 'number' ? change.priority : current.priority,
      weight: current.weight,
      port: current.port,
    },
    current.zone,
    settings,
  );
  if ('problem' in res) return { key, label, action: 'invalid', reason: res.problem.message, before };
  const r = res.record;
  if (r.value === current.value && r.ttl === current.ttl && r.priority === current.priority)
    return { key, label, action: 'skip', reason: 'unchanged: the record already has these values', before };
  return { key, label, action: 'update', payload: { id: Number(current.id), ...change }, before };
}

/** The two DNS operations, each batch one DNS change (one apply, one reload). */
export function dnsBulkOperations(ctx: DnsContext): BulkOperationHandler[] {
  const dialect = ctx.deps.database.dialect;
  const create: BulkOperationHandler = {
    id: 'dns.record.create',
    plan: (input) => planCreate(ctx, input),
    async runBatch(entries, tools) {
      await runDnsAction(ctx, async (trx) => {
        const { settings } = await loadSettings(trx);
        const deltas = new CountDeltas();
        const touched = new Set<string>();
        // The batch's zones and the records at its names, read once (the items then add to them).
        const zoneNames = [...new Set(entries.map((e) => String(e.payload.zone)))];
        const zones = new Map((await zoneRowsIn(trx, zoneNames, false)).map((z) => [z.domain, z]));
        const names = [...new Set(entries.map((e) => String(e.payload.qname)))];
        const here = new Map<string, ExistingRecord[]>();
        for (let i = 0; i < names.length; i += 500) {
          const rows = await recordsAtNames(trx, zoneNames, names.slice(i, i + 500));
          for (const r of rows) {
            const k = `${r.zone}|${r.qname}`;
            here.set(k, [...(here.get(k) ?? []), r]);
          }
        }
        await tools.items(trx, entries, async (e, t) => {
          const zone = zones.get(String(e.payload.zone));
          if (!zone) throw notFound(dnsMessages.zoneNotFound(String(e.payload.zone)));
          if (zone.zone_type !== 'primary') throw conflict(dnsMessages.secondaryNoRecords(zone.domain));
          const p = e.payload;
          const res = normalizeRecord(
            {
              qname: nameOf(String(p.qname)),
              rtype: p.rtype as DnsRecordType,
              value: String(p.value),
              ttl: Number(p.ttl),
              priority: p.priority as number | null,
              weight: p.weight as number | null,
              port: p.port as number | null,
            },
            zone.domain,
            settings,
          );
          if ('problem' in res) throw fieldError(res.problem.field, res.problem.message);
          const rec = res.record;
          const atThisName = here.get(`${zone.domain}|${rec.qname}`) ?? [];
          const clash = conflictAtName(rec, atThisName);
          if (clash?.message === dnsMessages.recordExists) return { skipped: `exists: ${clash.message}` };
          if (clash) throw conflict(clash.message, [{ field: clash.field, message: clash.message }]);
          const row = await insertRecord(t, zone.domain, rec);
          here.set(`${zone.domain}|${rec.qname}`, [...atThisName, row]);
          deltas.add(zone.domain, rec.rtype, 1);
          touched.add(zone.domain);
          return { after: toRecord(row) };
        });
        await applyCountDeltas(trx, dialect, deltas);
        return {
          value: null,
          plan: { zones: [...touched].sort().map((domain) => ({ domain, bump: 'always' as const })) },
        };
      });
    },
  };

  const update: BulkOperationHandler = {
    id: 'dns.record.update',
    plan: (input) => planUpdate(ctx, input),
    async runBatch(entries, tools) {
      await runDnsAction(ctx, async (trx) => {
        const { settings } = await loadSettings(trx);
        const touched = new Set<string>();
        await tools.items(trx, entries, async (e, t) => {
          const id = Number(e.payload.id);
          const current = await findRecord(t, id);
          if (!current) throw notFound(dnsMessages.recordNotFound);
          const zone = await requireZone(t, current.zone);
          if (zone.zone_type !== 'primary') throw conflict(dnsMessages.secondaryNoRecords(zone.domain));
          const p = e.payload;
          const res = normalizeRecord(
            {
              qname: nameOf(current.qname),
              rtype: current.rtype as DnsRecordType,
              value: typeof p.value === 'string' ? p.value : current.value,
              ttl: typeof p.ttl === 'number' ? p.ttl : current.ttl,
              priority: typeof p.priority === 'number' ? p.priority : current.priority,
              weight: current.weight,
              port: current.port,
            },
            zone.domain,
            settings,
          );
          if ('problem' in res) throw fieldError(res.problem.field, res.problem.message);
          const rec = res.record;
          const clash = conflictAtName(rec, await atName(t, zone.domain, rec.qname), id);
          if (clash) throw conflict(clash.message, [{ field: clash.field, message: clash.message }]);
          const row = await updateRecordRow(t, id, rec);
          touched.add(zone.domain);
          return { before: toRecord(current), after: toRecord(row) };
        });
        return {
          value: null,
          plan: { zones: [...touched].sort().map((domain) => ({ domain, bump: 'always' as const })) },
        };
      });
    },
  };
  return [create, update];
}
