import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { search, searchQueries } from '../../src/features/search/search.repository.ts';

/**
 * The global search's plan on PostgreSQL (issue 12): with enough rows that a scan would cost more,
 * every group is an index range read with its LIMIT on top, never a sequential scan, a sort of
 * the whole table or a count. (The speed figure is in bench/: `npm run bench -- search`.)
 */
const ROWS = 20_000;

// No app here: only the tables and the search service (an app would start its background work).
describe.skipIf(!inject('pgUrl'))('global search plan on postgres', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    const base = inject('pgUrl')!;
    const name = `search_plan_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    handle = openDatabase({ databaseUrl: base.replace(/\/postgres$/, `/${name}`), dataDir: '/nonexistent' });
    await migrateToLatest(handle.db);
    const db = handle.db;
    const now = new Date().toISOString();
    await sql`insert into mail_domains (domain, explicit, mailbox_count, alias_count, created_at)
      select 'd' || i || '.plan.test', 1, 0, 0, ${now} from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`insert into mailboxes (email, domain, password_hash, quota, status, maildir, created_at, updated_at)
      select 'user' || i || '@plan.test', 'plan.test', 'x', 0, 'active', 'm' || i, ${now}, ${now}
      from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`insert into mail_aliases (source, domain, destination, status, created_at, updated_at)
      select 'alias' || i || '@plan.test', 'plan.test', 'user1@plan.test', 'active', ${now}, ${now}
      from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`insert into dns_zones (domain, zone_type, status, primary_ns, admin_email, serial, refresh,
        retry, expire, minimum, default_ttl, created_at, updated_at)
      select 'z' || i || '.plan.test', 'primary', 'active', 'ns1.plan.test', 'h@plan.test', 1, 3600, 1800,
        604800, 300, 3600, ${now}, ${now} from generate_series(1, ${ROWS}) i`.execute(db);
    await sql`insert into dns_records (zone, qname, rtype, value, ttl)
      select 'z1.plan.test', 'host' || i, 'A', '10.0.0.1', 3600 from generate_series(1, ${ROWS}) i`.execute(
      db,
    );
    await sql`analyze`.execute(db);
  }, 60_000);
  afterAll(async () => handle?.close());

  it('reads every group through an index range, with the LIMIT pushed into the group', async () => {
    const db = handle.db;
    const queries = searchQueries(db, 'Ho', 6);
    for (const [kind, query] of Object.entries(queries)) {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan, `${kind}:\n${plan}`).toMatch(/^Limit/);
      expect(plan, `${kind}:\n${plan}`).toMatch(/Index (Only )?Scan using \w+/);
      expect(plan, `${kind}:\n${plan}`).toMatch(/Index Cond: .*>=.*<|Index Cond: .*<.*>=/s);
      expect(plan, `${kind}:\n${plan}`).not.toMatch(/Seq Scan|Sort|Aggregate/);
    }
  });

  it('answers all groups in one statement, each in its order and limited', async () => {
    const body = await search(handle.db, 'HOST1', 3);
    expect(body.groups).toEqual([
      {
        kind: 'record',
        label: 'DNS Records',
        hits: ['host1', 'host10', 'host100'].map((q) =>
          expect.objectContaining({ title: `${q}.z1.plan.test` }),
        ),
        more: true,
      },
    ]);
    const zones = (await search(handle.db, 'z2', 2)).groups;
    expect(zones.map((g) => [g.kind, g.hits.map((h) => h.title), g.more])).toEqual([
      ['zone', ['z2.plan.test', 'z20.plan.test'], true],
    ]);
  });
});
