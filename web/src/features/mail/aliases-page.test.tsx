import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AliasesPage from './aliases-page.tsx';

// The alias list's "run a bulk operation on the selection" (issue 21): the selection and the
// list's filter go to /bulk-operations as the seed of a Delete Aliases plan.

const aliases = [
  { source: 'sales@example.com', destination: 'ann@example.com', status: 'active', system: false },
  { source: 'sales-eu@example.com', destination: 'bob@example.com', status: 'active', system: false },
];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const path = new URL(input, 'http://x').searchParams.get('path') ?? '';
      if (path === 'mail/aliases')
        return new Response(JSON.stringify(aliases), {
          status: 200,
          headers: { 'Content-Type': 'application/json', 'X-Total-Count': '2' },
        });
      return new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'nope' }), { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('AliasesPage bulk operation', { timeout: 30_000 }, () => {
  it('hands the selection and the search to Delete Aliases on /bulk-operations', async () => {
    const router = createMemoryRouter(
      [
        { path: '/mail/aliases', element: <AliasesPage /> },
        { path: '/bulk-operations', element: <p>bulk page</p> },
      ],
      { initialEntries: ['/mail/aliases?q=sales'] },
    );
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MantineProvider>
        <ModalsProvider>
          <QueryClientProvider client={qc}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </ModalsProvider>
      </MantineProvider>,
    );
    const user = userEvent.setup();
    // Nothing selected: no selection bar, so no bulk action yet.
    await screen.findAllByText('sales-eu@example.com');
    expect(screen.queryByRole('button', { name: 'Bulk operation…' })).toBeNull();
    const [box] = screen.getAllByRole('checkbox', { name: /sales-eu@example\.com/ });
    await user.click(box!);
    const bar = screen.getByRole('region', { name: 'Selected aliases' });
    expect(within(bar).getByText('1 alias selected')).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Bulk operation…' }));
    expect(router.state.location.pathname).toBe('/bulk-operations');
    expect(router.state.location.state).toEqual({
      bulk: { operation: 'mail.alias.delete', keys: ['sales-eu@example.com'], filter: { q: 'sales' } },
    });
  });
});
