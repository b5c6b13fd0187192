import os from 'node:os';
import {
  DNS_SETTINGS_DEFAULTS,
  type DnsSettings,
  DnsSettingsFields,
  isFullyQualified,
  isHostName,
} from '@mailroom/contract/dns';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { mailHostName } from '../../mail/mail.public.ts';
import {
  insertSettingsRow,
  settingsData,
  settingsRowExists,
  storeSettingsData,
} from './dns-settings.repository.ts';

/** §9 defaults; the host names default to this machine's name. */
export function defaultDnsSettings(): DnsSettings {
  const name = os.hostname().toLowerCase();
  const host = isHostName(name) ? name : 'localhost';
  return { ...DNS_SETTINGS_DEFAULTS, serverHostname: host, primaryNameserver: host };
}

/**
 * The name the server's NS records default to: the mail settings' host name when it is fully
 * qualified (what the administrator already named this server), else this machine's name when it
 * is, else the machine's name in `.localdomain` (like the mail defaults; the zone form warns
 * about it). Never a single label: `NS vm.` is a name nobody can delegate to.
 */
export async function nameServerDefault(db: Kysely<Database>, machine = os.hostname()): Promise<string> {
  // Unreadable or missing mail settings: fall back to the machine's name.
  const hostname = await mailHostName(db);
  if (hostname !== undefined && isFullyQualified(hostname)) return hostname.toLowerCase();
  const name = machine.trim().toLowerCase();
  if (isFullyQualified(name)) return name;
  const local = `${isHostName(name) ? name : 'localhost'}.localdomain`;
  return isFullyQualified(local) ? local : 'localhost.localdomain';
}

/** Creates the single settings row with the defaults when it does not exist yet. */
export async function ensureSettingsRow(db: Kysely<Database>): Promise<void> {
  if (await settingsRowExists(db)) return;
  const host = await nameServerDefault(db);
  await insertSettingsRow(
    db,
    JSON.stringify({ ...defaultDnsSettings(), serverHostname: host, primaryNameserver: host }),
  );
}

export async function loadSettings(
  db: Kysely<Database>,
): Promise<{ settings: DnsSettings; version: number }> {
  let row = await settingsData(db);
  if (!row) {
    await ensureSettingsRow(db);
    row = await settingsData(db);
    if (!row) throw new Error('The DNS settings row could not be created');
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
  await storeSettingsData(db, JSON.stringify(settings), version);
}
