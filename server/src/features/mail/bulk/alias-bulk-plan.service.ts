import { type BulkFilter } from '@mailroom/contract/bulk';
import { ALIAS_STATUSES, CreateAliasRequest, mailMessages } from '@mailroom/contract/mail';
import { fieldError } from '../../../http/errors.ts';
import { type PlanInput, type PlannedItem } from '../../../lib/bulk-operation.ts';
import { parseCsv } from '../aliases/alias-import.service.ts';
import { aliasKinds, listAliases } from '../aliases/alias.repository.ts';
import { isRequiredAddress } from '../aliases/system-aliases.service.ts';
import { knownDomains } from '../domains/domain.service.ts';
import { splitAddress } from '../mail-address.rules.ts';
import { type MailCtx } from '../mail.context.ts';
import { existing } from './bulk-import.repository.ts';
import { PAGE, header, csvOf } from './bulk-plan.rules.ts';
import { systemSources } from './mailbox-bulk-plan.service.ts';

/**
 * Aliases to delete: the selected sources, the alias list's filter (its search and status, and a
 * domain), or every alias. Mailroom's required aliases (postmaster@, abuse@ it made) are skipped:
 * they cannot be deleted (they come back at once), only replaced by the administrator's own.
 */
export async function planAliasDelete(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const { target } = input;
  if (target.kind === 'csv')
    throw fieldError('target', 'Delete Aliases takes selected, filtered or all aliases.');
  const item = (source: string, system: boolean): PlannedItem =>
    system
      ? { key: source, label: source, action: 'skip', reason: mailMessages.aliasRequired(source) }
      : { key: source, label: source, action: 'delete', payload: { source } };
  if (target.kind === 'selected') {
    const keys = [...new Set(target.keys.map((k) => k.trim().toLowerCase()))];
    const found = new Map<string, boolean>();
    for (let i = 0; i < keys.length; i += PAGE)
      for (const r of await aliasKinds(ctx.db, keys.slice(i, i + PAGE)))
        found.set(r.source, Number(r.system) === 1);
    return keys.map((k) =>
      found.has(k)
        ? item(k, found.get(k)!)
        : { key: k, label: k, action: 'skip' as const, reason: `missing: ${mailMessages.aliasNotFound(k)}` },
    );
  }
  const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
  const status =
    f.status && (ALIAS_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as 'active' | 'disabled')
      : undefined;
  const domain = f.domain?.trim().toLowerCase() || undefined;
  const items: PlannedItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listAliases(ctx.db, {
      limit: PAGE,
      sort: 'source',
      ...(f.q ? { q: f.q } : {}),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const a of page.items)
      if (!domain || splitAddress(a.source).domain === domain) items.push(item(a.source, a.system));
    if (!page.next || page.items.length < PAGE) break;
    cursor = page.next;
  }
  return items;
}

/** Aliases to create, from `source,destination`. */
export async function planAliasCreate(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const records = parseCsv(csvOf(input));
  const col = header(records, ['source', 'destination']);
  if (col.get('source') === -1 || col.get('destination') === -1)
    throw fieldError('target', mailMessages.importMissingColumns);
  const items: PlannedItem[] = [];
  const first = new Map<string, number>();
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    if (rec.every((c) => c.trim() === '')) continue;
    const row = i + 1;
    const rawSource = (rec[col.get('source')!] ?? '').trim();
    const rawDest = (rec[col.get('destination')!] ?? '').trim();
    const key = rawSource.toLowerCase() || `row ${row}`;
    const parsed = CreateAliasRequest.safeParse({ source: rawSource, destination: rawDest });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      items.push({
        key,
        label: `Row ${row}: ${key}`,
        action: 'invalid',
        reason: `${String(issue.path[0] ?? 'row')}: ${issue.message}`,
      });
      continue;
    }
    const { source, destination } = parsed.data;
    const dests = destination.split(',').map((d) => d.trim().toLowerCase());
    if (dests.includes(source)) {
      items.push({
        key: source,
        label: source,
        action: 'invalid',
        reason: `destination: ${mailMessages.aliasSelf}`,
      });
      continue;
    }
    const dup = first.get(source);
    if (dup !== undefined) {
      items.push({
        key: source,
        label: source,
        action: 'invalid',
        reason: `source: ${source} appears more than once (first on row ${dup})`,
      });
      continue;
    }
    first.set(source, row);
    items.push({
      key: source,
      label: `${source} → ${destination}`,
      action: 'create',
      payload: { source, destination },
    });
  }
  const creates = items.filter((i) => i.action === 'create');
  const sources = creates.map((i) => i.key);
  const domains = [...new Set(sources.map((s) => splitAddress(s).domain))];
  const [known, aliases, boxes] = await Promise.all([
    knownDomains(ctx.db, domains),
    existing(ctx.db, 'mail_aliases', 'source', sources, Number.MAX_SAFE_INTEGER),
    existing(ctx.db, 'mailboxes', 'email', sources, Number.MAX_SAFE_INTEGER),
  ]);
  const system = await systemSources(ctx.db, sources.filter(isRequiredAddress));
  for (const it of creates) {
    const domain = splitAddress(it.key).domain;
    if (!known.has(domain))
      Object.assign(it, {
        action: 'invalid',
        reason: `source: ${mailMessages.domainUnknown(domain)}`,
        payload: null,
      });
    else if (aliases.has(it.key) && !system.has(it.key))
      Object.assign(it, {
        action: 'skip',
        reason: `exists: ${mailMessages.aliasExists(it.key)}`,
        payload: null,
      });
    else if (boxes.has(it.key))
      Object.assign(it, {
        action: 'invalid',
        reason: `source: ${mailMessages.aliasIsMailbox(it.key)}`,
        payload: null,
      });
  }
  return items;
}
