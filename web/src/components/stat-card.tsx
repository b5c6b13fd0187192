import { Card, Group, Text, ThemeIcon, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

export interface StatCardProps {
  title: string;
  value: ReactNode;
  caption?: ReactNode;
  icon?: ReactNode;
  color?: MantineColor;
}

/** A dashboard counter: title, big value, small caption, optional icon. */
export function StatCard({ title, value, caption, icon, color = 'blue' }: StatCardProps) {
  return (
    <Card withBorder padding="md" radius="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {title}
          </Text>
          <Text fz={28} fw={700} lh={1.2} mt={4}>
            {value}
          </Text>
          {caption && (
            <Text size="sm" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {caption}
            </Text>
          )}
        </div>
        {icon && (
          <ThemeIcon color={color} variant="light" size={44} radius="md" aria-hidden>
            {icon}
          </ThemeIcon>
        )}
      </Group>
    </Card>
  );
}
