import type { AppMetrics } from '@mailroom/contract/web';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppMetricsView } from './app-metrics.tsx';

const base: AppMetrics = {
  name: 'shop',
  state: 'ok',
  endpoint: '/metrics',
  scrapedAt: new Date().toISOString(),
  error: null,
  httpStatus: 200,
  bytes: 120,
  durationMs: 4,
  seriesTotal: 2,
  series: [
    {
      name: 'app_requests_total',
      type: 'counter',
      help: '',
      labels: { route: '/' },
      value: 1234,
      raw: '1234',
    },
    { name: 'app_ratio', type: 'gauge', help: '', labels: {}, value: null, raw: 'NaN' },
  ],
  intervalSeconds: 30,
};

function show(m: AppMetrics) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(m), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={qc}>
        <AppMetricsView name="shop" />
      </QueryClientProvider>
    </MantineProvider>,
  );
}
afterEach(() => vi.unstubAllGlobals());

describe('application metrics in the panel', () => {
  it('shows each series with its labels, type and value (NaN as written)', async () => {
    show(base);
    expect(await screen.findAllByText('app_requests_total')).not.toHaveLength(0);
    expect(screen.getAllByText('{route="/"}')).not.toHaveLength(0);
    expect(screen.getAllByText((1234).toLocaleString())).not.toHaveLength(0);
    expect(screen.getAllByText('NaN')).not.toHaveLength(0);
    expect(screen.getByText(/^Read just now from \/metrics in 4 ms, every 30 s$/)).toBeTruthy();
  });

  it('an endpoint that is not Prometheus text shows its parse error and no figures (never zeros)', async () => {
    show({
      ...base,
      state: 'error',
      error: 'Not Prometheus text: line 1: a metric name was expected: <!DOCTYPE html>',
      seriesTotal: 0,
      series: [],
    });
    expect(await screen.findByText('No figures from /metrics')).toBeTruthy();
    expect(screen.getByText(/line 1: a metric name was expected/)).toBeTruthy();
    expect(screen.queryByText('0')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says why there are none: monitoring off, not running', async () => {
    show({ ...base, state: 'off', scrapedAt: null, series: [], seriesTotal: 0 });
    expect(await screen.findByText(/Enable Monitoring is off/)).toBeTruthy();
  });
});
