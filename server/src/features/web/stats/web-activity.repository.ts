import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

export interface AuditRow {
  id: number;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: string;
  details: string | null;
}

/** The latest audit lines of the web area (and SSL, which the sites serve). */
export async function recentWebAudit(db: Db, limit: number): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor', 'action', 'target', 'outcome', 'details'])
    .where((eb) => eb.or([eb('action', 'like', 'web.%'), eb('action', 'like', 'ssl.%')]))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Whether the database answers (the dashboard's Database line). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
