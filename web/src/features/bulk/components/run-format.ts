/** "—" until the throughput is measured; then minutes and seconds left. */
export function formatEta(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  return formatEta(ms);
}

export const RUN_TONES: Record<string, string> = {
  planned: 'pending',
  running: 'running',
  completed: 'success',
  failed: 'failed',
  cancelled: 'warning',
  discarded: 'info',
};
