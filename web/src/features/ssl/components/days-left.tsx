import { Text, useComputedColorScheme } from '@mantine/core';

/** §4: 0 or less red and bold; 30 or less warning and bold; otherwise success (AA contrast both schemes). */
export function DaysLeft({ days }: { days: number }) {
  const dark = useComputedColorScheme('light') === 'dark';
  const color =
    days <= 0
      ? dark
        ? 'red.4'
        : 'red.9'
      : days <= 30
        ? dark
          ? 'orange.4'
          : '#a33c05'
        : dark
          ? 'green.4'
          : '#1e6b32';
  return (
    <Text span size="sm" c={color} fw={days <= 30 ? 700 : 400}>
      {days}
    </Text>
  );
}
