import { type Kysely, sql } from 'kysely';

/** Local parts every hosted domain must answer (RFC 2142; DMARC reports go to postmaster@). */
const REQUIRED = ['postmaster', 'abuse'];

/**
 * System aliases: postmaster@ and abuse@ for every hosted domain, to the first administrator,
 * where neither an alias nor a mailbox holds the address yet. Marked `system` (0/1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mail_aliases')
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const admin = (await sql<{ email: string }>`select email from admins order by id limit 1`.execute(db))
    .rows[0]?.email;
  if (!admin) return;
  const domains = (await sql<{ domain: string }>`select domain from mail_domains`.execute(db)).rows;
  const now = new Date().toISOString();
  for (const { domain } of domains) {
    let added = 0;
    for (const local of REQUIRED) {
      const source = `${local}@${domain}`;
      if (source === admin) continue;
      const taken = await sql`select 1 from mail_aliases where source = ${source}
        union all select 1 from mailboxes where email = ${source}`.execute(db);
      if (taken.rows.length) continue;
      await sql`insert into mail_aliases (source, domain, destination, status, system, created_at, updated_at)
        values (${source}, ${domain}, ${admin}, 'active', 1, ${now}, ${now})`.execute(db);
      added++;
    }
    if (added)
      await sql`update mail_domains set alias_count = alias_count + ${added} where domain = ${domain}`.execute(
        db,
      );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const counts = (
    await sql<{
      domain: string;
      n: number;
    }>`select domain, count(*) as n from mail_aliases where system = 1 group by domain`.execute(db)
  ).rows;
  for (const { domain, n } of counts)
    await sql`update mail_domains set alias_count = alias_count - ${Number(n)} where domain = ${domain}`.execute(
      db,
    );
  await sql`delete from mail_aliases where system = 1`.execute(db);
  await db.schema.alterTable('mail_aliases').dropColumn('system').execute();
}
