const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** Spec §9: base 1024 with 2 decimals ('1.50 GB'); whole bytes below 1 KB ('512 B'). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const sign = n < 0 ? '-' : '';
  let v = Math.abs(n);
  if (v < 1024) return `${sign}${Math.round(v)} B`;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${sign}${v.toFixed(2)} ${UNITS[i]}`;
}

/** Spec §9: uptime as days, hours and minutes ('3d 4h 5m'). */
export function formatUptime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d}d ${h}h ${m}m`;
}

/** Spec §9: 'Just now', 'Nm ago', 'Nh ago', 'Nd ago' under 7 days, otherwise the date. */
export function formatRelativeTime(date: Date | string | number, now: Date = new Date()): string {
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  const diff = Math.max(0, now.getTime() - d.getTime());
  const minutes = Math.floor(diff / 60_000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return d.toLocaleDateString();
}

/** 950 → '950', 1500 → '1.5K', 2000000 → '2M'. */
export function formatCompactNumber(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const abs = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  const short = (v: number, unit: string) => `${sign}${v.toFixed(1).replace(/\.0$/, '')}${unit}`;
  if (abs >= 1_000_000_000) return short(abs / 1_000_000_000, 'B');
  if (abs >= 1_000_000) return short(abs / 1_000_000, 'M');
  if (abs >= 1_000) {
    // 999 950 would round to '1000.0K'; show it as '1M'.
    const k = abs / 1_000;
    return k >= 999.95 ? short(abs / 1_000_000, 'M') : short(k, 'K');
  }
  return `${sign}${Math.round(abs)}`;
}

/** A percentage of used over total, rounded; 0 when the total is unknown. */
export function percentOf(used: number, total: number): number {
  if (!Number.isFinite(used) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.round((used / total) * 100);
}
