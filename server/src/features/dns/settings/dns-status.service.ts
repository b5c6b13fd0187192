import type { DnsCheckStatus, DnsSettings } from '@mailroom/contract/dns';
import { publicHostWarning } from '@mailroom/contract/validators';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { statusRow, updateStatusRow } from './dns-settings.repository.ts';
import { ensureSettingsRow, loadSettings } from './dns-settings.service.ts';

const NEVER: DnsCheckStatus = {
  ok: null,
  checkedAt: null,
  appliedAt: null,
  message: 'The DNS configuration has not been rendered yet.',
  output: '',
  reload: { attempted: false, ok: null, output: '' },
  notes: [],
  warnings: [],
};

/** The name servers (NS targets) and the server's own name that are not public host names. */
export function nameServerWarnings(s: DnsSettings): string[] {
  const out: string[] = [];
  const named: [string, string][] = [
    ['Primary name server (NS target)', s.primaryNameserver],
    ['Secondary name server (NS target)', s.secondaryNameserver],
    ['Tertiary name server (NS target)', s.tertiaryNameserver],
    ['Server host name', s.serverHostname],
  ];
  for (const [role, host] of named) {
    if (!host.trim()) continue;
    const w = publicHostWarning(role, host);
    if (w) out.push(w);
  }
  return out;
}

export async function readStatus(db: Kysely<Database>): Promise<DnsCheckStatus> {
  const row = await statusRow(db);
  const warnings = nameServerWarnings((await loadSettings(db)).settings);
  if (!row || row.checked_at === null) return { ...NEVER, warnings };
  return {
    warnings,
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
  await updateStatusRow(db, {
    check_ok: u.ok === null ? null : u.ok ? 1 : 0,
    checked_at: now,
    ...(u.applied ? { applied_at: now } : {}),
    check_message: u.message,
    check_output: u.output.slice(0, 20_000),
    ...(u.notes ? { notes: JSON.stringify(u.notes) } : {}),
    ...(u.reload ? { reload: JSON.stringify(u.reload) } : {}),
  });
}

export async function writeReload(db: Kysely<Database>, reload: DnsCheckStatus['reload']): Promise<void> {
  await updateStatusRow(db, { reload: JSON.stringify(reload) });
}
