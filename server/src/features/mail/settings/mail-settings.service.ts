import os from 'node:os';
import type { ConfigCheck, MailFilterStatus, MailSettingsResponse } from '@mailroom/contract/mail';
import { defaultMailSettings, MailSettings, mailMessages } from '@mailroom/contract/mail';
import { DOMAIN_RE, publicHostWarning } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../http/errors.ts';
import { ERROR_CODES } from '@mailroom/contract/errors';
import {
  replaceFirstVersion,
  saveSettingsVersion,
  settingsRow,
  storeApplyOutcome,
} from './mail-settings.repository.ts';

type Db = Kysely<Database>;

/** §9 defaults, with hostname and domain taken from this machine's name. */
export function machineDefaults(name = os.hostname()): MailSettings {
  let fqdn = name.trim().toLowerCase();
  if (!fqdn.includes('.')) fqdn += '.localdomain';
  if (!DOMAIN_RE.test(fqdn)) fqdn = 'mail.example.com';
  const rest = fqdn.slice(fqdn.indexOf('.') + 1);
  return defaultMailSettings(fqdn, rest.includes('.') ? rest : fqdn);
}

export interface StoredSettings {
  settings: MailSettings;
  version: number;
  appliedAt: string | null;
  check: ConfigCheck | null;
  /**
   * Set when the stored row no longer parses: `settings` are then the defaults for display only,
   * nothing is rendered from them, and the check says why until a save replaces the row.
   */
  problem: string | null;
}

export const corruptSettingsMessage = (why: string) =>
  `The stored mail settings no longer parse (${why}); nothing is rendered from them. Review the settings and save them to replace the stored row.`;

function parseStored(text: string): { settings: MailSettings; problem: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { settings: machineDefaults(), problem: corruptSettingsMessage((err as Error).message) };
  }
  const parsed = MailSettings.safeParse(raw);
  if (parsed.success) return { settings: parsed.data, problem: null };
  const first = parsed.error.issues[0];
  const why = first ? `${first.path.join('.') || 'settings'}: ${first.message}` : 'invalid';
  return { settings: machineDefaults(), problem: corruptSettingsMessage(why) };
}

/** The saved settings; a fresh install gets the defaults as version 1. */
export async function readMailSettings(db: Db): Promise<StoredSettings> {
  const row = await settingsRow(db, () => JSON.stringify(machineDefaults()));
  const { settings, problem } = parseStored(row.settings);
  return {
    settings,
    version: Number(row.version),
    appliedAt: row.applied_at,
    check: problem
      ? { ok: false, output: problem }
      : row.check_ok === null
        ? null
        : { ok: Number(row.check_ok) === 1, output: row.check_output ?? '' },
    problem,
  };
}

/** The saved settings for rendering: a row that no longer parses is an error, never the defaults. */
export async function settingsToRender(db: Db): Promise<MailSettings> {
  const s = await readMailSettings(db);
  if (s.problem) throw new AppError(409, ERROR_CODES.CONFLICT, s.problem, { output: s.problem });
  return s.settings;
}

export function settingsResponse(s: StoredSettings, filter: MailFilterStatus): MailSettingsResponse {
  const { problem: _problem, ...rest } = s;
  // Virus scanning is on by default only where ClamAV can scan (issue 22 item 15).
  return {
    ...rest,
    defaults: { ...machineDefaults(), enableVirusScan: filter.virusScan.available },
    filter,
    hostWarnings: mailHostWarnings(s.settings),
  };
}

/** MX hosts and the mail host (the autoconfig/autodiscover target) that are not public FQDNs. */
export function mailHostWarnings(s: MailSettings): string[] {
  const out = new Set<string>();
  for (const mx of s.mxRecords) {
    const w = publicHostWarning('MX target', mx.host);
    if (w) out.add(w);
  }
  const w = publicHostWarning('Mail host name (autoconfig and autodiscover target)', s.hostname);
  if (w) out.add(w);
  return [...out];
}

/**
 * At start: while the settings are still the untouched defaults (version 1, never saved), virus
 * scanning is on only when ClamAV is there to scan. A saved choice is never changed.
 */
export async function alignVirusScanDefault(db: Db, clamAvAvailable: boolean): Promise<void> {
  const s = await readMailSettings(db);
  if (s.problem || s.version !== 1 || s.settings.enableVirusScan === clamAvAvailable) return;
  await replaceFirstVersion(db, JSON.stringify({ ...s.settings, enableVirusScan: clamAvAvailable }));
}

/** Writes new settings when `version` is still current; false when someone saved in between. */
export async function writeMailSettings(db: Db, settings: MailSettings, version: number): Promise<boolean> {
  return saveSettingsVersion(db, JSON.stringify(settings), version);
}

/** Records the outcome of rendering and checking the mail server's files. */
export async function recordApply(db: Db, check: ConfigCheck | null, applied: boolean): Promise<void> {
  await storeApplyOutcome(db, {
    ...(applied ? { appliedAt: new Date().toISOString() } : {}),
    checkOk: check === null ? null : check.ok ? 1 : 0,
    checkOutput: check?.output.slice(0, 20_000) ?? null,
  });
}

export const staleMessage = mailMessages.staleSettings;
