import { VHOST_DEFAULTS, type VirtualHost, type WebCapabilities } from '@mailroom/contract/web';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsStore } from '../../lib/notifications-store.ts';
import VhostsPage from './vhosts-page.tsx';

type Reply = { status: number; body: unknown; total?: number };
let routes: Record<string, Reply[]>;
const calls: string[] = [];
const bodies = new Map<string, unknown>();

function reply(r: Reply): Response {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (r.total !== undefined) headers['X-Total-Count'] = String(r.total);
  return new Response(JSON.stringify(r.body), { status: r.status, headers });
}

beforeEach(() => {
  calls.length = 0;
  bodies.clear();
  routes = {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://x');
      const path = url.searchParams.get('path') ?? url.pathname.replace(/^\/api\//, '');
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      if (typeof init?.body === 'string') bodies.set(path, JSON.parse(init.body));
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

const host: VirtualHost = {
  ...VHOST_DEFAULTS,
  id: 1,
  domain: 'shop.example.com',
  documentRoot: '/var/www/shop.example.com',
  serverName: 'shop.example.com',
  serverAlias: ['www.shop.example.com'],
  lastModified: '2026-11-27T10:00:00.000Z',
  traffic: 1540,
  responseTime: 12.4,
  siteUser: 'web-shop',
  live: true,
};

const capabilities: WebCapabilities = {
  apacheInstalled: true,
  apacheVersion: '2.4.62',
  mode: 'local',
  httpPort: 2080,
  httpsPort: 2443,
  rateLimitModule: { name: 'mod_qos', reason: 'per-location request limits' },
  modules: [],
  phpVersions: [
    { version: '8.3', installed: false, program: null },
    { version: '8.2', installed: true, program: '/usr/sbin/php-fpm8.2' },
    { version: '8.1', installed: false, program: null },
    { version: '8.0', installed: false, program: null },
    { version: '7.4', installed: false, program: null },
  ],
  allowedRoots: ['/var/www'],
  vhostFields: {
    enableRateLimiting: 'The Apache module qos is not installed (Debian package libapache2-mod-qos)',
  },
  settingsFields: {},
};

/** Types by pasting: one change per field (a keystroke re-checks the whole form: slow in jsdom). */
async function fill(user: ReturnType<typeof userEvent.setup>, el: HTMLElement, text: string) {
  await user.click(el);
  await user.paste(text);
}

function renderPage() {
  const router = createMemoryRouter([{ path: '*', element: <VhostsPage /> }], {
    initialEntries: ['/web/vhosts'],
  });
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

describe('VhostsPage', { timeout: 30_000 }, () => {
  it('lists a host with its aliases, K traffic and ms; toggles it off through the server', async () => {
    routes['web/vhosts/status'] = [
      { status: 200, body: { success: true, message: 'Applied', vhost: { ...host, status: 'inactive' } } },
    ];
    routes['web/vhosts'] = [{ status: 200, body: [host], total: 1 }];
    routes['web/capabilities'] = [{ status: 200, body: capabilities }];
    const user = renderPage();
    const row = (await screen.findAllByText('shop.example.com'))[0]!.closest<HTMLElement>('tr, li')!;
    expect(row).toHaveTextContent('www.shop.example.com');
    expect(row).toHaveTextContent('1.5K');
    expect(row).toHaveTextContent('12 ms');
    await user.click(within(row).getByRole('button', { name: 'Disable shop.example.com' }));
    await waitFor(() =>
      expect(bodies.get('web/vhosts/status/shop.example.com')).toEqual({ status: 'inactive' }),
    );
  });

  it('asks before deleting and sends whether to keep the files', async () => {
    routes['web/vhosts/remove'] = [
      {
        status: 200,
        body: { success: true, filesRemoved: true, documentRoot: '/var/www/shop.example.com' },
      },
    ];
    routes['web/vhosts'] = [{ status: 200, body: [host], total: 1 }];
    routes['web/capabilities'] = [{ status: 200, body: capabilities }];
    const user = renderPage();
    const row = (await screen.findAllByText('shop.example.com'))[0]!.closest<HTMLElement>('tr, li')!;
    await user.click(within(row).getByRole('button', { name: 'Delete shop.example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete the virtual host "shop.example.com"?');
    const keep = within(dialog).getByRole('checkbox', { name: "Keep the site's files" });
    expect(keep).toBeChecked();
    await user.click(keep);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(bodies.get('web/vhosts/remove/shop.example.com')).toEqual({ keepFiles: false }),
    );
    expect(
      await screen.findByText(/was deleted, and its files in \/var\/www\/shop.example.com with it/),
    ).toBeInTheDocument();
  });

  it(
    "adds a host: Save waits for valid input; Apache's refusal lands at the field, not in a toast",
    { timeout: 60_000 },
    async () => {
      routes['web/vhosts/add'] = [
        {
          status: 422,
          body: {
            code: 'APPLY_REFUSED',
            message: 'Apache refused the configuration',
            details: [{ field: 'customDirectives', message: 'Line 1: Invalid command Bogus' }],
          },
        },
      ];
      routes['web/vhosts'] = [{ status: 200, body: [], total: 0 }];
      routes['web/capabilities'] = [{ status: 200, body: capabilities }];
      routes['ssl/certificates'] = [{ status: 200, body: [] }];
      const user = renderPage();
      await screen.findAllByText('No virtual hosts found');
      await user.click(screen.getByRole('button', { name: 'Add Virtual Host' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Virtual Host' });
      const save = within(dialog).getByRole('button', { name: 'Save Virtual Host' });
      expect(save).toBeDisabled();
      // No message before a field is touched (§5).
      expect(within(dialog).queryByText('Domain is required')).toBeNull();

      // A field the server cannot honour is disabled with its reason; PHP versions not installed too.
      expect(within(dialog).getByRole('switch', { name: /^Enable Rate Limiting/ })).toBeDisabled();
      expect(within(dialog).getByText(/libapache2-mod-qos/)).toBeInTheDocument();
      expect(within(dialog).getByText('PHP 8.3 is not installed on this server')).toBeInTheDocument();

      await fill(user, within(dialog).getByRole('textbox', { name: /^Domain/ }), 'bare');
      await user.tab();
      expect(await within(dialog).findByText('Domain format is invalid')).toBeInTheDocument();
      await user.clear(within(dialog).getByRole('textbox', { name: /^Domain/ }));
      await fill(user, within(dialog).getByRole('textbox', { name: /^Domain/ }), 'new.example.com');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Server Name/ }), 'new.example.com');
      await fill(
        user,
        within(dialog).getByRole('textbox', { name: /^Server Aliases/ }),
        'a.example.com, b.example.com',
      );
      await fill(user, within(dialog).getByRole('textbox', { name: /^Document Root/ }), '/var/www/new');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Custom Directives/ }), 'Bogus on');
      await waitFor(() => expect(save).toBeEnabled());
      const before = notificationsStore.getSnapshot().length;
      await user.click(save);

      expect(await within(dialog).findByText('Line 1: Invalid command Bogus')).toBeInTheDocument();
      const sent = bodies.get('web/vhosts/add') as Record<string, unknown>;
      expect(sent.serverAlias).toEqual(['a.example.com', 'b.example.com']);
      expect(sent.port).toBe(80);
      expect(sent.phpVersion).toBe('8.3');
      // Said once, at the field: no toast, no alert repeating it.
      expect(screen.getAllByText('Line 1: Invalid command Bogus')).toHaveLength(1);
      expect(notificationsStore.getSnapshot().length).toBe(before);
      expect(within(dialog).queryByRole('alert')).toBeNull();
    },
  );
});
