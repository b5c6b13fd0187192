import { availableParallelism } from 'node:os';
import type { FileChanges } from '../../../apply/file-set.ts';
import type { ApplyTarget } from '../../../apply/pipeline.ts';
import { unstagedOutput } from '../../../host/bulk-commit.ts';
import type { Host, StagedFile } from '../../../host/host.ts';
import {
  type BindCheck,
  CHECKER_MISSING,
  checkNamedConf,
  problemLines,
  zoneCheckConf,
} from './bind-check.service.ts';
import { BIND_SYSTEM_PATHS } from './bind.layout.ts';
import type { DnsContext } from '../dns.context.ts';

const CHECK_BATCH = 1000;
const CHECKERS = Math.max(1, Math.min(2, availableParallelism()));

/**
 * Loads zone files with one checker per core, each taking the next batch when it is done. Batches
 * hold about the same number of bytes (at least one per core, at most CHECK_BATCH zones, which keeps
 * each checker's output — a warning per MX/SRV target without an address — bounded). Answers the
 * results in batch order; after a failure no further batch is started.
 */
async function checkInBatches(host: Host, list: { domain: string; file: string; size: number }[]) {
  const total = list.reduce((n, z) => n + z.size, 0);
  const count = Math.min(list.length, Math.max(CHECKERS, Math.ceil(list.length / CHECK_BATCH)));
  const target = total / count;
  const batches: (typeof list)[] = [];
  let current: typeof list = [];
  let bytes = 0;
  for (const z of list) {
    if (current.length && (current.length === CHECK_BATCH || bytes + z.size / 2 > target)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(z);
    bytes += z.size;
  }
  if (current.length) batches.push(current);
  const results: BindCheck[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < batches.length) {
      const i = next++;
      const r = await checkNamedConf(host, zoneCheckConf('/', batches[i] ?? []), true);
      results[i] = r;
      if (!r.ok) failed = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CHECKERS, batches.length) }, worker));
  return results.filter((r): r is BindCheck => r !== undefined);
}

/** Proves the staged set: zone files loaded by `named-checkconf -z`, the configuration parsed whole. */
async function checkStaged(
  ctx: DnsContext,
  staged: StagedFile[],
  confPaths: Set<string>,
): Promise<BindCheck> {
  const { host } = ctx.deps;
  // Zone files the apply does not change are live and were proved when they went live.
  const zoneFiles = staged.filter(
    (s) => !confPaths.has(s.target) && (s as { changed?: boolean }).changed !== false,
  );
  const outputs: string[] = [];
  let checked = true;
  if (zoneFiles.length) {
    const list = zoneFiles.map((s) => ({
      domain: s.target.slice(s.target.lastIndexOf('/db.') + 4),
      file: s.staged,
      size: s.content.length,
    }));
    const results = await checkInBatches(host, list);
    const failed = results.find((r) => !r.ok);
    if (failed) return { ...failed, output: unstagedOutput(failed.output) };
    for (const r of results) {
      checked &&= r.checked;
      if (outputs.length < 20) outputs.push(problemLines(r.output).split('\n').slice(0, 50).join('\n'));
    }
  }
  const confs = staged.filter((s) => confPaths.has(s.target));
  if (confs.length) {
    // The main file only includes the other three; check them inlined, as staged.
    const order = [ctx.layout.options, ctx.layout.logging, ctx.layout.zones];
    const text = order.map((p) => confs.find((s) => s.target === p)?.content ?? '').join('\n');
    const r = await checkNamedConf(host, text, false);
    if (!r.ok) return { ...r, output: unstagedOutput(r.output) };
    checked &&= r.checked;
    outputs.push(r.output);
  }
  return {
    ok: true,
    checked,
    output: checked ? problemLines(unstagedOutput(outputs.join('\n'))) : CHECKER_MISSING,
  };
}

const CONF_PATHS = [
  BIND_SYSTEM_PATHS.workDirMarker,
  BIND_SYSTEM_PATHS.options,
  BIND_SYSTEM_PATHS.logging,
  BIND_SYSTEM_PATHS.zones,
  BIND_SYSTEM_PATHS.main,
];
const ZONE_FILE_PREFIX = BIND_SYSTEM_PATHS.zoneFile('');
// Above this many changed zones one `rndc reload` is cheaper than a command per zone.
const PER_ZONE_RELOAD_MAX = 50;

export const DNS_TARGET = 'dns';

/**
 * BIND as one apply target: changed zone files loaded by `named-checkconf -z`, the configuration
 * parsed whole; `rndc reload <zone>` per changed zone, `rndc reconfig` when the zone list changed,
 * a full `rndc reload` when the options changed.
 */
export function dnsTarget(ctx: DnsContext): ApplyTarget {
  const { host } = ctx.deps;
  const confPaths = new Set(CONF_PATHS.map((p) => host.path(p)));
  return {
    name: DNS_TARGET,
    async prove(staged) {
      const r = await checkStaged(ctx, staged, confPaths);
      return { ok: r.ok, checked: r.checked, output: r.ok ? r.output : problemLines(r.output) };
    },
    async reload(changes: FileChanges, services) {
      const zoneOf = (p: string) =>
        p.startsWith(ZONE_FILE_PREFIX) ? p.slice(ZONE_FILE_PREFIX.length) : null;
      const zones = changes.written.map(zoneOf).filter((z): z is string => z !== null);
      const optionsChanged = changes.written.some(
        (p) => p !== BIND_SYSTEM_PATHS.zones && CONF_PATHS.includes(p as (typeof CONF_PATHS)[number]),
      );
      const listChanged = changes.written.includes(BIND_SYSTEM_PATHS.zones) || changes.removed.length > 0;
      if (optionsChanged || zones.length > PER_ZONE_RELOAD_MAX) return [await services.reload('named')];
      if (!zones.length && !listChanged) return [];
      return [await services.reload('named', { zones, reconfig: listChanged })];
    },
  };
}
