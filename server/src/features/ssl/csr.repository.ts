import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SslCsrTable } from '../../db/ssl.tables.ts';

/** The SQL of `ssl_csrs`: requests made for an outside CA, their key sealed until the result comes. */

type Db = Kysely<Database>;

export async function insertCsr(
  db: Db,
  c: { domain: string; names: string[]; csrPem: string; keyEnc: string },
): Promise<number> {
  const r = await db
    .insertInto('ssl_csrs')
    .values({
      domain: c.domain,
      names: JSON.stringify(c.names),
      csr_pem: c.csrPem,
      key_enc: c.keyEnc,
      created_at: new Date().toISOString(),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** The pending CSRs, newest first (no keys). */
export async function listCsrRows(db: Db) {
  const rows = await db
    .selectFrom('ssl_csrs')
    .select(['id', 'domain', 'names', 'created_at'])
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    domain: r.domain,
    names: JSON.parse(r.names) as string[],
    createdAt: r.created_at,
  }));
}

export async function findCsr(db: Db, id: number): Promise<Selectable<SslCsrTable> | undefined> {
  return db.selectFrom('ssl_csrs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteCsr(db: Db, id: number): Promise<void> {
  await db.deleteFrom('ssl_csrs').where('id', '=', id).execute();
}
