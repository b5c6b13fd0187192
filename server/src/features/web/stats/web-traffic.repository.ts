import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { addTlsMinutes, dropTlsMinutesBefore, type TlsMinuteSum } from './web-tls.repository.ts';

type Db = Kysely<Database>;

export interface MinuteSum {
  vhost: string;
  minute: number;
  requests: number;
  errors: number;
  bytes: number;
  durationUs: number;
}

export async function readLogPosition(db: Db): Promise<{ inode: string; offset: number }> {
  const row = await db.selectFrom('web_log_position').selectAll().where('id', '=', 1).executeTakeFirst();
  return row ? { inode: row.inode, offset: Number(row.byte_offset) } : { inode: '', offset: 0 };
}

/**
 * Adds a batch of per-minute sums (and the SSL metrics' per-minute HTTPS sums) and moves the read
 * position, in one transaction.
 */
export async function addMinutes(
  db: Db,
  sums: MinuteSum[],
  pos: { inode: string; offset: number },
  expect: { inode: string; offset: number },
  tls: TlsMinuteSum[] = [],
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Another instance read these lines already: nothing to add.
    const now = await readLogPosition(trx);
    if (now.inode !== expect.inode || now.offset !== expect.offset) return false;
    for (const s of sums) {
      await trx
        .insertInto('web_traffic_minutes')
        .values({
          vhost: s.vhost,
          minute: s.minute,
          requests: s.requests,
          errors: s.errors,
          bytes: s.bytes,
          duration_us: s.durationUs,
        })
        .onConflict((oc) =>
          oc.columns(['vhost', 'minute']).doUpdateSet({
            requests: sql`web_traffic_minutes.requests + ${s.requests}`,
            errors: sql`web_traffic_minutes.errors + ${s.errors}`,
            bytes: sql`web_traffic_minutes.bytes + ${s.bytes}`,
            duration_us: sql`web_traffic_minutes.duration_us + ${s.durationUs}`,
          }),
        )
        .execute();
    }
    await addTlsMinutes(trx, tls);
    const at = new Date().toISOString();
    await trx
      .insertInto('web_log_position')
      .values({ id: 1, inode: pos.inode, byte_offset: pos.offset, updated_at: at })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ inode: pos.inode, byte_offset: pos.offset, updated_at: at }),
      )
      .execute();
    return true;
  });
}

export interface Figures {
  requests: number;
  errors: number;
  durationUs: number;
}

/** Sums since `fromMinute`, per host (and the total under ''). */
export async function figuresSince(db: Db, fromMinute: number): Promise<Map<string, Figures>> {
  const rows = await db
    .selectFrom('web_traffic_minutes')
    .select([
      'vhost',
      sql<number>`sum(requests)`.as('requests'),
      sql<number>`sum(errors)`.as('errors'),
      sql<number>`sum(duration_us)`.as('duration_us'),
    ])
    .where('minute', '>=', fromMinute)
    .groupBy('vhost')
    .execute();
  const out = new Map<string, Figures>();
  const total = { requests: 0, errors: 0, durationUs: 0 };
  for (const r of rows) {
    const f = { requests: Number(r.requests), errors: Number(r.errors), durationUs: Number(r.duration_us) };
    out.set(r.vhost, f);
    total.requests += f.requests;
    total.errors += f.errors;
    total.durationUs += f.durationUs;
  }
  out.set('', total);
  return out;
}

/** Minutes older than this go (the figures cover a day; a week is kept). */
export async function dropMinutesBefore(db: Db, minute: number): Promise<void> {
  await db.deleteFrom('web_traffic_minutes').where('minute', '<', minute).execute();
  await dropTlsMinutesBefore(db, minute);
}
