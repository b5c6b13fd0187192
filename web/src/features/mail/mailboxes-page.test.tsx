import { defaultMailSettings } from '@mailroom/contract/mail';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import MailboxesPage from './mailboxes-page.tsx';

type Reply = { status: number; body: unknown; total?: number };
let routes: Record<string, Reply[]>;
const calls: string[] = [];
const urls: string[] = [];
const bodies = new Map<string, unknown>();

function reply(r: Reply): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (r.total !== undefined) headers['X-Total-Count'] = String(r.total);
  return new Response(JSON.stringify(r.body), { status: r.status, headers });
}

beforeEach(() => {
  calls.length = 0;
  urls.length = 0;
  bodies.clear();
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(input, 'http://x').searchParams.get('path') ?? '';
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      urls.push(input);
      if (typeof init?.body === 'string') bodies.set(path, JSON.parse(init.body));
      // The longest matching prefix wins, so mail/users/remove is not taken for mail/users.
      const key = Object.keys(routes)
        .filter((k) => path.startsWith(k))
        .sort((a, b) => b.length - a.length)[0];
      const queue = key ? routes[key]! : [];
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      return reply(next ?? { status: 404, body: { code: 'NOT_FOUND', message: 'nope' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const serverError = {
  status: 500,
  body: { code: 'INTERNAL_ERROR', message: 'boom', details: null, timestamp: '', retryable: true },
};
const settings = {
  status: 200,
  body: {
    settings: defaultMailSettings('mx.example.com', 'example.com'),
    defaults: defaultMailSettings('mx.example.com', 'example.com'),
    version: 1,
    appliedAt: null,
    check: null,
  },
};
const box = {
  email: 'a@example.com',
  quota: 100 * 1024 * 1024,
  used: 90 * 1024 * 1024,
  status: 'active',
  createdAt: '2025-01-01T00:00:00Z',
};

let router: ReturnType<typeof createMemoryRouter>;

/** A data router, as the app has (the create form's leave-guard needs one). */
function renderPage(at = '/mail/mailboxes') {
  router = createMemoryRouter([{ path: '*', element: <MailboxesPage /> }], { initialEntries: [at] });
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
  return userEvent.setup();
}

describe('MailboxesPage', { timeout: 30_000 }, () => {
  it("shows 'Failed to load mailboxes' with Try Again, then the empty text", async () => {
    routes['mail/settings'] = [settings];
    routes['mail/users'] = [serverError, { status: 200, body: [], total: 0 }];
    const user = renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load mailboxes');
    expect(alert).toHaveTextContent('Internal server error. Please try again later.');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect((await screen.findAllByText('No mailboxes found')).length).toBeGreaterThan(0);
  });

  it('shows a mailbox above 80 % in red and reports a failed delete with Try Again and Dismiss', async () => {
    routes['mail/settings'] = [settings];
    routes['mail/users/remove'] = [serverError];
    routes['mail/users'] = [{ status: 200, body: [box], total: 1 }];
    const user = renderPage();
    // A table row on wide screens, a card (list item) at jsdom's phone-sized media queries.
    const row = (await screen.findAllByText('a@example.com'))[0]!.closest<HTMLElement>('tr, li')!;
    expect(row).toHaveTextContent('100.00 MB');
    expect(row).toHaveTextContent('90.00 MB');
    expect(within(row).getByText('90%')).toBeInTheDocument();
    expect(within(row).getByRole('progressbar').getAttribute('style')).toContain('red');

    await user.click(within(row).getByRole('button', { name: 'Delete a@example.com' }));
    expect(
      await screen.findByText('Are you sure you want to delete the mailbox a@example.com?'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to delete mailbox');
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('POST mail/users/remove/'))).toHaveLength(2));
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('prefills the Default Quota, sends bytes and reloads the list after a create', async () => {
    routes['mail/settings'] = [settings];
    routes['mail/users/add'] = [{ status: 200, body: { success: true } }];
    routes['mail/users'] = [{ status: 200, body: [], total: 0 }];
    const user = renderPage();
    await screen.findAllByText('No mailboxes found');
    await user.click(screen.getByRole('button', { name: 'Add Mailbox' }));
    const quota = await screen.findByRole('textbox', { name: /Quota \(MB\)/ });
    await waitFor(() => expect(quota).toHaveValue('1000'));
    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'new@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'long-password');
    await user.clear(quota);
    await user.type(quota, '2');
    await user.click(screen.getByRole('button', { name: 'Create Mailbox' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Create Mailbox' })).toBeNull());
    expect(bodies.get('mail/users/add')).toEqual({
      email: 'new@example.com',
      password: 'long-password',
      quota: 2 * 1024 * 1024,
    });
    expect(calls.filter((c) => c === 'GET mail/users').length).toBeGreaterThanOrEqual(2);
  });

  it('starts from ?q= (a global search hit) and asks the server for that term only', async () => {
    routes['mail/settings'] = [settings];
    routes['mail/users'] = [{ status: 200, body: [box], total: 1 }];
    renderPage('/mail/mailboxes?q=a%40example.com');
    expect(screen.getByRole('textbox', { name: 'Search mailboxes' })).toHaveValue('a@example.com');
    expect((await screen.findAllByText('a@example.com')).length).toBeGreaterThan(0);
    const lists = urls.filter((u) => new URL(u, 'http://x').searchParams.get('path') === 'mail/users');
    expect(lists.length).toBeGreaterThan(0);
    for (const u of lists) expect(new URL(u, 'http://x').searchParams.get('q')).toBe('a@example.com');
  });

  it('keeps what is typed in ?q=, replacing the history entry', async () => {
    routes['mail/settings'] = [settings];
    routes['mail/users'] = [{ status: 200, body: [box], total: 1 }];
    const user = renderPage();
    await screen.findAllByText('a@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Search mailboxes' }), 'bob');
    await waitFor(() => expect(router.state.location.search).toBe('?q=bob'));
    expect(router.state.historyAction).toBe('REPLACE');
    await user.clear(screen.getByRole('textbox', { name: 'Search mailboxes' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows no total while the first page loads, then the real one', async () => {
    routes['mail/settings'] = [settings];
    let answer: (r: Response) => void = () => {};
    const fetchMock = vi.mocked(fetch);
    const inner = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const path = new URL(input as string, 'http://x').searchParams.get('path');
      if (path === 'mail/users') return new Promise<Response>((resolve) => (answer = resolve));
      return inner(input, init);
    });
    renderPage();
    expect(await screen.findByText('Loading mailboxes…')).toBeInTheDocument();
    expect(screen.queryByText(/Showing .* of/)).toBeNull();
    answer(reply({ status: 200, body: [box], total: 1 }));
    expect(await screen.findByText(/Showing 1–1 of 1 mailboxes/)).toBeInTheDocument();
  });
});
