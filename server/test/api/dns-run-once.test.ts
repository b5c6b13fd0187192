import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApplyHooks } from '../../src/apply/apply-hooks.ts';
import { bindLayout } from '../../src/features/dns/stack/bind.layout.ts';
import type { DnsContext } from '../../src/features/dns/dns.context.ts';
import { runDnsAction } from '../../src/features/dns/stack/dns-publish.service.ts';
import { importRecords } from '../../src/features/dns/records/record-import.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

const ZONE = 'once.test';

/** A DNS change's body runs once: the dry run checks and renders, the commit only writes again. */
describe.each(dialects())('a DNS change body runs once on %s', (dialect) => {
  let t: TestContext;
  let ctx: DnsContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    ctx = { deps: t.deps, layout: bindLayout(t.deps.host, {}), mailFacts: undefined };
    const res = await t.call({
      method: 'POST',
      url: '/api/dns/zones/add',
      payload: zoneForm(ZONE),
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => t.close());
  afterEach(() => setApplyHooks(t.deps, {}));

  const records = async () =>
    (
      await t.deps.database.db
        .selectFrom('dns_records')
        .select(['id', 'qname', 'value'])
        .where('zone', '=', ZONE)
        .execute()
    ).map((r) => ({ ...r, id: Number(r.id) }));

  const addBody = (calls: { body: number; write: number }, qname: string) => async () => {
    calls.body++;
    return {
      plan: { zones: [{ domain: ZONE, bump: 'always' as const }] },
      write: async (w: Parameters<Parameters<typeof runDnsAction>[1]>[0]) => {
        calls.write++;
        const row = await w
          .insertInto('dns_records')
          .values({
            zone: ZONE,
            qname,
            rtype: 'A',
            value: '192.0.2.7',
            ttl: 300,
            priority: null,
            weight: null,
            port: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await w
          .updateTable('dns_zones')
          .set((eb) => ({ record_count: eb('record_count', '+', 1) }))
          .where('domain', '=', ZONE)
          .execute();
        return Number(row.id);
      },
    };
  };

  it('checks once, writes in the dry run and the commit, and answers the committed row', async () => {
    const calls = { body: 0, write: 0 };
    const id = await runDnsAction(ctx, addBody(calls, 'once'));
    expect(calls).toEqual({ body: 1, write: 2 });
    const saved = (await records()).filter((r) => r.qname === 'once');
    expect(saved.map((r) => r.id)).toEqual([id]);
    // The zone file went live with it.
    const file = await t.deps.host.readFile(`/etc/bind/mailroom/zones/db.${ZONE}`);
    expect(file).toMatch(/^once\s.*\sA\s+192\.0\.2\.7$/m);
  });

  it('a refused change runs its body and writes once (the dry run) and saves nothing', async () => {
    setApplyHooks(t.deps, {
      prove: async () => ({ ok: false, checked: true, output: 'refused by the test' }),
    });
    const calls = { body: 0, write: 0 };
    await expect(runDnsAction(ctx, addBody(calls, 'refused'))).rejects.toMatchObject({ statusCode: 422 });
    expect(calls).toEqual({ body: 1, write: 1 });
    expect((await records()).some((r) => r.qname === 'refused')).toBe(false);
  });

  it('an import reads and checks its rows once (one "Checking rows" pass), and imports them once', async () => {
    const phases: string[] = [];
    const hooks = {
      progress: (p: { phase?: string }) => {
        if (p.phase) phases.push(p.phase);
      },
      checkpoint: async () => {},
    };
    const csv = [
      'zone,name,type,value,ttl',
      ...Array.from({ length: 30 }, (_, i) => `${ZONE},h${i},A,192.0.2.${i + 1},300`),
    ].join('\n');
    const r = await importRecords(ctx, csv, false, hooks);
    expect(r).toMatchObject({ imported: 30, skipped: 0 });
    expect(phases.filter((p) => p === 'Checking rows')).toHaveLength(1);
    expect((await records()).filter((x) => /^h\d+$/.test(x.qname))).toHaveLength(30);
  });
});
