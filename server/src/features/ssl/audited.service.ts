import type { Kysely, Transaction } from 'kysely';
import { type ChangeAudit, writeChangeAudit } from '../../apply/audit-scope.ts';
import type { Database } from '../../db/schema.ts';

/**
 * One transaction with the request's audit line in it; once committed, the line is marked written
 * so the generic hook adds no second one.
 */
export async function audited<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>, audit: (c: ChangeAudit) => Promise<void>) => Promise<T>,
): Promise<T> {
  const marks: (() => void)[] = [];
  const out = await db.transaction().execute((trx) =>
    fn(trx, async (c) => {
      const mark = await writeChangeAudit(trx, c);
      if (mark) marks.push(mark);
    }),
  );
  for (const m of marks) m();
  return out;
}
