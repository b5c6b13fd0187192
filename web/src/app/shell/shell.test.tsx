import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { setLogin } from '../../api/auth-store.ts';
import { queryClient } from '../../api/query-client.ts';
import { notificationsStore } from '../../lib/notifications-store.ts';
import { AppProviders } from '../providers.tsx';
import { routes } from '../routes.tsx';

const GB = 1024 ** 3;
type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: Mock<FetchFn>;
let statusCalls = 0;

beforeAll(() => {
  // A desktop-wide window, so the header search box is shown.
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: query.includes('min-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
});

// What /auth/status says about the signed-in account (a test may make it a domain administrator).
let signedInAs: { role: string; domains: string[] } = { role: 'admin', domains: [] };

beforeEach(() => {
  signedInAs = { role: 'admin', domains: [] };
  statusCalls = 0;
  queryClient.clear();
  notificationsStore.clearAll();
  fetchMock = vi.fn<FetchFn>((url) => {
    if (url === '/api/index.php?path=system%2Fstatus') {
      statusCalls += 1;
      return Promise.resolve(
        new Response(
          JSON.stringify({
            status: 'running',
            uptime: 86400 + 2 * 3600 + 3 * 60 + 9,
            memory: { used: GB, total: 4 * GB, percent: 25 },
            disk: { used: 1.5 * GB, total: 10 * GB, available: 8.5 * GB, percent: 15 },
            reasons: [],
            daemons: [],
            openCriticalAlerts: 0,
            queueSize: 0,
            thresholds: {
              cpu: { warning: 80, critical: 95 },
              memory: { warning: 85, critical: 95 },
              disk: { warning: 85, critical: 95 },
            },
          }),
          { status: 200 },
        ),
      );
    }
    if (url.startsWith('/api/search?q=ali')) {
      const q = new URL(url, 'http://x').searchParams.get('q');
      return Promise.resolve(
        new Response(
          JSON.stringify({
            q,
            groups: [
              {
                kind: 'mailbox',
                label: 'Mailboxes',
                more: false,
                hits: [
                  {
                    kind: 'mailbox',
                    title: 'alice@shop.test',
                    description: 'Mailbox · 100 MB',
                    path: '/mail/mailboxes?q=alice%40shop.test',
                  },
                ],
              },
            ],
          }),
          { status: 200 },
        ),
      );
    }
    if (url === '/auth/logout') return Promise.resolve(new Response('{"success":true}', { status: 200 }));
    if (url === '/auth/status')
      return Promise.resolve(
        new Response(JSON.stringify({ authenticated: true, email: 'admin@example.com', ...signedInAs }), {
          status: 200,
        }),
      );
    return Promise.resolve(new Response('{"code":"NOT_FOUND","message":"x"}', { status: 404 }));
  });
  vi.stubGlobal('fetch', fetchMock);
  setLogin('key-1', 'admin@example.com');
});
afterEach(() => vi.unstubAllGlobals());

async function start(path = '/dashboard') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 5000 });
  return router;
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main navigation' }));

describe('the console shell', () => {
  it(
    'shows a domain administrator only their screens, and "Not allowed" on the others',
    { timeout: 30_000 },
    async () => {
      signedInAs = { role: 'domain-admin', domains: ['shop.test'] };
      const router = await start();
      // The dashboard is an administrator's page: they start at their mailboxes.
      await waitFor(() => expect(router.state.location.pathname).toBe('/mail/mailboxes'));
      await waitFor(() =>
        expect(nav().getByRole('link', { name: 'DNS Management' })).toHaveAttribute('href', '/dns/zones'),
      );
      const labels = nav()
        .getAllByRole('link')
        .map((l) => l.textContent);
      expect(labels).toContain('Mail Management');
      for (const hidden of [
        'Dashboard',
        'SSL Management',
        'MFA Management',
        'System Management',
        'Audit Log',
      ])
        expect(labels).not.toContain(hidden);
      await act(() => router.navigate('/system/management'));
      expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeInTheDocument();
      expect(screen.getByText(/shop\.test/)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /notifications/i })).toBeNull();
    },
  );

  it('has the spec sidebar, Dashboard highlighted only on its exact path, and the signed-in email', async () => {
    const router = await start();
    const links = nav().getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Dashboard',
      'Mail Management',
      'DNS Management',
      'SSL Management',
      'Web Management',
      'MFA Management',
      'System Management',
      'Audit Log',
    ]);
    expect(nav().getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    expect(nav().getByRole('link', { name: 'System Management' })).toHaveAttribute(
      'href',
      '/system/monitoring',
    );
    expect(nav().getByText('admin@example.com')).toBeInTheDocument();

    await act(() => router.navigate('/system/management'));
    expect(nav().getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
    expect(nav().getByRole('link', { name: 'System Management' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the system status card from the server and refreshes it', async () => {
    await start();
    // The dashboard page is loaded on demand: give it time on a busy machine.
    expect(await screen.findByText('1d 2h 3m', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('running')).toBeInTheDocument();
    expect(screen.getByText('1.00 GB / 4.00 GB · 25.0%')).toBeInTheDocument();
    expect(screen.getByText('1.50 GB / 10.00 GB · 15.0%')).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', { name: /Management|Monitoring|Operations/ }).length,
    ).toBeGreaterThanOrEqual(9);

    const before = statusCalls;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(statusCalls).toBe(before + 1));
    await waitFor(() => expect(notificationsStore.getSnapshot()[0]?.title).toBe('System status refreshed'));
  });

  it('opens help with ? and closes it with Esc; ignores shortcuts while typing', async () => {
    const router = await start();
    fireEvent.keyDown(window, { key: '?', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard Shortcuts' });
    expect(within(dialog).getByText('Go to web management')).toBeInTheDocument();
    expect(within(dialog).getAllByText(/Closes the tab in most browsers; use G then W/)).toHaveLength(1);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard Shortcuts' })).toBeNull());

    const search = screen.getByRole('textbox', { name: 'Search' });
    fireEvent.keyDown(search, { key: 'm', code: 'KeyM', ctrlKey: true });
    expect(router.state.location.pathname).toBe('/dashboard');
    fireEvent.keyDown(document.body, { key: 'm', code: 'KeyM', ctrlKey: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/mail'));
    fireEvent.keyDown(document.body, { key: 'g', code: 'KeyG' });
    fireEvent.keyDown(document.body, { key: 'w', code: 'KeyW' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/web'));
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(search);
  });

  it('searches after 2 characters and navigates to the chosen result, clearing the box', async () => {
    const router = await start();
    const user = userEvent.setup();
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.type(search, 'a');
    expect(screen.queryByRole('option')).toBeNull();
    await user.type(search, 'li');
    const option = await screen.findByRole('option', { name: 'Email Aliases' });
    await user.click(option);
    await waitFor(() => expect(router.state.location.pathname).toBe('/mail/aliases'));
    expect(search).toHaveValue('');

    await user.type(search, 'zzzz');
    expect(await screen.findByText('No results')).toBeInTheDocument();
  });

  it('finds things on the server too, grouped, and opens one with the keyboard', async () => {
    const router = await start();
    const user = userEvent.setup();
    const search = screen.getByRole('textbox', { name: 'Search' });
    await user.type(search, 'ali');
    const box = await screen.findByRole('option', { name: 'alice@shop.test' });
    const groupLabels = [...document.querySelectorAll('.mantine-Combobox-groupLabel')].map(
      (g) => g.textContent,
    );
    expect(groupLabels).toEqual(['Pages', 'Mailboxes']);
    expect(box).toBeInTheDocument();
    // One search call for the debounced text, not one per key.
    expect(fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/search')).map(([u]) => u)).toEqual(
      ['/api/search?q=ali'],
    );
    await user.keyboard('{ArrowDown}');
    while (!screen.getByRole('option', { name: 'alice@shop.test' }).hasAttribute('data-combobox-selected'))
      await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/mail/mailboxes'));
    expect(router.state.location.search).toBe('?q=alice%40shop.test');
  });

  it('lists notifications in the bell with read, clear read and clear all', async () => {
    await start();
    act(() => {
      notificationsStore.notify({ type: 'error', title: 'First problem', message: 'one' });
      notificationsStore.notify({ type: 'warning', title: 'Second problem', message: 'two' });
    });
    const bell = screen.getByRole('button', { name: /Notifications \(\d+ unread\)/ });
    expect(screen.getByTestId('notification-badge')).toHaveTextContent(/\d/);
    await userEvent.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getAllByText('Just now').length).toBeGreaterThanOrEqual(2);
    await userEvent.click(within(panel).getByRole('button', { name: /First problem: one \(unread\)/ }));
    expect(within(panel).getByRole('button', { name: 'First problem: one' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Clear read' }));
    expect(within(panel).queryByText('First problem')).toBeNull();
    await userEvent.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    expect(within(panel).getByRole('button', { name: 'Second problem: two' })).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Clear all' }));
    expect(within(panel).getByText('No notifications')).toBeInTheDocument();
  });

  it('runs notification actions with their styles', async () => {
    await start();
    const onClick = vi.fn();
    act(() => {
      notificationsStore.notify({
        type: 'error',
        title: 'Delete failed',
        message: 'x',
        actions: [
          { label: 'Retry', style: 'primary', onClick },
          { label: 'Discard', style: 'danger', onClick: () => undefined },
          { label: 'Later', style: 'secondary', onClick: () => undefined },
        ],
      });
    });
    await userEvent.click(screen.getByRole('button', { name: /Notifications/ }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getByRole('button', { name: 'Discard' })).toHaveAttribute('data-style', 'danger');
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(notificationsStore.getSnapshot()[0]!.read).toBe(true);
  });

  it('cycles the theme light → dark → system and stores it under "theme"', async () => {
    localStorage.setItem('theme', 'light');
    await start();
    const toggle = () => screen.getByRole('button', { name: /^Theme:/ });
    expect(toggle()).toHaveAttribute('data-theme', 'light');
    await userEvent.click(toggle());
    expect(localStorage.getItem('theme')).toBe('dark');
    await userEvent.click(toggle());
    expect(localStorage.getItem('theme')).toBe('system');
    await userEvent.click(toggle());
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('signs out: revokes the session, forgets it and goes to /login', async () => {
    const router = await start();
    await userEvent.click(nav().getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock.mock.calls.some(([u]) => u === '/auth/logout')).toBe(true);
    expect(localStorage.getItem('api_key')).toBeNull();
  });

  it('a 401 from any call signs out and returns to /login', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(new Response('{"code":"UNAUTHORIZED","message":"expired"}', { status: 401 })),
    );
    const router = await start();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('api_key')).toBeNull();
    expect(await screen.findByText('Authentication failed. Please log in again.')).toBeInTheDocument();
  });
});
