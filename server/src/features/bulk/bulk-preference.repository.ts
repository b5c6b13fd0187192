import type { BulkConfig, BulkOperationId } from '@mailroom/contract/bulk';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { parse } from './bulk.repository.ts';

/** The owner of `bulk_preferences`: each administrator's choices per operation. */

type Db = Kysely<Database>;

export async function readPreferences(
  db: Db,
  admin: string,
): Promise<Map<string, { enabled: boolean; config: BulkConfig }>> {
  const rows = await db.selectFrom('bulk_preferences').selectAll().where('admin_email', '=', admin).execute();
  return new Map(
    rows.map((r) => [
      r.operation,
      { enabled: Number(r.enabled) === 1, config: parse<BulkConfig>(r.config, {} as BulkConfig) },
    ]),
  );
}

export async function savePreference(
  db: Db,
  admin: string,
  operation: BulkOperationId,
  value: { enabled: boolean; config: BulkConfig },
): Promise<void> {
  const row = {
    enabled: value.enabled ? 1 : 0,
    config: JSON.stringify(value.config),
    updated_at: Date.now(),
  };
  await db
    .insertInto('bulk_preferences')
    .values({ admin_email: admin, operation, ...row })
    .onConflict((oc) => oc.columns(['admin_email', 'operation']).doUpdateSet(row))
    .execute();
}
