import { errorRateTone, type WebStats } from '@mailroom/contract/web';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { TONE_COLOR, formatErrorRate, formatResponseTime, formatWebNumber } from '../web-format.ts';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} component="div">
        {children}
      </Text>
    </Group>
  );
}

/** Traffic Overview (spec 3 §2.1): requests, response time and error rate from Apache's access log. */
export function TrafficOverview({ stats }: { stats: WebStats }) {
  const rate = stats.errorRate;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      h="100%"
      component="section"
      aria-labelledby="web-traffic-title"
    >
      <Title order={2} size="h4" mb="xs" id="web-traffic-title">
        Traffic Overview
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        Last 24 hours, from Apache&apos;s access log
      </Text>
      <Stack gap="xs">
        <Row label="Total Requests">{formatWebNumber(stats.totalTraffic)}</Row>
        <Row label="Average Response Time">{formatResponseTime(stats.averageResponseTime)}</Row>
        <Row label="Error Rate">
          {rate === null ? (
            '—'
          ) : (
            <Badge
              color={TONE_COLOR[errorRateTone(rate)]}
              variant="dot"
              size="lg"
              data-tone={errorRateTone(rate)}
            >
              {formatErrorRate(rate)}
            </Badge>
          )}
        </Row>
      </Stack>
    </Card>
  );
}
