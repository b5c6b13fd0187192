import { Badge, type BadgeProps } from '@mantine/core';
import { statusTone, TONE_COLOR } from '../web-format.ts';

const WHOLE = { label: { overflow: 'visible' } } as const;
const LABELS: Record<string, string> = {
  active: 'Active',
  inactive: 'Inactive',
  deploying: 'Deploying',
  error: 'Error',
};

/** An application's status (spec 3 §9 colours: active green, inactive amber, error red, deploying info). */
export function AppStatusBadge({ status, ...rest }: { status: string } & Omit<BadgeProps, 'color'>) {
  return (
    <Badge color={TONE_COLOR[statusTone(status)]} variant="dot" styles={WHOLE} {...rest}>
      {LABELS[status] ?? status}
    </Badge>
  );
}
