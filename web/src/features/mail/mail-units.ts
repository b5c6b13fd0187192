import { bytesToMb, mbToBytes, USAGE_WARNING_PERCENT } from '@mailroom/contract/mail';

/** The quota field of the mailbox forms: MB, '' = unlimited. */
export type QuotaField = number | string;

/** Form value (MB, empty = unlimited) → API bytes (0 = unlimited). */
export function quotaFieldToBytes(value: QuotaField): number {
  if (value === '' || value === null || value === undefined) return 0;
  const mb = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(mb) || mb <= 0) return 0;
  return mbToBytes(mb);
}

/** API bytes → form value in MB (two decimals at most); unlimited shows as an empty field. */
export function bytesToQuotaField(bytes: number): QuotaField {
  if (!bytes) return '';
  return Math.round(bytesToMb(bytes) * 100) / 100;
}

/** §9: used ÷ quota, as a rounded percent; null when the mailbox is unlimited. */
export function usagePercent(used: number, quota: number): number | null {
  if (!quota || quota <= 0) return null;
  return Math.round((used / quota) * 100);
}

/** §9: the usage bar turns red above 80 %. */
export function usageColor(percent: number): 'red' | 'blue' {
  return percent > USAGE_WARNING_PERCENT ? 'red' : 'blue';
}
