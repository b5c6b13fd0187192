import {
  STATS_WINDOW_LABELS,
  STATS_WINDOWS,
  type ApiStats,
  type StatsWindow,
} from '@mailroom/contract/api-monitoring';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Badge, Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBolt,
  IconClock,
  IconDatabase,
  IconRefresh,
  IconSum,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { formatCompactNumber } from '../../lib/format.ts';
import { apiMonitoringKeys } from './api/api-monitoring-keys.ts';
import { ApiKeysPanel } from './api/api-keys-panel.tsx';
import { RecentTable, RoutesTable } from './api/api-tables.tsx';
import { CachePanel } from './api/cache-panel.tsx';
import {
  cacheLevel,
  errorRateLevel,
  formatMs,
  formatPercent,
  LEVEL_COLOR,
  type Level,
  responseTimeLevel,
} from './api/health.ts';
import { RateLimitPanel } from './api/rate-limit-panel.tsx';
import { useApiStats } from './api/use-api-stats.ts';
import { useCacheState } from './api/use-cache-state.ts';
import { useRateLimit } from './api/use-rate-limit.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'API Monitoring' }];
const LEVEL_WORD: Record<Level, string> = {
  success: 'Healthy',
  warning: 'Warning',
  error: 'Critical',
  none: 'No data',
};

function Statistics({ s }: { s: ApiStats }) {
  const errLevel = errorRateLevel(s.errorRate);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 5 }} data-testid="api-statistics">
      <StatCard
        title="Total Requests"
        value={<span data-testid="stat-total">{formatCompactNumber(s.requestCount)}</span>}
        caption={STATS_WINDOW_LABELS[s.window]}
        icon={<IconSum size={22} />}
      />
      <StatCard
        title="Errors"
        value={<span data-testid="stat-errors">{formatCompactNumber(s.errorCount)}</span>}
        caption={
          <span data-testid="stat-client-errors">
            {formatCompactNumber(s.clientErrorCount)} client errors (4xx), {s.rateLimitedCount} rate limited
          </span>
        }
        icon={<IconAlertTriangle size={22} />}
        color="red"
      />
      <StatCard
        title="Avg Response Time"
        value={<span data-testid="stat-avg">{formatMs(s.averageResponseTime)}</span>}
        caption={`p50 ${formatMs(s.p50)} · p95 ${formatMs(s.p95)} · p99 ${formatMs(s.p99)}`}
        icon={<IconClock size={22} />}
        color="teal"
      />
      <StatCard
        title="Error Rate"
        value={
          <Text
            span
            inherit
            c={errLevel === 'none' ? undefined : `${LEVEL_COLOR[errLevel]}.8`}
            data-testid="stat-error-rate"
          >
            {formatPercent(s.errorRate)}
          </Text>
        }
        caption={`Client errors ${formatPercent(s.clientErrorRate)}`}
        icon={<IconBolt size={22} />}
        color={LEVEL_COLOR[errLevel]}
      />
      <StatCard
        title="Cache Hit Rate"
        value={<span data-testid="stat-cache-hit-rate">{formatPercent(s.cacheHitRate)}</span>}
        caption={s.cacheHitRate === null ? 'Nothing cacheable was asked' : 'Of the cacheable list reads'}
        icon={<IconDatabase size={22} />}
        color="grape"
      />
    </SimpleGrid>
  );
}

/** Spec §9: the response time trend shows the last 30 requests (oldest on the left). */
function ResponseTimeTrend({ s }: { s: ApiStats }) {
  const points = [...s.recent].reverse().map((r, i) => ({
    request: `${i + 1}`,
    'Response time': r.responseTime,
  }));
  return (
    <Card withBorder radius="md" padding="md" component="figure" m={0} data-testid="response-time-trend">
      <Text fw={600} mb="sm" component="figcaption">
        Response Time Trend (last 30 requests)
      </Text>
      {points.length ? (
        <BarChart
          h={200}
          data={points}
          dataKey="request"
          series={[{ name: 'Response time', color: 'blue.6' }]}
          unit=" ms"
          tickLine="y"
          barProps={{ isAnimationActive: false }}
        />
      ) : (
        <Text c="dimmed" size="sm">
          No requests yet
        </Text>
      )}
    </Card>
  );
}

function HealthRow({
  name,
  level,
  value,
  rule,
}: {
  name: string;
  level: Level;
  value: string;
  rule: string;
}) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" py={6}>
      <div>
        <Text size="sm" fw={600}>
          {name}
        </Text>
        <Text size="xs" c="dimmed">
          {rule}
        </Text>
      </div>
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" ff="monospace">
          {value}
        </Text>
        <Badge
          variant="dot"
          color={LEVEL_COLOR[level]}
          data-testid={`health-${name.toLowerCase().replace(/\s+/g, '-')}`}
        >
          {LEVEL_WORD[level]}
        </Badge>
      </Group>
    </Group>
  );
}

function HealthStatus({ s }: { s: ApiStats }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="health-title">
      <Title order={2} size="h4" id="health-title" mb="sm">
        API Health Status
      </Title>
      <Stack gap={0}>
        <HealthRow
          name="Response Time"
          level={responseTimeLevel(s.p95)}
          value={`p95 ${formatMs(s.p95)}`}
          rule="Healthy up to 300 ms, warning up to 1 s"
        />
        <HealthRow
          name="Error Rate"
          level={errorRateLevel(s.errorRate)}
          value={formatPercent(s.errorRate)}
          rule="Healthy up to 1 %, warning up to 5 %"
        />
        <HealthRow
          name="Cache Performance"
          level={cacheLevel(s.cacheHitRate)}
          value={formatPercent(s.cacheHitRate)}
          rule="Healthy from 50 % hits, warning from 20 %"
        />
      </Stack>
    </Card>
  );
}

/** Spec §2.13, from the server's real traffic (every worker and instance; this page's own calls left out). */
export default function ApiMonitoringPage() {
  const [window, setWindow] = useState<StatsWindow>('1h');
  const stats = useApiStats(window);
  const rate = useRateLimit();
  const cache = useCacheState();
  const qc = useQueryClient();
  const refreshing = stats.isFetching || rate.isFetching || cache.isFetching;

  return (
    <>
      <PageHeader
        title="API Monitoring"
        breadcrumbs={BREADCRUMBS}
        subtitle="Requests to the API of every server process; this page's own refreshes, the events stream and /metrics are left out."
        actions={
          <>
            <SegmentedControl
              aria-label="Period"
              value={window}
              onChange={(v) => setWindow(v as StatsWindow)}
              data={STATS_WINDOWS.map((w) => ({
                value: w,
                label: w === '5m' ? '5 min' : w === '1h' ? '1 h' : '24 h',
              }))}
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={refreshing}
              onClick={() => void qc.invalidateQueries({ queryKey: apiMonitoringKeys.all })}
            >
              Refresh
            </Button>
          </>
        }
      />
      <Stack gap="lg">
        <section aria-labelledby="api-stats-title">
          <Title order={2} size="h4" id="api-stats-title" mb="sm">
            API Statistics
          </Title>
          <LoadState
            loading={stats.isPending}
            error={stats.error ? errorMessage(stats.error) : null}
            errorTitle="Failed to load API statistics"
            onRetry={() => void stats.refetch()}
          >
            {stats.data && <Statistics s={stats.data} />}
          </LoadState>
        </section>
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <LoadState
            loading={rate.isPending}
            error={rate.error ? errorMessage(rate.error) : null}
            errorTitle="Failed to load the rate limits"
            onRetry={() => void rate.refetch()}
          >
            {rate.data && (
              <RateLimitPanel
                key={`${rate.data.enabled}-${rate.data.requestsPerMinute}-${rate.data.requestsPerHour}`}
                state={rate.data}
              />
            )}
          </LoadState>
          <LoadState
            loading={cache.isPending}
            error={cache.error ? errorMessage(cache.error) : null}
            errorTitle="Failed to load the cache"
            onRetry={() => void cache.refetch()}
          >
            {cache.data && (
              <CachePanel
                key={`${cache.data.config.enabled}-${cache.data.config.ttl}-${cache.data.config.maxSize}`}
                state={cache.data}
              />
            )}
          </LoadState>
        </SimpleGrid>
        {stats.data && (
          <>
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              <ResponseTimeTrend s={stats.data} />
              <HealthStatus s={stats.data} />
            </SimpleGrid>
            <section aria-labelledby="routes-title">
              <Title order={2} size="h4" id="routes-title" mb="sm">
                Slowest Routes
              </Title>
              <RoutesTable routes={stats.data.routes} />
            </section>
            <section aria-labelledby="recent-title">
              <Title order={2} size="h4" id="recent-title" mb="sm">
                Latest Requests
              </Title>
              <RecentTable recent={stats.data.recent} />
            </section>
          </>
        )}
        <ApiKeysPanel window={window} />
      </Stack>
    </>
  );
}
