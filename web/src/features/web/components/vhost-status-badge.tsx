import { Badge, type BadgeProps } from '@mantine/core';
import { TONE_COLOR, vhostStatusTone } from '../web-format.ts';

// A badge's label may shrink to an ellipsis (its overflow is hidden): in a narrow table column it
// read 'ACT…'. Visible overflow keeps the whole word as the column's minimum.
const WHOLE = { label: { overflow: 'visible' } } as const;

const LABELS: Record<string, string> = { active: 'Active', inactive: 'Inactive', maintenance: 'Maintenance' };

/** A virtual host's status, coloured as the list's rule says (maintenance info, unknown error). */
export function VhostStatusBadge({ status, ...rest }: { status: string } & Omit<BadgeProps, 'color'>) {
  return (
    <Badge color={TONE_COLOR[vhostStatusTone(status)]} variant="dot" styles={WHOLE} {...rest}>
      {LABELS[status] ?? status}
    </Badge>
  );
}

/** SSL Enabled / Disabled. */
export function SslBadge({ enabled }: { enabled: boolean }) {
  return (
    <Badge color={enabled ? 'green' : 'gray'} variant="light" size="sm" styles={WHOLE}>
      {enabled ? 'Enabled' : 'Disabled'}
    </Badge>
  );
}
