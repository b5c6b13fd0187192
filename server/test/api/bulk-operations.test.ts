import type { BulkRun, PlanAnswer, PlanRequest } from '@mailroom/contract/bulk';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DaemonName, ReloadResult, ServiceControl } from '../../src/host/service-control.ts';
import { zoneForm } from '../dns-zone-form.ts';
import { eventually } from '../eventually.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/** Counts reloads: one per batch that changed daemon files. */
class CountingServices implements ServiceControl {
  calls: { name: DaemonName; zones?: string[] }[] = [];
  async reload(name: DaemonName, o: { zones?: string[] } = {}): Promise<ReloadResult> {
    this.calls.push({ name, ...o });
    return { ok: true, attempted: true, output: `${name} reload: done` };
  }
  async states() {
    return [];
  }
  async close() {}
}

const FINISHED = ['completed', 'failed', 'cancelled'];
// Runs of hundreds of argon2id hashes and BIND checks take longer than the default 30 s on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

describe.each(dialects())('bulk operations on %s', (dialect) => {
  let t: TestContext;
  let services: CountingServices;
  beforeAll(async () => {
    // A fast queue pick-up and cancel check (the defaults are 1 s and 2 s).
    t = await startTestApp(dialect, { jobs: { pollMs: 50, heartbeatMs: 100 } });
    services = new CountingServices();
    t.deps.services = services;
    await t.call({ method: 'GET', url: '/api/mail/settings' }); // the startup render is done
  });
  afterAll(async () => t.close());

  const post = (url: string, payload?: object) =>
    t.call({ method: 'POST', url: `/api/${url}`, ...(payload ? { payload } : { payload: {} }) });
  const get = (url: string) => t.call({ method: 'GET', url: `/api/${url}` });
  const plan = async (req: PlanRequest) => {
    const res = await post('bulk/plans', req);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlanAnswer>();
  };
  const run = async (id: number) => (await get(`bulk/runs/${id}`)).json<BulkRun>();
  const finished = (id: number, ms = 120_000) =>
    eventually(
      `run ${id} ends`,
      () => run(id),
      (r) => FINISHED.includes(r.state),
      ms,
    );
  const start = async (id: number, confirm?: number) => {
    const res = await post(`bulk/runs/${id}/start`, confirm === undefined ? {} : { confirm });
    expect(res.statusCode, res.body).toBe(202);
    return res.json<{ jobId: number }>();
  };
  const count = async (table: 'mailboxes' | 'mail_aliases' | 'dns_records', col: string, prefix: string) => {
    const r = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(col)} like ${`${prefix}%`}`.execute(
      t.deps.database.db,
    );
    return Number(r.rows[0]!.n);
  };
  const mailboxesOf = async (domain: string) => {
    const r = await t.deps.database.db
      .selectFrom('mailboxes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('domain', '=', domain)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  const addDomain = async (domain: string) =>
    expect((await post('mail/domains/add', { domain })).statusCode).toBe(200);
  const addBox = async (email: string) =>
    expect((await post('mail/users/add', { email, password: 'box-password-1' })).statusCode).toBe(200);
  const config = (
    batchSize: number,
    continueOnError = false,
    targetItems: 'csv' | 'all' | 'selected' | 'filtered' = 'csv',
  ) => ({
    targetItems,
    batchSize,
    continueOnError,
  });

  it('plans a mailbox CSV exactly (bad and existing rows), changes nothing, then creates exactly the planned ones', async () => {
    const domain = 'plan.example';
    await addDomain(domain);
    for (let i = 0; i < 5; i++) await addBox(`old${i}@${domain}`);
    const N = 200;
    const lines = ['email,password,quota'];
    for (let i = 0; i < 5; i++) lines.push(`old${i}@${domain},new-password-${i},`);
    lines.push(`not-an-address,password-long-1,`);
    lines.push(`=cmd|calc,password-long-2,`);
    lines.push(`short@${domain},abc,`);
    for (let i = 0; i < N - 8; i++) lines.push(`user${i}@${domain},password-${i}-long,10`);
    const p = await plan({
      operation: 'mail.mailbox.create',
      target: { kind: 'csv', csv: lines.join('\n') },
      config: config(50),
    });
    expect(p.run.plan).toEqual({ create: N - 8, update: 0, delete: 0, run: 0, skip: 5, invalid: 3 });
    expect(p.run.state).toBe('planned');
    expect(p.run.counts.total).toBe(N - 8);
    // The plan changed nothing.
    expect(await mailboxesOf(domain)).toBe(5);
    const invalid = (await get(`bulk/runs/${p.run.id}/items?action=invalid`)).json<{
      items: { reason: string }[];
    }>();
    expect(invalid.items.map((i) => i.reason)).toEqual([
      expect.stringMatching(/^row 7: email: /),
      expect.stringMatching(/^row 8: email: /),
      expect.stringMatching(/^row 9: password: Password must be at least 8 characters/),
    ]);
    const skipped = (await get(`bulk/runs/${p.run.id}/items?action=skip`)).json<{
      items: { reason: string }[];
    }>();
    expect(skipped.items[0]!.reason).toMatch(/^exists: /);
    // The ledger does not hold the passwords in clear.
    const raw = await t.deps.database.db
      .selectFrom('bulk_items')
      .select('payload')
      .where('run_id', '=', p.run.id)
      .where('action', '=', 'create')
      .executeTakeFirstOrThrow();
    expect(raw.payload).not.toContain('password-0-long');

    const started = Date.now();
    await start(p.run.id);
    const done = await finished(p.run.id);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[figure] ${dialect}: ${N - 8} mailboxes created in ${seconds.toFixed(2)} s (${((N - 8) / seconds).toFixed(1)} mailboxes/s, batch 50)`,
    );
    expect(done.state).toBe('completed');
    expect(done.counts).toMatchObject({
      total: N - 8,
      succeeded: N - 8,
      failed: 0,
      notProcessed: 0,
      pending: 0,
      skipped: 8,
    });
    expect(done.batches).toBe(4);
    expect(await mailboxesOf(domain)).toBe(5 + N - 8);
    // Passwords are gone from the ledger once each item is done.
    const left = await t.deps.database.db
      .selectFrom('bulk_items')
      .select('payload')
      .where('run_id', '=', p.run.id)
      .where('payload', 'is not', null)
      .execute();
    expect(left).toEqual([]);
    // One audit line per created mailbox, and one for the run with its counts.
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', 'in', ['mail.mailbox.create', 'bulk.run.finish', 'bulk.plan', 'bulk.run.start'])
      .execute();
    expect(
      audit.filter((a) => a.action === 'mail.mailbox.create' && a.details?.includes(`"bulkRun":${p.run.id}`)),
    ).toHaveLength(N - 8);
    const fin = audit.find(
      (a) => a.action === 'bulk.run.finish' && a.details?.includes(`"succeeded":${N - 8}`),
    );
    expect(fin).toBeDefined();
    expect(audit.some((a) => a.action === 'bulk.plan')).toBe(true);
    expect(audit.some((a) => a.action === 'bulk.run.start')).toBe(true);

    // The results download: every item with its result; formula cells neutralised.
    const csv = await get(`bulk/runs/${p.run.id}/results`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('seq,item,action,result,errorCode,message');
    expect(rows).toHaveLength(1 + N);
    expect(rows.filter((r) => r.includes(',create,succeeded,'))).toHaveLength(N - 8);
    expect(rows.find((r) => r.includes('cmd|calc'))).toMatch(
      /^\d+,'=cmd\|calc,invalid,skipped,,row 8: email: /,
    );
    expect(rows.filter((r) => r.includes(',skip,skipped,'))).toHaveLength(5);

    // The history shows it; Clear History hides it and keeps the audit lines.
    const runs = (await get('bulk/runs')).json<{ history: BulkRun[] }>();
    expect(runs.history.map((r) => r.id)).toContain(p.run.id);
    expect((await post('bulk/history/clear')).statusCode).toBe(200);
    expect((await get('bulk/runs')).json<{ history: BulkRun[] }>().history).toEqual([]);
    const after = await t.deps.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'mail.mailbox.create')
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBeGreaterThanOrEqual(N - 8);
  });

  it('creates 1,000 DNS records at batch size 100 with exactly 10 applies (10 reloads)', async () => {
    const zone = 'bulkdns.example';
    expect((await post('dns/zones/add', zoneForm(zone))).statusCode).toBe(200);
    const lines = ['zone,name,type,value,ttl'];
    for (let i = 0; i < 1000; i++) lines.push(`${zone},h${i},A,192.0.2.${i % 250},3600`);
    const p = await plan({
      operation: 'dns.record.create',
      target: { kind: 'csv', csv: lines.join('\n') },
      config: config(100),
    });
    expect(p.run.plan.create).toBe(1000);
    expect(await count('dns_records', 'qname', 'h')).toBe(0);
    services.calls = [];
    const started = Date.now();
    await start(p.run.id);
    const done = await finished(p.run.id);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[figure] ${dialect}: 1,000 DNS records at batch 100 in ${seconds.toFixed(2)} s (${(1000 / seconds).toFixed(0)} records/s)`,
    );
    expect(done.state).toBe('completed');
    expect(done.counts.succeeded).toBe(1000);
    expect(done.batches).toBe(10);
    expect(services.calls.filter((c) => c.name === 'named')).toHaveLength(10);
    const rec = await t.deps.database.db
      .selectFrom('dns_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('zone', '=', zone)
      .where('rtype', '=', 'A')
      .executeTakeFirstOrThrow();
    expect(Number(rec.n)).toBe(1000);
    const zoneRow = await t.deps.database.db
      .selectFrom('dns_zones')
      .select('record_count')
      .where('domain', '=', zone)
      .executeTakeFirstOrThrow();
    expect(Number(zoneRow.record_count)).toBeGreaterThanOrEqual(1000);

    // Update: a new TTL for the filtered records, before/after in the ledger.
    const u = await plan({
      operation: 'dns.record.update',
      target: { kind: 'filtered', filter: { zone, q: 'h99' } },
      config: config(100, false, 'filtered'),
      options: { ttl: 600 },
    });
    expect(u.run.plan.update).toBe(11); // h99, h990…h999
    await start(u.run.id);
    expect((await finished(u.run.id)).counts.succeeded).toBe(11);
    const items = (await get(`bulk/runs/${u.run.id}/items`)).json<{
      items: { before: { ttl: number }; after: { ttl: number } }[];
    }>();
    expect(items.items[0]).toMatchObject({ before: { ttl: 3600 }, after: { ttl: 600 } });
  });

  it('creates aliases from a CSV', async () => {
    const domain = 'alias-bulk.example';
    await addDomain(domain);
    await addBox(`target@${domain}`);
    const N = 2000;
    const lines = ['source,destination'];
    for (let i = 0; i < N; i++) lines.push(`al${i}@${domain},target@${domain}`);
    const p = await plan({
      operation: 'mail.alias.create',
      target: { kind: 'csv', csv: lines.join('\n') },
      config: config(100),
    });
    expect(p.run.plan.create).toBe(N);
    const started = Date.now();
    await start(p.run.id);
    const done = await finished(p.run.id);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `[figure] ${dialect}: ${N} aliases at batch 100 in ${seconds.toFixed(2)} s (${(N / seconds).toFixed(0)} aliases/s)`,
    );
    expect(done.counts.succeeded).toBe(N);
    expect(await count('mail_aliases', 'source', 'al')).toBe(N);
    const d = await t.deps.database.db
      .selectFrom('mail_domains')
      .select('alias_count')
      .where('domain', '=', domain)
      .executeTakeFirstOrThrow();
    expect(Number(d.alias_count)).toBeGreaterThanOrEqual(N);
  });

  it('creates aliases set-based: a row the database refuses fails alone, chains and loops run on their own', async () => {
    const domain = 'alias-set.example';
    await addDomain(domain);
    await addBox(`box@${domain}`);
    const db = t.deps.database.db;
    // A fault the in-memory checks cannot see: the database refuses one row of the set insert.
    const refused = `bad@${domain}`;
    if (dialect === 'sqlite')
      await sql`create trigger refuse_one before insert on mail_aliases when new.source = ${sql.lit(refused)}
        begin select raise(abort, 'refused by the test trigger'); end`.execute(db);
    else {
      await sql`create function refuse_one() returns trigger language plpgsql as $$
        begin if new.source = ${sql.lit(refused)} then raise exception 'refused by the test trigger'; end if;
        return new; end $$`.execute(db);
      await sql`create trigger refuse_one before insert on mail_aliases for each row execute function refuse_one()`.execute(
        db,
      );
    }
    try {
      const lines = ['source,destination'];
      for (let i = 0; i < 40; i++) lines.push(`s${i}@${domain},box@${domain}`);
      lines.push(`${refused},box@${domain}`);
      // A chain (destination another alias of the CSV) and a loop: each runs alone with its checks.
      lines.push(`chain@${domain},s1@${domain}`);
      lines.push(`loop1@${domain},loop2@${domain}`);
      lines.push(`loop2@${domain},loop1@${domain}`);
      for (let i = 40; i < 80; i++) lines.push(`s${i}@${domain},box@${domain}`);
      const p = await plan({
        operation: 'mail.alias.create',
        target: { kind: 'csv', csv: lines.join('\n') },
        config: config(100, true),
      });
      expect(p.run.plan.create).toBe(84);
      const aliasCount = async () =>
        Number(
          (
            await db
              .selectFrom('mail_domains')
              .select('alias_count')
              .where('domain', '=', domain)
              .executeTakeFirstOrThrow()
          ).alias_count,
        );
      const before = await aliasCount();
      await start(p.run.id);
      const done = await finished(p.run.id);
      expect(done.counts).toMatchObject({ succeeded: 82, failed: 2, notProcessed: 0 });
      expect(await count('mail_aliases', 'source', 's')).toBe(80);
      const failed = (await get(`bulk/runs/${p.run.id}/items?state=failed`)).json<{
        items: { key: string; errorMessage: string }[];
      }>();
      expect(failed.items.map((i) => i.key).sort()).toEqual([refused, `loop2@${domain}`]);
      expect(failed.items.find((i) => i.key === refused)!.errorMessage).toMatch(
        /refused by the test trigger/,
      );
      const rows = await db
        .selectFrom('mail_aliases')
        .select('source')
        .where('source', 'in', [`chain@${domain}`, `loop1@${domain}`, `loop2@${domain}`, refused])
        .execute();
      expect(rows.map((r) => r.source).sort()).toEqual([`chain@${domain}`, `loop1@${domain}`]);
      // One audit line per created alias, none for the failed ones.
      const audit = await db
        .selectFrom('audit_log')
        .select(['target'])
        .where('action', '=', 'mail.alias.create')
        .where('details', 'like', `%"bulkRun":${p.run.id},%`)
        .execute();
      expect(audit).toHaveLength(82);
      expect(audit.some((a) => a.target === refused)).toBe(false);
      expect(await aliasCount()).toBe(before + 82);
    } finally {
      await sql`drop trigger refuse_one ${sql.raw(dialect === 'sqlite' ? '' : 'on mail_aliases')}`.execute(
        db,
      );
      if (dialect === 'postgres') await sql`drop function refuse_one()`.execute(db);
    }
  });

  it('cancel mid-run: the item in flight finishes, the rest are not processed, and the counts match the database', async () => {
    const domain = 'cancel.example';
    await addDomain(domain);
    const N = 150;
    const lines = ['email,password'];
    for (let i = 0; i < N; i++) lines.push(`c${i}@${domain},password-${i}-long`);
    const p = await plan({
      operation: 'mail.mailbox.create',
      target: { kind: 'csv', csv: lines.join('\n') },
      config: config(1),
    });
    await start(p.run.id);
    await eventually(
      'some items done',
      () => run(p.run.id),
      (r) => r.counts.succeeded >= 5,
      60_000,
    );
    const cancel = await post(`bulk/runs/${p.run.id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const done = await finished(p.run.id);
    expect(done.state).toBe('cancelled');
    expect(done.counts.notProcessed).toBeGreaterThan(0);
    expect(done.counts.succeeded + done.counts.notProcessed + done.counts.failed).toBe(N);
    expect(await mailboxesOf(domain)).toBe(done.counts.succeeded);
    // The active entry leaves 2 s after the cancel; the history keeps it.
    await eventually(
      'leaves the active list',
      async () => (await get('bulk/runs')).json<{ active: BulkRun[] }>(),
      (r) => !r.active.some((a) => a.id === p.run.id),
      10_000,
    );
  });

  it('delete filtered acts on the frozen plan: a mailbox created after planning survives; the count must be typed', async () => {
    const domain = 'del.example';
    await addDomain(domain);
    for (let i = 0; i < 3; i++) await addBox(`d${i}@${domain}`);
    const p = await plan({
      operation: 'mail.mailbox.delete',
      target: { kind: 'filtered', filter: { domain } },
      config: config(10, false, 'filtered'),
    });
    expect(p.run.plan.delete).toBe(3);
    await addBox(`late@${domain}`);
    const wrong = await post(`bulk/runs/${p.run.id}/start`, { confirm: 4 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<{ details: { field: string; message: string }[] }>().details[0]).toEqual({
      field: 'confirm',
      message: 'Type 3 to confirm: the number of items this run deletes.',
    });
    await start(p.run.id, 3);
    const done = await finished(p.run.id);
    expect(done.counts.succeeded).toBe(3);
    const left = await t.deps.database.db
      .selectFrom('mailboxes')
      .select('email')
      .where('domain', '=', domain)
      .execute();
    expect(left.map((r) => r.email)).toEqual([`late@${domain}`]);
  });

  it('stops at the first failure without Continue on error; with it, the failure budget stops a systemic fault; Retry failed runs them again', async () => {
    const domain = 'gone.example';
    await addDomain(domain);
    const lines = ['email,password'];
    for (let i = 0; i < 30; i++) lines.push(`g${i}@${domain},password-${i}-long`);
    const csv = lines.join('\n');
    const first = await plan({
      operation: 'mail.mailbox.create',
      target: { kind: 'csv', csv },
      config: config(5, false),
    });
    const budget = await plan({
      operation: 'mail.mailbox.create',
      target: { kind: 'csv', csv },
      config: config(5, true),
    });
    expect(first.run.plan.create).toBe(30);
    // The domain goes after planning: every create now fails.
    expect((await post(`mail/domains/remove/${domain}`)).statusCode).toBe(200);

    await start(first.run.id);
    const a = await finished(first.run.id);
    expect(a.state).toBe('failed');
    expect(a.counts).toMatchObject({ failed: 1, notProcessed: 29, succeeded: 0 });
    expect(a.cause).toMatch(
      /^Stopped at the first failure \(g0@gone\.example: gone\.example is not a mail domain yet/,
    );

    await start(budget.run.id);
    const b = await finished(budget.run.id);
    expect(b.state).toBe('failed');
    expect(b.counts).toMatchObject({ failed: 10, notProcessed: 20, succeeded: 0 });
    expect(b.cause).toMatch(/10 items in a row failed, which looks like a systemic fault/);
    const failed = (await get(`bulk/runs/${budget.run.id}/items?state=failed&limit=1`)).json<{
      items: { errorCode: string; errorMessage: string }[];
    }>();
    expect(failed.items[0]!.errorCode).toBe('VALIDATION_ERROR');

    await addDomain(domain);
    const retry = await post(`bulk/runs/${budget.run.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    const r = retry.json<PlanAnswer>();
    expect(r.run.plan.create).toBe(10);
    expect(r.run.retryOf).toBe(budget.run.id);
    await start(r.run.id);
    expect((await finished(r.run.id)).counts.succeeded).toBe(10);
    expect(await mailboxesOf(domain)).toBe(10);
  });

  it('renews selected certificates through the renewal the Renew button runs, and makes a backup', async () => {
    const gen = await post('ssl/certificates/generate', {
      domain: 'renew-bulk.example.com',
      certificateType: 'DV',
      keyAlgorithm: 'ECDSA',
      keySize: 256,
      signatureAlgorithm: 'SHA256',
      validityPeriod: 30,
      challengeType: 'tls',
    });
    expect(gen.statusCode, gen.body).toBe(202);
    const job = await eventually(
      'the certificate is made',
      async () =>
        (await get(`jobs/${gen.json<{ jobId: number }>().jobId}`)).json<{
          state: string;
          result: { certificateId: number };
        }>(),
      (j) => j.state !== 'running' && j.state !== 'queued',
    );
    expect(job.state).toBe('succeeded');
    const id = job.result.certificateId;
    const before = await t.deps.database.db
      .selectFrom('ssl_certificates')
      .select('not_after')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const p = await plan({
      operation: 'ssl.certificate.renew',
      target: { kind: 'selected', keys: [String(id), '999999'] },
      config: config(10, true, 'selected'),
    });
    expect(p.run.plan).toMatchObject({ run: 1, skip: 1 });
    await start(p.run.id);
    const done = await finished(p.run.id);
    expect(done.state, done.cause ?? '').toBe('completed');
    expect(done.counts.succeeded).toBe(1);
    const items = (await get(`bulk/runs/${p.run.id}/items?state=succeeded`)).json<{
      items: { after: { certificateId: number; notAfter: number } }[];
    }>();
    // The renewal's validity runs from now: never earlier than the first one's.
    expect(Number(items.items[0]!.after.notAfter)).toBeGreaterThanOrEqual(Number(before.not_after));
    const renewed = await t.deps.database.db
      .selectFrom('audit_log')
      .select('target')
      .where('action', '=', 'ssl.certificate.renew')
      .where('details', 'like', `%"bulkRun":${p.run.id},%`)
      .execute();
    expect(renewed.map((r) => r.target)).toEqual([String(id)]);

    const b = await plan({
      operation: 'system.backup',
      target: { kind: 'all' },
      config: config(1, false, 'all'),
    });
    expect(b.run.plan.run).toBe(1);
    await start(b.run.id);
    const bd = await finished(b.run.id);
    expect(bd.state, bd.cause ?? '').toBe('completed');
    const backup = await t.deps.database.db
      .selectFrom('system_backups')
      .select(['status', 'size'])
      .where('description', 'like', 'Bulk operation item %')
      .executeTakeFirstOrThrow();
    expect(backup.status).toBe('completed');
    expect(Number(backup.size)).toBeGreaterThan(0);
  });

  it('keeps each administrator’s enable and configuration choices, and refuses bad input naming the field', async () => {
    const put = await t.call({
      method: 'PUT',
      url: '/api/bulk/operations/dns.record.create',
      payload: { enabled: true, config: { targetItems: 'csv', batchSize: 100, continueOnError: true } },
    });
    expect(put.statusCode, put.body).toBe(200);
    const ops = (await get('bulk/operations')).json<{
      operations: { id: string; enabled: boolean; config: unknown; unavailable: string | null }[];
    }>();
    expect(ops.operations.find((o) => o.id === 'dns.record.create')).toMatchObject({
      enabled: true,
      config: { targetItems: 'csv', batchSize: 100, continueOnError: true },
    });
    expect(ops.operations.find((o) => o.id === 'web.app.deploy')!.unavailable).toMatch(/^Not available yet/);
    const big = await post('bulk/plans', {
      operation: 'dns.record.create',
      target: { kind: 'csv', csv: 'x' },
      config: config(101),
    });
    expect(big.statusCode).toBe(400);
    expect(big.json<{ details: { field: string; message: string }[] }>().details[0]).toEqual({
      field: 'config.batchSize',
      message: 'Batch Size must be at most 100',
    });
    const web = await post('bulk/plans', {
      operation: 'web.app.deploy',
      target: { kind: 'all' },
      config: config(10, false, 'all'),
    });
    expect(web.statusCode).toBe(400);
  });
});
