import { Group, Progress, Text } from '@mantine/core';
import { usageColor } from '../mail-units.ts';
import classes from './usage-bar.module.css';

/** §9 usage: a bar and the rounded percent, red above 80 %; nothing to measure when unlimited. */
export function UsageBar({ percent, label }: { percent: number | null; label: string }) {
  if (percent === null) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const color = usageColor(percent);
  return (
    <Group gap="xs" wrap="nowrap" miw={140}>
      <Progress
        value={Math.min(percent, 100)}
        color={color}
        size="md"
        style={{ flex: 1 }}
        aria-label={`${label} usage`}
      />
      <Text size="sm" className={color === 'red' ? classes.high : undefined} w={44} ta="right">
        {percent}%
      </Text>
    </Group>
  );
}
