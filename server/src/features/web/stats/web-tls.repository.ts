import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

/** HTTPS requests of one minute with one protocol and cipher (SSL metrics). */
export interface TlsMinuteSum {
  minute: number;
  protocol: string;
  cipher: string;
  requests: number;
  handshakes: number;
  resumed: number;
}

/** Adds per-minute HTTPS sums; called inside the traffic minutes' transaction (addMinutes). */
export async function addTlsMinutes(trx: Db, sums: TlsMinuteSum[]): Promise<void> {
  for (const s of sums) {
    await trx
      .insertInto('web_tls_minutes')
      .values({
        minute: s.minute,
        protocol: s.protocol,
        cipher: s.cipher,
        requests: s.requests,
        handshakes: s.handshakes,
        resumed: s.resumed,
      })
      .onConflict((oc) =>
        oc.columns(['minute', 'protocol', 'cipher']).doUpdateSet({
          requests: sql`web_tls_minutes.requests + ${s.requests}`,
          handshakes: sql`web_tls_minutes.handshakes + ${s.handshakes}`,
          resumed: sql`web_tls_minutes.resumed + ${s.resumed}`,
        }),
      )
      .execute();
  }
}

/** HTTPS sums per (protocol, cipher) from `fromMinute` on, most requests first. */
export async function tlsSince(
  db: Db,
  fromMinute: number,
): Promise<{ protocol: string; cipher: string; requests: number; handshakes: number; resumed: number }[]> {
  const rows = await db
    .selectFrom('web_tls_minutes')
    .select([
      'protocol',
      'cipher',
      sql<number>`sum(requests)`.as('requests'),
      sql<number>`sum(handshakes)`.as('handshakes'),
      sql<number>`sum(resumed)`.as('resumed'),
    ])
    .where('minute', '>=', fromMinute)
    .groupBy(['protocol', 'cipher'])
    .execute();
  return rows
    .map((r) => ({
      protocol: r.protocol,
      cipher: r.cipher,
      requests: Number(r.requests),
      handshakes: Number(r.handshakes),
      resumed: Number(r.resumed),
    }))
    .sort(
      (a, b) =>
        b.requests - a.requests || a.protocol.localeCompare(b.protocol) || a.cipher.localeCompare(b.cipher),
    );
}

/** Pruned with the traffic minutes (a week is kept). */
export async function dropTlsMinutesBefore(db: Db, minute: number): Promise<void> {
  await db.deleteFrom('web_tls_minutes').where('minute', '<', minute).execute();
}
