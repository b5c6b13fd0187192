import { Text } from '@mantine/core';

/** §4: 0 or less red and bold; 30 or less warning and bold; otherwise success. */
export function DaysLeft({ days }: { days: number }) {
  const color = days <= 0 ? 'red.8' : days <= 30 ? 'orange.9' : 'green.9';
  return (
    <Text span size="sm" c={color} fw={days <= 30 ? 700 : 400}>
      {days}
    </Text>
  );
}
