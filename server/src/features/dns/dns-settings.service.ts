import os from 'node:os';
import {
  DNS_SETTINGS_DEFAULTS,
  type DnsSettings,
  DnsSettingsFields,
  isHostName,
} from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** §9 defaults; the host names default to this machine's name. */
export function defaultDnsSettings(): DnsSettings {
  const name = os.hostname().toLowerCase();
  const host = isHostName(name) ? name : 'localhost';
  return { ...DNS_SETTINGS_DEFAULTS, serverHostname: host, primaryNameserver: host };
}

/** Creates the single settings row with the defaults when it does not exist yet. */
export async function ensureSettingsRow(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('dns_settings')
    .values({ id: 1, data: JSON.stringify(defaultDnsSettings()), version: 1 })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function loadSettings(
  db: Kysely<Database>,
): Promise<{ settings: DnsSettings; version: number }> {
  let row = await db
    .selectFrom('dns_settings')
    .select(['data', 'version'])
    .where('id', '=', 1)
    .executeTakeFirst();
  if (!row) {
    await ensureSettingsRow(db);
    row = await db
      .selectFrom('dns_settings')
      .select(['data', 'version'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
  }
  // Stored settings are merged over the defaults so a field added later still has a value.
  const merged = { ...defaultDnsSettings(), ...(JSON.parse(row.data) as Partial<DnsSettings>) };
  const parsed = DnsSettingsFields.safeParse(merged);
  return { settings: parsed.success ? parsed.data : defaultDnsSettings(), version: row.version };
}

export async function storeSettings(
  db: Kysely<Database>,
  settings: DnsSettings,
  version: number,
): Promise<void> {
  await db
    .updateTable('dns_settings')
    .set({ data: JSON.stringify(settings), version })
    .where('id', '=', 1)
    .execute();
}
