import type { QueryClient } from '@tanstack/react-query';
import { mailKeys } from './mail-keys.ts';

// Every change shows up in the counters and in 'Recent Activity' (the audit log) as well.
function refreshOverview(qc: QueryClient): Promise<unknown>[] {
  return [
    qc.invalidateQueries({ queryKey: mailKeys.dashboard() }),
    qc.invalidateQueries({ queryKey: mailKeys.activity() }),
  ];
}

// A mailbox or alias change moves the domains' counts (and may add or remove a domain).
export async function invalidateMailboxes(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: mailKeys.mailboxes() }),
    qc.invalidateQueries({ queryKey: mailKeys.domains() }),
    ...refreshOverview(qc),
  ]);
}

export async function invalidateAliases(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: mailKeys.aliases() }),
    qc.invalidateQueries({ queryKey: mailKeys.domains() }),
    ...refreshOverview(qc),
  ]);
}

export async function invalidateDomains(qc: QueryClient): Promise<void> {
  await Promise.all([qc.invalidateQueries({ queryKey: mailKeys.domains() }), ...refreshOverview(qc)]);
}

export async function invalidateSettings(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: mailKeys.settings() }),
    qc.invalidateQueries({ queryKey: mailKeys.dkim() }),
    ...refreshOverview(qc),
  ]);
}
