import type { DnsCheckStatus } from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ensureSettingsRow } from './dns-settings.service.ts';

const NEVER: DnsCheckStatus = {
  ok: null,
  checkedAt: null,
  appliedAt: null,
  message: 'The DNS configuration has not been rendered yet.',
  output: '',
  reload: { attempted: false, ok: null, output: '' },
  notes: [],
};

export async function readStatus(db: Kysely<Database>): Promise<DnsCheckStatus> {
  const row = await db.selectFrom('dns_settings').selectAll().where('id', '=', 1).executeTakeFirst();
  if (!row || row.checked_at === null) return NEVER;
  return {
    ok: row.check_ok === null ? null : row.check_ok === 1,
    checkedAt: row.checked_at,
    appliedAt: row.applied_at,
    message: row.check_message,
    output: row.check_output,
    reload: JSON.parse(row.reload) as DnsCheckStatus['reload'],
    notes: JSON.parse(row.notes) as string[],
  };
}

export interface StatusUpdate {
  ok: boolean | null;
  message: string;
  output: string;
  /** Set when the files were written (check passed or no checker). */
  applied: boolean;
  notes?: string[];
  reload?: DnsCheckStatus['reload'];
}

export async function writeStatus(db: Kysely<Database>, u: StatusUpdate): Promise<void> {
  await ensureSettingsRow(db);
  const now = new Date().toISOString();
  await db
    .updateTable('dns_settings')
    .set({
      check_ok: u.ok === null ? null : u.ok ? 1 : 0,
      checked_at: now,
      ...(u.applied ? { applied_at: now } : {}),
      check_message: u.message,
      check_output: u.output.slice(0, 20_000),
      ...(u.notes ? { notes: JSON.stringify(u.notes) } : {}),
      ...(u.reload ? { reload: JSON.stringify(u.reload) } : {}),
    })
    .where('id', '=', 1)
    .execute();
}

export async function writeReload(db: Kysely<Database>, reload: DnsCheckStatus['reload']): Promise<void> {
  await db
    .updateTable('dns_settings')
    .set({ reload: JSON.stringify(reload) })
    .where('id', '=', 1)
    .execute();
}
