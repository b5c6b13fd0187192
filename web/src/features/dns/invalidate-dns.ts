import type { QueryClient } from '@tanstack/react-query';
import { dnsKeys } from './dns-keys.ts';

// Every change moves the dashboard counters, the activity list and the last check's status.
function refreshOverview(qc: QueryClient): Promise<unknown>[] {
  return [
    qc.invalidateQueries({ queryKey: dnsKeys.dashboard() }),
    qc.invalidateQueries({ queryKey: dnsKeys.activity() }),
    qc.invalidateQueries({ queryKey: dnsKeys.status() }),
  ];
}

/** A zone changed: its list, its record counts and the records it may have taken with it. */
export async function invalidateZones(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: dnsKeys.zones() }),
    qc.invalidateQueries({ queryKey: dnsKeys.records() }),
    qc.invalidateQueries({ queryKey: dnsKeys.systemRecords() }),
    ...refreshOverview(qc),
  ]);
}

/** A record changed: the records, and the zones (record counts, serials, zone files). */
export async function invalidateRecords(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.invalidateQueries({ queryKey: dnsKeys.records() }),
    qc.invalidateQueries({ queryKey: dnsKeys.zones() }),
    ...refreshOverview(qc),
  ]);
}

/**
 * Settings saved: the caller puts the answer in the cache itself, so only the overview reloads
 * (a refetch here could bring in another administrator's later version over the saved form).
 */
export async function invalidateAfterSettingsSave(qc: QueryClient): Promise<void> {
  await Promise.all(refreshOverview(qc));
}
