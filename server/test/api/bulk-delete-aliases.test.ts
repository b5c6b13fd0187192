import type { BulkRun, PlanAnswer, PlanRequest } from '@mailroom/contract/bulk';
import { mailMessages } from '@mailroom/contract/mail';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../eventually.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

// Delete Aliases (issue 21: the alias list's "run a bulk operation on the selection"): a plan of
// delete / skip (missing, required), the count typed to start, one transaction per batch with a
// savepoint per item, an audit line per alias, the counters and the required aliases kept right.

const FINISHED = ['completed', 'failed', 'cancelled'];
vi.setConfig({ testTimeout: 120_000 });

describe.each(dialects())('bulk Delete Aliases on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, { jobs: { pollMs: 50, heartbeatMs: 100 } });
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: object = {}) => t.call({ method: 'POST', url: `/api/${url}`, payload });
  const get = (url: string) => t.call({ method: 'GET', url: `/api/${url}` });
  const plan = async (req: PlanRequest) => {
    const res = await post('bulk/plans', req);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlanAnswer>();
  };
  const finished = (id: number) =>
    eventually(
      `run ${id} ends`,
      async () => (await get(`bulk/runs/${id}`)).json<BulkRun>(),
      (r) => FINISHED.includes(r.state),
      60_000,
    );
  const addAlias = async (source: string, destination = ADMIN.email, createDomain = false) => {
    const res = await post('mail/aliases/add', {
      source,
      destination,
      ...(createDomain ? { createDomain } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const aliasesOf = async (domain: string) =>
    (
      await t.deps.database.db
        .selectFrom('mail_aliases')
        .select(['source', 'system'])
        .where('domain', '=', domain)
        .orderBy('source')
        .execute()
    ).map((r) => `${r.source}${Number(r.system) === 1 ? ' (system)' : ''}`);
  const counter = async (domain: string) =>
    Number(
      (
        await t.deps.database.db
          .selectFrom('mail_domains')
          .select('alias_count')
          .where('domain', '=', domain)
          .executeTakeFirst()
      )?.alias_count ?? -1,
    );
  const config = (targetItems: 'selected' | 'filtered' | 'all', batchSize = 10) => ({
    targetItems,
    batchSize,
    continueOnError: false,
  });

  it('is offered as a destructive mail operation taking selected, filtered or all (never a CSV)', async () => {
    const ops = (await get('bulk/operations')).json<{
      operations: { id: string; name: string; category: string; destructive: boolean; targets: string[] }[];
    }>().operations;
    expect(ops.find((o) => o.id === 'mail.alias.delete')).toMatchObject({
      name: 'Delete Aliases',
      category: 'mail',
      destructive: true,
      targets: ['selected', 'filtered', 'all'],
    });
    const csv = await post('bulk/plans', {
      operation: 'mail.alias.delete',
      target: { kind: 'csv', csv: 'source\nx@example.com' },
      config: { targetItems: 'csv', batchSize: 10, continueOnError: false },
    });
    expect(csv.statusCode).toBe(400);
    expect(csv.json().details[0]).toEqual({
      field: 'target',
      message: 'Delete Aliases does not take the target "csv".',
    });
    const none = await post('bulk/plans', {
      operation: 'mail.alias.delete',
      target: { kind: 'selected', keys: [] },
      config: config('selected'),
    });
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json().details)).toContain('Select at least one item in its list first.');
  });

  it('plans a selection (delete / skip: missing / skip: required), changes nothing, needs the count typed, then deletes exactly those', async () => {
    const domain = 'adel.example';
    expect((await post('mail/domains/add', { domain })).statusCode).toBe(200);
    for (const n of ['a1', 'a2', 'a3', 'a4']) await addAlias(`${n}@${domain}`, `${n}-dest@elsewhere.test`);
    // The administrator's own postmaster@ replaces Mailroom's required one; abuse@ stays Mailroom's.
    await addAlias(`postmaster@${domain}`, 'ops@elsewhere.test');
    const before = await aliasesOf(domain);
    expect(before).toEqual([
      `a1@${domain}`,
      `a2@${domain}`,
      `a3@${domain}`,
      `a4@${domain}`,
      `abuse@${domain} (system)`,
      `postmaster@${domain}`,
    ]);
    const keys = [
      `a1@${domain}`,
      ` A2@${domain.toUpperCase()} `,
      `nobody@${domain}`,
      `abuse@${domain}`,
      `postmaster@${domain}`,
    ];
    const p = await plan({
      operation: 'mail.alias.delete',
      target: { kind: 'selected', keys },
      config: config('selected', 2),
    });
    expect(p.run.plan).toEqual({ create: 0, update: 0, delete: 3, run: 0, skip: 2, invalid: 0 });
    expect(p.run.counts.total).toBe(3);
    expect(p.items.map((i) => [i.key, i.action, i.reason])).toEqual([
      [`a1@${domain}`, 'delete', null],
      [`a2@${domain}`, 'delete', null],
      [`nobody@${domain}`, 'skip', `missing: ${mailMessages.aliasNotFound(`nobody@${domain}`)}`],
      [`abuse@${domain}`, 'skip', mailMessages.aliasRequired(`abuse@${domain}`)],
      [`postmaster@${domain}`, 'delete', null],
    ]);
    // The plan changed nothing.
    expect(await aliasesOf(domain)).toEqual(before);

    // Destructive: the count must be typed.
    const missing = await post(`bulk/runs/${p.run.id}/start`, {});
    expect(missing.statusCode).toBe(400);
    const wrong = await post(`bulk/runs/${p.run.id}/start`, { confirm: 5 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0]).toEqual({
      field: 'confirm',
      message: 'Type 3 to confirm: the number of items this run deletes.',
    });
    expect(await aliasesOf(domain)).toEqual(before);
    expect((await post(`bulk/runs/${p.run.id}/start`, { confirm: 3 })).statusCode).toBe(202);
    const done = await finished(p.run.id);
    expect(done.state).toBe('completed');
    expect(done.counts).toMatchObject({ succeeded: 3, failed: 0, notProcessed: 0, skipped: 2 });
    // postmaster@ went back to Mailroom's required alias; the counter matches the rows.
    expect(await aliasesOf(domain)).toEqual([
      `a3@${domain}`,
      `a4@${domain}`,
      `abuse@${domain} (system)`,
      `postmaster@${domain} (system)`,
    ]);
    expect(await counter(domain)).toBe(4);

    // One audit line per deleted alias, with what it was.
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['actor', 'target', 'details'])
      .where('action', '=', 'mail.alias.delete')
      .where('details', 'like', `%"bulkRun":${p.run.id},%`)
      .orderBy('target')
      .execute();
    expect(audit.map((a) => a.target)).toEqual([`a1@${domain}`, `a2@${domain}`, `postmaster@${domain}`]);
    expect(audit.every((a) => a.actor === ADMIN.email)).toBe(true);
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({
      before: { source: `a1@${domain}`, destination: `a1-dest@elsewhere.test`, status: 'active' },
      after: { deleted: true },
    });
    // Per item in the ledger: each deleted once, in 2 batches of at most 2.
    const items = (await get(`bulk/runs/${p.run.id}/items`)).json<{
      items: { key: string; state: string; attempt: number; batch: number | null }[];
    }>().items;
    expect(items.filter((i) => i.state === 'succeeded').map((i) => [i.key, i.attempt, i.batch])).toEqual([
      [`a1@${domain}`, 1, 1],
      [`a2@${domain}`, 1, 1],
      [`postmaster@${domain}`, 1, 2],
    ]);
  });

  it("all: every alias as it stands at planning, Mailroom's required ones skipped; a discarded plan changes nothing", async () => {
    const rows = await t.deps.database.db.selectFrom('mail_aliases').select(['source', 'system']).execute();
    expect(rows.length).toBeGreaterThan(0);
    const p = await plan({ operation: 'mail.alias.delete', target: { kind: 'all' }, config: config('all') });
    const required = rows.filter((r) => Number(r.system) === 1).length;
    expect(p.run.plan).toMatchObject({ delete: rows.length - required, skip: required });
    expect(p.run.target.description).toBe('All');
    expect((await post(`bulk/runs/${p.run.id}/discard`)).statusCode).toBe(200);
    expect((await post(`bulk/runs/${p.run.id}/start`, { confirm: p.run.plan.delete })).statusCode).toBe(409);
    const after = await t.deps.database.db.selectFrom('mail_aliases').select('source').execute();
    expect(after).toHaveLength(rows.length);
  });

  it('an alias deleted between plan and run is skipped as missing, not failed', async () => {
    // The domain of the first test (each new domain makes a DKIM key: kept few).
    const domain = 'adel.example';
    await addAlias(`r1@${domain}`);
    await addAlias(`r2@${domain}`);
    const p = await plan({
      operation: 'mail.alias.delete',
      target: { kind: 'selected', keys: [`r1@${domain}`, `r2@${domain}`] },
      config: config('selected'),
    });
    expect((await post(`mail/aliases/remove/${encodeURIComponent(`r1@${domain}`)}`)).statusCode).toBe(200);
    expect((await post(`bulk/runs/${p.run.id}/start`, { confirm: 2 })).statusCode).toBe(202);
    const done = await finished(p.run.id);
    expect(done.state).toBe('completed');
    expect(done.counts).toMatchObject({ succeeded: 1, failed: 0, skipped: 1 });
    const r1 = (await get(`bulk/runs/${p.run.id}/items?state=skipped`)).json<{
      items: { reason: string }[];
    }>();
    expect(r1.items[0]!.reason).toBe(`missing: ${mailMessages.aliasNotFound(`r1@${domain}`)}`);
    expect((await aliasesOf(domain)).filter((a) => a.startsWith('r'))).toEqual([]);
    expect(await counter(domain)).toBe(4);
  });

  it('filtered takes the alias list filter and is frozen at planning: an alias added later survives; a domain left empty goes', async () => {
    const domain = 'afilt.example';
    // A domain that exists only through its aliases (made by the first one).
    await addAlias(`f1@${domain}`, ADMIN.email, true);
    await addAlias(`f2@${domain}`);
    await addAlias(`f3@${domain}`);
    expect(
      (await post(`mail/aliases/update/${encodeURIComponent(`f3@${domain}`)}`, { status: 'disabled' }))
        .statusCode,
    ).toBe(200);
    await addAlias(`keep-afilt@adel.example`);
    // The list's filter as the alias list sends it: the search, a status.
    const disabled = await plan({
      operation: 'mail.alias.delete',
      target: { kind: 'filtered', filter: { q: domain, status: 'disabled' } },
      config: config('filtered'),
    });
    expect(disabled.items.map((i) => [i.key, i.action])).toEqual([[`f3@${domain}`, 'delete']]);
    expect((await post(`bulk/runs/${disabled.run.id}/discard`)).statusCode).toBe(200);

    const p = await plan({
      operation: 'mail.alias.delete',
      target: { kind: 'filtered', filter: { q: domain } },
      config: config('filtered'),
    });
    const planned = p.items.map((i) => `${i.key} ${i.action}`);
    expect(planned).toContain(`f1@${domain} delete`);
    expect(planned).toContain(`f2@${domain} delete`);
    expect(planned).toContain(`f3@${domain} delete`);
    expect(planned.filter((x) => x.startsWith('keep-'))).toEqual([]);
    expect(p.run.plan.delete).toBe(3);
    expect(p.run.target.description).toBe(`Filtered: q=${domain}`);
    await addAlias(`late@${domain}`);
    expect((await post(`bulk/runs/${p.run.id}/start`, { confirm: 3 })).statusCode).toBe(202);
    expect((await finished(p.run.id)).counts).toMatchObject({ succeeded: 3, failed: 0 });
    expect((await aliasesOf(domain)).filter((a) => !a.endsWith('(system)'))).toEqual([`late@${domain}`]);

    // The last alias of a domain made only by aliases: the domain goes with it.
    const last = await plan({
      operation: 'mail.alias.delete',
      target: { kind: 'filtered', filter: { domain } },
      config: config('filtered'),
    });
    expect(last.run.plan.delete).toBe(1);
    expect((await post(`bulk/runs/${last.run.id}/start`, { confirm: 1 })).statusCode).toBe(202);
    expect((await finished(last.run.id)).counts.succeeded).toBe(1);
    expect(await aliasesOf(domain)).toEqual([]);
    const domains = (await get('mail/domains')).json<
      { domain: string }[] | { items: { domain: string }[] }
    >();
    const names = (Array.isArray(domains) ? domains : domains.items).map((d) => d.domain);
    expect(names).not.toContain(domain);
    expect(names).toContain('adel.example');
  });
});
