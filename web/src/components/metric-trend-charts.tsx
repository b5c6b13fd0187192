import type { MetricsAnswer } from '@mailroom/contract/system-metrics';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Card, SimpleGrid, Text } from '@mantine/core';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The last 30 minutes of CPU and memory, one bar per minute (spec §9). */
export function TrendCharts({ data }: { data: MetricsAnswer }) {
  const chart = (key: 'cpu' | 'memory', label: string, color: string) => {
    const points = data.series[key].slice(-30).map((p) => ({ minute: time(p.timestamp), [label]: p.value }));
    return (
      <Card withBorder radius="md" padding="md" component="figure" m={0} data-testid={`chart-${key}`}>
        <Text fw={600} mb="sm" component="figcaption">
          {label} (last 30 minutes)
        </Text>
        <BarChart
          h={200}
          data={points}
          dataKey="minute"
          series={[{ name: label, color }]}
          yAxisProps={{ domain: [0, 100] }}
          unit="%"
          tickLine="y"
          barProps={{ isAnimationActive: false }}
        />
      </Card>
    );
  };
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {chart('cpu', 'CPU', 'blue.6')}
      {chart('memory', 'Memory', 'teal.6')}
    </SimpleGrid>
  );
}
