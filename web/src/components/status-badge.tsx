import { Badge, type BadgeProps } from '@mantine/core';

const GREEN = new Set(['active', 'valid', 'online', 'running', 'enabled', 'success', 'healthy', 'ok']);
const YELLOW = new Set(['pending', 'expiring', 'warning', 'degraded', 'maintenance', 'deploying']);
const RED = new Set(['error', 'expired', 'offline', 'disabled', 'suspended', 'failed', 'failure', 'stopped']);

export function statusColor(status: string): 'green' | 'yellow' | 'red' | 'blue' {
  const s = status.trim().toLowerCase();
  if (GREEN.has(s)) return 'green';
  if (YELLOW.has(s)) return 'yellow';
  if (RED.has(s)) return 'red';
  return 'blue';
}

export interface StatusBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  status: string;
  label?: string;
}

/**
 * A status word coloured by meaning: green good, yellow attention, red bad, blue anything else.
 * The colour is in the dot; the word keeps the body text colour so it stays readable (WCAG AA).
 */
export function StatusBadge({ status, label, style, ...rest }: StatusBadgeProps) {
  return (
    // Never narrower than its word: a squeezed table column cut "Enabled" to "EN…" (issue 22).
    <Badge
      color={statusColor(status)}
      variant="dot"
      style={[{ minWidth: 'max-content', flexShrink: 0 }, style]}
      {...rest}
    >
      {label ?? status}
    </Badge>
  );
}
