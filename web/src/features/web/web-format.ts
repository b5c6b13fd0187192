/**
 * The web area's number formats and colour rules (spec 3 §9), kept exactly: counts of 1,000 or
 * more as K with one decimal, 1,000,000 or more as M; uptime as 'Nd Nh', 'Nh Nm' or 'Nm'; the error
 * rate green up to 1 %, amber up to 5 %, red above.
 */

/** 950 → '950', 1500 → '1.5K', 1000 → '1.0K', 2500000 → '2.5M'. */
export function formatWebNumber(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) {
    // 999,950 would read '1000.0K': that is a million.
    const k = n / 1_000;
    return k.toFixed(1) === '1000.0' ? `${(n / 1_000_000).toFixed(1)}M` : `${k.toFixed(1)}K`;
  }
  return String(Math.round(n));
}

/** 90061 s → '1d 1h'; 3720 s → '1h 2m'; 120 s → '2m'. */
export function formatWebUptime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return `${m}m`;
}

export type Tone = 'success' | 'warning' | 'error' | 'info';

/** Mantine colours of the spec's tones: success green, warning amber, error red, info blue. */
export const TONE_COLOR: Record<Tone, string> = {
  success: 'green',
  warning: 'yellow',
  error: 'red',
  info: 'blue',
};

/** '0.42%': the error rate with two decimals. */
export function formatErrorRate(percent: number): string {
  return `${(Number.isFinite(percent) ? percent : 0).toFixed(2)}%`;
}

/** In the virtual host list: active green, inactive amber, maintenance info, anything else error. */
export function vhostStatusTone(status: string): Tone {
  switch (status) {
    case 'active':
      return 'success';
    case 'inactive':
      return 'warning';
    case 'maintenance':
      return 'info';
    default:
      return 'error';
  }
}

/** Elsewhere (status badges): active/success green; inactive/warning amber; error/failed red; other info. */
export function statusTone(status: string): Tone {
  switch (status) {
    case 'active':
    case 'success':
    case 'running':
      return 'success';
    case 'inactive':
    case 'warning':
      return 'warning';
    case 'error':
    case 'failed':
      return 'error';
    default:
      return 'info';
  }
}

/** Response time in ms: '12 ms' (rounded); '—' when there were no requests to time. */
export function formatResponseTime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** An ISO time as the browser's local date and time ('' when unreadable). */
export function formatLastModified(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}
