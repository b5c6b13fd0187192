import { formatWebUptime } from './web-format.ts';

/** Uptime of the running release ('—' while not running). */
export const formatAppUptime = (seconds: number | null): string =>
  seconds === null ? '—' : formatWebUptime(seconds);

/** The last `n` non-empty lines of a status message (why an application is in error). */
export function lastLines(text: string, n: number): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .slice(-n);
}

/** Bytes as B, KB, MB or GB with one decimal (1024-based). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
