import { type BulkFilter } from '@mailroom/contract/bulk';
import { MAILBOX_STATUSES, MAX_QUOTA_BYTES, MB, mailMessages, mbToBytes } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { fieldError } from '../../../http/errors.ts';
import { type PlanInput, type PlannedItem } from '../../../lib/bulk-operation.ts';
import { parseCsv } from '../aliases/alias-import.service.ts';
import { aliasSourcesOfKind } from '../aliases/alias.repository.ts';
import { isRequiredAddress } from '../aliases/system-aliases.service.ts';
import { knownDomains } from '../domains/domain.service.ts';
import { isHostedDomain, splitAddress } from '../mail-address.rules.ts';
import { type MailCtx } from '../mail.context.ts';
import { listMailboxes } from '../mailboxes/mailbox.service.ts';
import { readMailSettings } from '../settings/mail-settings.service.ts';
import { existing } from './bulk-import.repository.ts';
import { type Db, emailRule, passwordRule, PAGE, header, csvOf } from './bulk-plan.rules.ts';

/** Mailboxes to create, from `email,password[,quota]` (quota in MB; empty: the Default Quota). */
export async function planMailboxCreate(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const records = parseCsv(csvOf(input));
  const col = header(records, ['email', 'password', 'quota']);
  if (col.get('email') === -1 || col.get('password') === -1)
    throw fieldError('target', mailMessages.mailboxImportMissingColumns);
  const { settings } = await readMailSettings(ctx.db);
  const items: PlannedItem[] = [];
  const first = new Map<string, number>();
  const cell = (rec: string[], name: string) => {
    const i = col.get(name)!;
    return i === -1 ? '' : (rec[i] ?? '');
  };
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    const row = i + 1;
    const raw = cell(rec, 'email').trim();
    const password = cell(rec, 'password');
    if (!raw && !password && rec.every((c) => c.trim() === '')) continue;
    const invalid = (reason: string, key = raw || `row ${row}`) =>
      items.push({ key, label: key, action: 'invalid', reason: `row ${row}: ${reason}` });
    if (!raw) {
      invalid(`email: ${fieldMessages.required('Email')}`);
      continue;
    }
    const e = emailRule.safeParse(raw);
    if (!e.success) {
      invalid(`email: ${e.error.issues[0]!.message}`);
      continue;
    }
    const email = e.data.toLowerCase();
    if (!isHostedDomain(splitAddress(email).domain)) {
      invalid(`email: ${fieldMessages.email}`, email);
      continue;
    }
    const p = passwordRule.safeParse(password);
    if (!p.success) {
      invalid(`password: ${p.error.issues[0]!.message}`, email);
      continue;
    }
    const rawQuota = cell(rec, 'quota').trim();
    let quota = mbToBytes(settings.defaultQuota);
    if (rawQuota !== '') {
      if (!/^\d{1,12}(\.\d{1,6})?$/.test(rawQuota)) {
        invalid('quota: Quota must be a number of MB (0 = unlimited)', email);
        continue;
      }
      quota = Math.min(mbToBytes(Number(rawQuota)), MAX_QUOTA_BYTES);
      if (quota > settings.maxQuota * MB) {
        invalid(`quota: ${mailMessages.quotaAboveMax(settings.maxQuota)}`, email);
        continue;
      }
    }
    const dup = first.get(email);
    if (dup !== undefined) {
      invalid(`email: ${email} appears more than once (first on row ${dup})`, email);
      continue;
    }
    first.set(email, row);
    items.push({ key: email, label: email, action: 'create', payload: { email, password, quota } });
  }
  const creates = items.filter((i) => i.action === 'create');
  const emails = creates.map((i) => i.key);
  const domains = [...new Set(emails.map((e) => splitAddress(e).domain))];
  const [known, boxes, aliases] = await Promise.all([
    knownDomains(ctx.db, domains),
    existing(ctx.db, 'mailboxes', 'email', emails, Number.MAX_SAFE_INTEGER),
    existing(ctx.db, 'mail_aliases', 'source', emails, Number.MAX_SAFE_INTEGER),
  ]);
  const system = await systemSources(ctx.db, emails.filter(isRequiredAddress));
  for (const it of creates) {
    const domain = splitAddress(it.key).domain;
    // Like every invalid row, named by its row in the file.
    const row = `row ${first.get(it.key)}`;
    if (!known.has(domain))
      Object.assign(it, {
        action: 'invalid',
        reason: `${row}: email: ${mailMessages.domainUnknown(domain)}`,
        payload: null,
      });
    else if (boxes.has(it.key))
      Object.assign(it, {
        action: 'skip',
        reason: `exists: ${mailMessages.mailboxExists(it.key)}`,
        payload: null,
      });
    else if (aliases.has(it.key) && !system.has(it.key))
      Object.assign(it, {
        action: 'invalid',
        reason: `${row}: email: ${mailMessages.mailboxIsAlias(it.key)}`,
        payload: null,
      });
  }
  return items;
}

export async function systemSources(db: Db, sources: string[]): Promise<Set<string>> {
  return new Set(await aliasSourcesOfKind(db, sources, 1));
}

/** Mailboxes to delete: the selected addresses, the list's filter, or every mailbox. */
export async function planMailboxDelete(ctx: MailCtx, input: PlanInput): Promise<PlannedItem[]> {
  const { target } = input;
  if (target.kind === 'csv')
    throw fieldError('target', 'Delete Mailboxes takes selected, filtered or all mailboxes.');
  if (target.kind === 'selected') {
    const keys = [...new Set(target.keys.map((k) => k.trim().toLowerCase()))];
    const found = await existing(ctx.db, 'mailboxes', 'email', keys, Number.MAX_SAFE_INTEGER);
    return keys.map((k) =>
      found.has(k)
        ? { key: k, label: k, action: 'delete' as const, payload: { email: k } }
        : { key: k, label: k, action: 'skip' as const, reason: mailMessages.mailboxNotFound(k) },
    );
  }
  const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
  const status =
    f.status && (MAILBOX_STATUSES as readonly string[]).includes(f.status)
      ? (f.status as 'active' | 'suspended')
      : undefined;
  const items: PlannedItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listMailboxes(ctx.db, {
      limit: PAGE,
      sort: 'email',
      ...(f.q ? { q: f.q } : {}),
      ...(f.domain ? { domain: f.domain.toLowerCase() } : {}),
      ...(status ? { status } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const m of page.items)
      items.push({ key: m.email, label: m.email, action: 'delete', payload: { email: m.email } });
    if (!page.next || page.items.length < PAGE) break;
    cursor = page.next;
  }
  return items;
}
