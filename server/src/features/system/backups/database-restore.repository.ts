import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';

/**
 * The whole database as a restore rewrites it: the live security state read before (to be put
 * back), and the SQLite copy's tables poured into the live database. The only SQL of a restore.
 */

/** A quoted SQL identifier. */
export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A SQL literal of a column value as read (text, number or null: the security tables hold no other). */
const lit = (v: unknown): string => {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`A security table holds a value that cannot be written back (${typeof v}).`);
};

/**
 * Reads the live security state before a restore and answers the statements that put it back after
 * the restored tables are filled (run in the restore's own transaction): the requester's session
 * and the lockouts in force, each re-keyed to the restored account of the same e-mail address (an
 * account the backup does not have loses them); backup codes used since the backup stay used, and
 * TOTP steps and passkey counters never go back (a code or an assertion is accepted once).
 */
export async function securityStatements(
  db: Kysely<Database>,
  keepSessionId: number | null,
): Promise<string[]> {
  const out: string[] = [];
  const rekeyed = (table: string, row: Record<string, unknown>, keepId: boolean) => {
    const { admin_email: email, id, admin_id: _a, ...rest } = row;
    const cols = [...(keepId ? ['id'] : []), 'admin_id', ...Object.keys(rest)];
    const vals = [...(keepId ? [lit(id)] : []), 'a.id', ...Object.values(rest).map(lit)];
    return `insert into ${q(table)} (${cols.map(q).join(', ')}) select ${vals.join(', ')} from admins a where a.email = ${lit(email)}`;
  };
  if (keepSessionId !== null) {
    const rows = await sql<
      Record<string, unknown>
    >`select s.*, a.email as admin_email from sessions s join admins a on a.id = s.admin_id where s.id = ${keepSessionId}`.execute(
      db,
    );
    for (const r of rows.rows) out.push(rekeyed('sessions', r, true));
  }
  const locks = await sql<
    Record<string, unknown>
  >`select l.*, a.email as admin_email from mfa_lockouts l join admins a on a.id = l.admin_id`.execute(db);
  for (const r of locks.rows) out.push(rekeyed('mfa_lockouts', r, false));
  const used = await db
    .selectFrom('mfa_backup_codes')
    .select(['code_hash', 'used_at'])
    .where('used', '=', 1)
    .execute();
  for (const u of used)
    out.push(
      `update mfa_backup_codes set used = 1, used_at = ${lit(u.used_at)} where code_hash = ${lit(u.code_hash)} and used = 0`,
    );
  const devices = await db
    .selectFrom('mfa_devices')
    .select(['secret_enc', 'last_step', 'credential_id', 'sign_count'])
    .execute();
  for (const d of devices) {
    if (d.secret_enc !== null && d.last_step !== null)
      out.push(
        `update mfa_devices set last_step = ${lit(Number(d.last_step))} where secret_enc = ${lit(d.secret_enc)} and (last_step is null or last_step < ${lit(Number(d.last_step))})`,
      );
    if (d.credential_id !== null && d.sign_count !== null)
      out.push(
        `update mfa_devices set sign_count = ${lit(Number(d.sign_count))} where credential_id = ${lit(d.credential_id)} and (sign_count is null or sign_count < ${lit(Number(d.sign_count))})`,
      );
  }
  return out;
}

/** Empties `emptied` and the restored `tables`, fills `tables` from the SQLite `copy`, and puts the security state back: one transaction. */
export async function restoreSqlite(
  database: DatabaseHandle,
  copy: string,
  tables: string[],
  emptied: string[],
  keepSessionId: number | null,
): Promise<void> {
  const db = database.db;
  await sql`attach database ${sql.lit(copy)} as restore_src`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      const after = await securityStatements(trx, keepSessionId);
      for (const t of [...tables, ...emptied]) await sql.raw(`delete from main.${q(t)}`).execute(trx);
      for (const t of tables) {
        const cols = (await sql<{ name: string }>`select name from pragma_table_info(${t})`.execute(trx)).rows
          .map((c) => q(c.name))
          .join(', ');
        await sql
          .raw(`insert into main.${q(t)} (${cols}) select ${cols} from restore_src.${q(t)}`)
          .execute(trx);
      }
      for (const stmt of after) await sql.raw(stmt).execute(trx);
    });
  } finally {
    await sql`detach database restore_src`.execute(db);
  }
}
