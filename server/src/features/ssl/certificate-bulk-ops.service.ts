import type { BulkFilter } from '@mailroom/contract/bulk';
import { fieldError } from '../../http/errors.ts';
import type { BulkOperationHandler, PlanInput, PlannedItem } from '../../lib/bulk-operation.ts';
import { renewOne } from './certificate-jobs.service.ts';
import { certificateTimes, renewalCandidates } from './certificate.repository.ts';
import { listCertificates } from './certificate.service.ts';
import type { SslContext } from './ssl-context.types.ts';

/**
 * Renew SSL Certificates as a bulk operation (issue 21): each certificate through the renewal the
 * Renew button runs (an ACME order or a new self-signed certificate, installed and put live by its
 * own apply). An order cannot share a transaction, so each certificate is one item on its own.
 */

const PAGE = 500;
const NOT_RENEWABLE =
  'Not renewable here: an uploaded certificate or one signed for a CSR is renewed by its CA';

async function planRenew(ctx: SslContext, input: PlanInput): Promise<PlannedItem[]> {
  const { target } = input;
  if (target.kind === 'csv')
    throw fieldError('target', 'Renew SSL Certificates takes selected, filtered or all certificates.');
  let ids: number[] = [];
  if (target.kind === 'selected') {
    ids = [...new Set(target.keys.map(Number).filter((n) => Number.isInteger(n) && n > 0))];
  } else {
    const f: BulkFilter = target.kind === 'filtered' ? target.filter : {};
    const status =
      f.status === 'valid' || f.status === 'expiring' || f.status === 'expired' ? f.status : undefined;
    let cursor: string | undefined;
    for (;;) {
      const page = await listCertificates(ctx, {
        limit: PAGE,
        ...(f.q ? { q: f.q } : {}),
        ...(status ? { status } : {}),
        ...(cursor ? { cursor } : {}),
      });
      ids.push(...page.items.map((c) => c.id));
      if (!page.next || page.items.length < PAGE) break;
      cursor = page.next;
    }
  }
  const items: PlannedItem[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await renewalCandidates(ctx.db, ids.slice(i, i + 500));
    const found = new Map(rows.map((r) => [Number(r.id), r]));
    for (const id of ids.slice(i, i + 500)) {
      const r = found.get(id);
      if (!r)
        items.push({
          key: String(id),
          label: `Certificate ${id}`,
          action: 'skip',
          reason: 'Certificate not found',
        });
      else if (r.renewal === null)
        items.push({ key: String(id), label: r.domain, action: 'invalid', reason: NOT_RENEWABLE });
      else
        items.push({
          key: String(id),
          label: r.domain,
          action: 'run',
          payload: { id },
          before: { notAfter: r.not_after },
        });
    }
  }
  return items;
}

export function sslBulkOperations(ctx: SslContext): BulkOperationHandler[] {
  return [
    {
      id: 'ssl.certificate.renew',
      plan: (input) => planRenew(ctx, input),
      async runBatch(entries, tools) {
        await tools.each(entries, async (e) => {
          const id = Number(e.payload.id);
          if (e.inFlight) {
            // Started before a restart: renewed already if its row changed since the run began.
            const row = await certificateTimes(ctx.db, id);
            if (row && Date.parse(row.updated_at) >= tools.startedAt)
              return {
                skipped: 'done: renewed before the restart',
                after: { certificateId: id, notAfter: row.not_after },
              };
          }
          const noop = {
            jobId: 0,
            signal: tools.signal,
            progress: () => undefined,
            checkpoint: async () => undefined,
          };
          const newId = await renewOne(ctx, id, tools.actor, noop);
          const row = await certificateTimes(ctx.db, newId);
          return { after: { certificateId: newId, notAfter: row?.not_after ?? null } };
        });
      },
    },
  ];
}
