import { Badge } from '@mantine/core';

const TONES: Record<string, string> = {
  // Spec §4 tones: security = error, important = warning, optional = info; alerts the same way.
  security: 'red',
  important: 'yellow',
  optional: 'blue',
  critical: 'red',
  warning: 'yellow',
  info: 'blue',
  active: 'yellow',
  completed: 'green',
  failed: 'red',
  expired: 'blue',
};

/** A word with its spec tone in the dot (the text keeps the body colour for contrast). */
export function ToneBadge({ value, label }: { value: string; label?: string }) {
  return (
    <Badge variant="dot" color={TONES[value] ?? 'gray'} style={{ minWidth: 'max-content' }}>
      {label ?? value}
    </Badge>
  );
}
