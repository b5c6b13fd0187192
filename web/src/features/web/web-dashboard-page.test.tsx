import type { WebDashboard } from '@mailroom/contract/web';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebDashboardPage from './web-dashboard-page.tsx';

let dashboard: WebDashboard;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      const path = url.searchParams.get('path') ?? url.pathname.replace(/^\/api\//, '');
      const body =
        path === 'web/dashboard' ? dashboard : path === 'apply' ? [] : { code: 'NOT_FOUND', message: 'no' };
      const ok = path === 'web/dashboard' || path === 'apply';
      return new Response(JSON.stringify(body), {
        status: ok ? 200 : 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const router = createMemoryRouter([{ path: '*', element: <WebDashboardPage /> }], {
    initialEntries: ['/web'],
  });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={qc}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const base: WebDashboard = {
  stats: {
    totalVirtualHosts: 1200,
    activeVirtualHosts: 1100,
    totalWebApplications: 0,
    activeWebApplications: 0,
    totalDomains: 1200,
    sslEnabledDomains: 300,
    totalTraffic: 1_540_000,
    averageResponseTime: 41.6,
    errorRate: 3.2,
    uptime: 90_061,
  },
  status: [
    {
      name: 'Web Server',
      state: 'running',
      detail: 'Apache/2.4.62, pid 42',
      pid: 42,
      since: '2026-11-26T10:00:00Z',
    },
    { name: 'PHP', state: 'failed', detail: 'php-fpm8.2 exited: bad pool', pid: null, since: null },
    { name: 'Database', state: 'running', detail: 'SQLite answers.', pid: null, since: null },
    {
      name: 'SSL/TLS',
      state: 'running',
      detail: '300 of 1200 virtual hosts serve HTTPS.',
      pid: null,
      since: null,
    },
  ],
  virtualHosts: [],
  applications: [],
  activity: [
    {
      id: 'a1',
      type: 'configuration',
      description: 'Web server settings saved',
      timestamp: new Date().toISOString(),
      status: 'success',
      details: '',
    },
  ],
  apply: { state: 'applied', message: '', at: null },
};

describe('WebDashboardPage', { timeout: 30_000 }, () => {
  it('shows the real figures in the spec’s formats and the error rate in its colour', async () => {
    dashboard = base;
    renderPage();
    expect(await screen.findByText('1.2K')).toBeInTheDocument();
    expect(screen.getByText('1.1K active')).toBeInTheDocument();
    expect(screen.getByText('of 1.2K total')).toBeInTheDocument();
    expect(screen.getByText('1d 1h')).toBeInTheDocument();
    expect(screen.queryByText('99.9% availability')).toBeNull();
    const traffic = screen.getByRole('region', { name: 'Traffic Overview' });
    expect(traffic).toHaveTextContent('1.5M');
    expect(traffic).toHaveTextContent('42 ms');
    expect(within(traffic).getByText('3.20%').closest('[data-tone]')).toHaveAttribute('data-tone', 'warning');
  });

  it('shows each program’s real state with its reason, and no sample applications', async () => {
    dashboard = { ...base, stats: { ...base.stats, errorRate: 7, uptime: null } };
    renderPage();
    const status = await screen.findByRole('region', { name: 'Server Status' });
    expect(within(status).getByRole('listitem', { name: 'PHP' })).toHaveTextContent('Failed');
    expect(within(status).getByRole('listitem', { name: 'PHP' })).toHaveTextContent(
      'php-fpm8.2 exited: bad pool',
    );
    expect(within(status).getByRole('listitem', { name: 'SSL/TLS' })).toHaveTextContent('Enabled');
    expect(screen.getByText('7.00%').closest('[data-tone]')).toHaveAttribute('data-tone', 'error');
    // The applications card shows the dashboard's applications (none here) and counts.
    expect((await screen.findAllByText('No web applications found')).length).toBeGreaterThan(0);
    expect(await screen.findByTestId('web-apps-counts')).toHaveTextContent('0 total · 0 active');
    expect(screen.getAllByText('No virtual hosts found').length).toBeGreaterThan(0);
    expect(screen.getByText('Web server settings saved')).toBeInTheDocument();
  });
});
