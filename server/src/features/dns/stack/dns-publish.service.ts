import { createHash } from 'node:crypto';
import type { DnsCheckStatus, DnsRecordType } from '@mailroom/contract/dns';
import { ERROR_CODES } from '@mailroom/contract/errors';
import type { MailDnsFacts } from '@mailroom/contract/mail-dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Host } from '../../../host/host.ts';
import { AppError } from '../../../http/errors.ts';
import { BIND_SYSTEM_PATHS } from './bind.layout.ts';
import type { ChangeAudit } from '../../../apply/audit-scope.ts';
import { type ApplyReport, applyChange, assertApplied } from '../../../apply/pipeline.ts';
import { dnsTarget } from './bind-apply.target.ts';
import { CHECKER_MISSING, problemLines } from './bind-check.service.ts';
import type { DnsContext } from '../dns.context.ts';
import { lockSettingsRow } from '../settings/dns-settings.repository.ts';
import { loadSettings, ensureSettingsRow } from '../settings/dns-settings.service.ts';
import { writeStatus } from '../settings/dns-status.service.ts';
import { renderNamedConf, renderZonesConf } from './named-conf.renderer.ts';
import { nextSerial } from '../zones/serial.rules.ts';
import { deriveMailRecords, overriddenBy } from '../records/system-records.rules.ts';
import { recordsToRender } from '../records/record.repository.ts';
import {
  countZones,
  markSecondaryZones,
  markZonesRendered,
  type ZoneRendered,
  zoneRowsIn,
  zonesForConf,
} from '../zones/zone.repository.ts';
import { type RenderRecord, renderZoneFile, stableZoneText } from './zone-file.renderer.ts';

export interface ZonePlan {
  domain: string;
  /** 'always' after a change of the zone; 'ifChanged' re-renders and bumps only when the text differs. */
  bump: 'always' | 'ifChanged';
  /** A serial the administrator asked for; the result is never lower. */
  serialAtLeast?: number;
  /**
   * The zone's whole record set when the caller already holds it (an import into an empty
   * zone), ordered as the database would give it: by name, type, then insertion.
   */
  records?: RenderRecord[];
}

export interface PublishPlan {
  zones?: ZonePlan[];
  /** Render named.conf, options, logging and the zone list again (zone set or settings changed). */
  confs?: boolean;
  /** Zones whose files go once the change is committed. */
  removed?: string[];
  /** Hand every planned zone's file to the pipeline, changed or not (Apply: restores edited files). */
  verifyFiles?: boolean;
}

interface PublishOutcome {
  files: { path: string; content: string }[];
  zones: string[];
  confs: boolean;
  removed: string[];
  notes: string[] | undefined;
}

type Db = Kysely<Database>;

const READ_BATCH = 500;

/** Serialises DNS changes: SQLite does by its single writer, PostgreSQL by a row lock. */
async function lockDns(trx: Db, dialect: string): Promise<void> {
  await ensureSettingsRow(trx);
  if (dialect === 'postgres') {
    await lockSettingsRow(trx);
  }
}

/** The derived mail records for one zone, minus those the administrator's own records replace. */
export function systemRecordsFor(
  domain: string,
  facts: MailDnsFacts[],
  own: { qname: string; rtype: string; value: string }[],
  ttl: number,
): RenderRecord[] {
  const f = facts.find((x) => x.domain.toLowerCase() === domain);
  if (!f) return [];
  const byName = new Map<string, { rtype: string; value: string }[]>();
  for (const r of own) {
    const list = byName.get(r.qname);
    if (list) list.push(r);
    else byName.set(r.qname, [r]);
  }
  return deriveMailRecords(f)
    .filter((d) => !overriddenBy(d, byName.get(d.qname) ?? []))
    .map((d) => ({
      qname: d.qname,
      rtype: d.rtype,
      value: d.value,
      ttl,
      priority: d.priority ?? null,
      weight: null,
      port: null,
    }));
}

/** Name, then type, in code-unit order; stable, so ties keep their id order. */
export const byNameAndType = (a: RenderRecord, b: RenderRecord) =>
  a.qname < b.qname ? -1 : a.qname > b.qname ? 1 : a.rtype < b.rtype ? -1 : a.rtype > b.rtype ? 1 : 0;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

// Lines BIND prints as warnings next to the error that actually refused the file.
const WARNING_LINE = [
  /TTL set to prior TTL/,
  /\/(MX|SRV) '[^']*' (\(out of zone\) )?has no address/,
  /not loaded due to errors/,
];

function firstProblem(output: string): string {
  const lines = problemLines(output).split('\n');
  return lines.find((l) => !WARNING_LINE.some((w) => w.test(l))) ?? lines[0] ?? output;
}

/** What `renderPlan` made: the files, and the serials and hashes `recordRendered` writes. */
interface Rendered {
  out: PublishOutcome;
  zoneUpdates: ZoneRendered[];
}

/**
 * Renders what the plan names from the transaction's state (reads only). Only zones whose text
 * changed (or every planned zone with `verifyFiles`) yield a file.
 */
async function renderPlan(
  trx: Db,
  ctx: DnsContext,
  plan: PublishPlan,
  facts: MailDnsFacts[],
  now: Date,
): Promise<Rendered> {
  const { host } = ctx.deps;
  const files: { path: string; content: string }[] = [];
  const zonePlans = plan.zones ?? [];
  const rendered: string[] = [];
  const zoneUpdates: ZoneRendered[] = [];

  // Zones are read in batches: one query for their rows and one for their records.
  for (let i = 0; i < zonePlans.length; i += READ_BATCH) {
    const batch = zonePlans.slice(i, i + READ_BATCH);
    const domains = batch.map((z) => z.domain);
    const rows = new Map((await zoneRowsIn(trx, domains, true)).map((r) => [r.domain, r]));
    if (rows.size === 0) continue;
    const byZone = new Map<string, RenderRecord[]>();
    for (const zp of batch) if (zp.records && rows.has(zp.domain)) byZone.set(zp.domain, zp.records);
    const toRead = [...rows.keys()].filter((d) => !byZone.has(d));
    const records = !toRead.length ? [] : await recordsToRender(trx, toRead);
    for (const r of records) {
      const rec: RenderRecord = {
        qname: r.qname,
        rtype: r.rtype as DnsRecordType,
        value: r.value,
        ttl: r.ttl,
        priority: r.priority,
        weight: r.weight,
        port: r.port,
      };
      const list = byZone.get(r.zone);
      if (list) list.push(rec);
      else byZone.set(r.zone, [rec]);
    }
    // Byte order whatever the database's collation, so the same records always render the same.
    for (const d of toRead) byZone.get(d)?.sort(byNameAndType);
    for (const zp of batch) {
      const row = rows.get(zp.domain);
      if (!row) continue;
      const own = byZone.get(row.domain) ?? [];
      const input = {
        domain: row.domain,
        defaultTtl: row.default_ttl,
        soa: {
          primary: row.primary_ns,
          email: row.admin_email,
          serial: Number(row.serial),
          refresh: row.refresh,
          retry: row.retry,
          expire: row.expire,
          minimum: row.minimum,
        },
        records: own,
        systemRecords: systemRecordsFor(row.domain, facts, own, row.default_ttl),
      };
      // The hash leaves the serial out, so it is the same before and after the bump.
      if (zp.bump === 'always') input.soa.serial = nextSerial(Number(row.serial), now, zp.serialAtLeast);
      let text = renderZoneFile(input);
      const hash = sha256(stableZoneText(text));
      const changed = zp.bump === 'always' || hash !== row.rendered_hash;
      if (changed && zp.bump !== 'always') {
        input.soa.serial = nextSerial(Number(row.serial), now, zp.serialAtLeast);
        text = renderZoneFile(input);
      }
      if (changed || plan.verifyFiles) {
        files.push({ path: BIND_SYSTEM_PATHS.zoneFile(row.domain), content: text });
        rendered.push(row.domain);
      }
      zoneUpdates.push({ id: row.id, serial: input.soa.serial, hash, changed });
    }
  }

  let notes: string[] | undefined;
  if (plan.confs) {
    const { settings } = await loadSettings(trx);
    const certFile = host.path(settings.tlsCertificatePath);
    const keyFile = host.path(settings.tlsPrivateKeyPath);
    const present =
      (await host.isFile(settings.tlsCertificatePath)) && (await host.isFile(settings.tlsPrivateKeyPath));
    const pieces = renderNamedConf(settings, ctx.layout, { certFile, keyFile, present });
    const zones = await zonesForConf(trx);
    const zonesConf = renderZonesConf(
      zones.map((z) => ({
        domain: z.domain,
        zoneType: z.zone_type as 'primary',
        primaries: z.primaries === '' ? [] : z.primaries.split(','),
      })),
      ctx.layout,
    );
    notes = pieces.notes;
    const P = BIND_SYSTEM_PATHS;
    files.push(
      {
        path: P.workDirMarker,
        content: 'named working directory: Mailroom keeps logs and secondary zone copies here.\n',
      },
      { path: P.options, content: pieces.options },
      { path: P.logging, content: pieces.logging },
      { path: P.zones, content: zonesConf },
      { path: P.main, content: pieces.main },
    );
  }

  return {
    out: { files, zones: rendered, confs: plan.confs === true, removed: plan.removed ?? [], notes },
    zoneUpdates,
  };
}

/** Records the new serials and hashes of a render (and the secondary zones' state with the confs). */
async function recordRendered(
  trx: Db,
  ctx: DnsContext,
  r: Rendered,
  now: Date,
  checked: boolean,
): Promise<void> {
  const status = checked ? 'active' : 'pending';
  const stamp = now.toISOString();
  await markZonesRendered(trx, ctx.deps.database.dialect, r.zoneUpdates, status, stamp);
  if (r.out.confs) {
    // Secondary and stub zones are only statements in zones.conf: proved when that file is.
    await markSecondaryZones(trx, status);
  }
}

async function checkerPresent(host: Host): Promise<boolean> {
  return (await host.which('named-checkconf')) !== null;
}

/** Records what the Status card shows after an apply. */
async function recordDnsStatus(
  ctx: DnsContext,
  out: PublishOutcome,
  report: ApplyReport<unknown>,
  checked: boolean,
): Promise<void> {
  const db = ctx.deps.database.db;
  const { outcome } = report;
  const reload = report.reloads[0];
  const reloadStatus: DnsCheckStatus['reload'] | undefined = reload
    ? { attempted: reload.attempted, ok: reload.attempted ? reload.ok : null, output: reload.output }
    : undefined;
  if (outcome.state !== 'applied') {
    await writeStatus(db, {
      ok: false,
      message: outcome.message,
      output: outcome.output,
      applied: false,
      ...(reloadStatus ? { reload: reloadStatus } : {}),
    });
    return;
  }
  if (!out.zones.length && !out.confs && !out.removed.length) return;
  const what = [
    out.zones.length ? `${out.zones.length} zone file${out.zones.length === 1 ? '' : 's'}` : '',
    out.confs ? 'named.conf' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  // Say what this apply checked and what is live in all (issue 12: "1 zone file checked" read as
  // if only one of three zones had been checked).
  const zoneCount = await countZones(db);
  const live = `${zoneCount} zone${zoneCount === 1 ? '' : 's'} configured in all, each written from a checked file.`;
  await writeStatus(db, {
    ok: checked ? true : null,
    message: checked
      ? `Last change: ${what || 'the configuration'} checked by BIND and applied. ${live}`
      : CHECKER_MISSING,
    output: report.proof?.output ?? '',
    applied: true,
    ...(out.notes ? { notes: out.notes } : {}),
    ...(reloadStatus ? { reload: reloadStatus } : {}),
  });
}

/**
 * What a DNS change's body answers. A body that only reads and checks gives its writes as `write`:
 * the body then runs once, and only `write` runs again (see `runDnsAction`). A body without `write`
 * writes itself and is run again for the commit.
 */
export type DnsChange<T> =
  | { value: T; plan: PublishPlan; write?: undefined }
  | {
      plan: PublishPlan;
      /** The change's database writes alone; answers the value (with the ids the commit gave). */
      write: (trx: Db) => Promise<T>;
    };

/**
 * One DNS change through the apply pipeline: `body` checks the change and says what to publish.
 * The result is rendered in a rolled-back transaction and proved by BIND first (a refused zone
 * saves nothing: 422), then the change is committed with its audit line and the new serials, and
 * only the files whose content changed are swapped in and reloaded. A failed swap or reload
 * restores the last good files and answers 502 (saved, not live; Apply retries).
 *
 * The body, and the render, run once. DNS changes are serialised (the apply lock of the `dns`
 * target, held from the dry run to the end of the commit), so the commit starts from the state the
 * dry run started from: a body that gives its writes as `write` has its checks and reads (a CSV
 * import's parsing and validation of every row) done once, in the dry run, and the commit only runs
 * `write` again and records the serials and hashes the dry run rendered.
 */
export async function runDnsAction<T>(
  ctx: DnsContext,
  body: (trx: Db) => Promise<DnsChange<T>>,
  audit: (value: T) => ChangeAudit = () => ({}),
): Promise<T> {
  const { db, dialect } = ctx.deps.database;
  const { host } = ctx.deps;
  // Read before the transaction: the provider queries through its own connection, which on SQLite
  // (one connection, held by the transaction) would wait forever.
  const facts = ctx.mailFacts ? await ctx.mailFacts() : [];
  const checked = await checkerPresent(host);
  const now = new Date();
  let validated: { change: DnsChange<T>; rendered: Rendered } | null = null;
  let report: ApplyReport<{ value: T; out: PublishOutcome }>;
  try {
    report = await applyChange(ctx.deps, {
      target: dnsTarget(ctx),
      change: async (trx, phase) => {
        await lockDns(trx, dialect);
        const done = validated;
        if (phase === 'commit' && done?.change.write) {
          const value = await done.change.write(trx);
          await recordRendered(trx, ctx, done.rendered, now, checked);
          return { value, out: done.rendered.out };
        }
        const change = await body(trx);
        const value = change.write ? await change.write(trx) : change.value;
        const rendered = await renderPlan(trx, ctx, change.plan, facts, now);
        await recordRendered(trx, ctx, rendered, now, checked);
        if (phase === 'validate') validated = { change, rendered };
        return { value, out: rendered.out };
      },
      render: async (_db, v) => ({
        files: v?.out.files ?? [],
        remove: (v?.out.removed ?? []).map((d) => BIND_SYSTEM_PATHS.zoneFile(d)),
      }),
      audit: (v) => audit(v.value),
      refusedMessage: (proof) => `Rejected by BIND's checker: ${firstProblem(proof.output)}`,
    });
  } catch (err) {
    if (err instanceof AppError && err.code === ERROR_CODES.CHECK_FAILED) {
      const details = err.details as { output?: string } | null;
      await writeStatus(db, {
        ok: false,
        message: err.message,
        output: details?.output ?? '',
        applied: false,
      });
    }
    throw err;
  }
  await recordDnsStatus(ctx, report.value.out, report, checked);
  assertApplied(report.outcome);
  return report.value.value;
}
