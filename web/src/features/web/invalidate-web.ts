import type { QueryClient } from '@tanstack/react-query';
import { applyKeys } from '../../components/apply-outcome-alert.tsx';
import { webKeys } from './web-keys.ts';

// Every change moves the dashboard (counts, Recent Activity from the audit log) and the apply outcome.
function refreshOverview(qc: QueryClient): Promise<unknown>[] {
  return [
    qc.invalidateQueries({ queryKey: webKeys.dashboard() }),
    qc.invalidateQueries({ queryKey: applyKeys.all() }),
  ];
}

export async function invalidateVhosts(qc: QueryClient): Promise<void> {
  await Promise.all([qc.invalidateQueries({ queryKey: webKeys.vhosts() }), ...refreshOverview(qc)]);
}

export async function invalidateWebSettings(qc: QueryClient): Promise<void> {
  await Promise.all([qc.invalidateQueries({ queryKey: webKeys.settings() }), ...refreshOverview(qc)]);
}

/** An application changed (saved, deleted, started, stopped, deployed): lists, releases, dashboard. */
export async function invalidateApps(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: webKeys.apps() }),
    // Its virtual host is made, reused or deleted with it.
    qc.invalidateQueries({ queryKey: webKeys.vhosts() }),
    ...refreshOverview(qc),
  ]);
}
