import {
  APP_DEFAULTS,
  type WebAppCapabilities,
  type WebAppRelease,
  type WebApplication,
} from '@mailroom/contract/web';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ApplicationsPage from './applications-page.tsx';

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
      calls.push(`${init?.method ?? 'GET'} ${path}${url.search.includes('after') ? url.search : ''}`);
      if (typeof init?.body === 'string') bodies.set(path, JSON.parse(init.body));
      const key = Object.keys(routes)
        .filter((k) => path === k || path.startsWith(`${k}/`) || path.startsWith(k))
        .sort((a, b) => b.length - a.length)[0];
      const queue = key ? routes[key]! : [];
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      return reply(next ?? { status: 404, body: { code: 'NOT_FOUND', message: 'nope' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const app: WebApplication = {
  ...APP_DEFAULTS,
  id: 1,
  name: 'shop',
  domain: 'shop.example.com',
  version: '1.2.0',
  description: 'The shop front',
  deploymentPath: '/var/www/apps/shop',
  repository: '/srv/git/shop.git',
  startCommand: 'node server.js',
  status: 'active',
  statusMessage: '',
  lastDeployed: '2026-11-27T10:00:00.000Z',
  uptime: 3720,
  requests: 1540,
  errors: 3,
  environmentVariableNames: ['MODE'],
  customEnvironmentVariables: { MODE: 'fast' },
  currentReleaseId: 2,
  currentCommit: 'abcdef0123456789',
  runningPort: 41000,
  pid: 4242,
  instances: [{ id: 1, port: 41000, pid: 4242, state: 'running', memoryBytes: 31_457_280 }],
  resourceLimits: {
    enforced: false,
    mechanism: '',
    detail: 'limit not enforced: no cgroup v2 hierarchy',
  },
  diskUsage: 2_400_000,
  deployJobId: null,
  runAs: '',
  createdAt: '2026-11-27T09:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
};

const broken: WebApplication = {
  ...app,
  id: 2,
  name: 'blog',
  domain: 'blog.example.com',
  description: '',
  status: 'error',
  statusMessage:
    'npm ERR! missing script: build\nfirst\nsecond\nThe new release did not answer 2xx on /health',
  uptime: null,
};

const capabilities: WebAppCapabilities = {
  supportedTypes: ['Angular', 'Node.js', 'Python', 'Static'],
  unsupportedTypes: {
    PHP: 'PHP applications are not deployed by Mailroom yet: only Angular, Node.js, Python and Static are',
  },
  fields: { enableScaling: 'Scaling is not supported yet: instances need the balancer' },
  allowedRoots: ['/var/www'],
  ownUser: { enabled: false, reason: 'Mailroom is not root' },
  supervised: { enabled: true, reason: '' },
  releaseRetention: 5,
};

const release = (id: number, state: WebAppRelease['state']): WebAppRelease => ({
  id,
  applicationId: 1,
  number: id,
  state,
  trigger: 'deploy',
  sourceReleaseId: null,
  ref: 'main',
  commit: `${id}bcdef0123456789`,
  path: `/var/www/apps/shop/releases/${id}`,
  port: 41000 + id,
  vhostConfigHash: null,
  environmentVariableNames: [],
  diskUsage: 1_200_000,
  timings: { clone: 0.2, build: 1.1, start: 0.3, health: 0.5, switch: 0.4 },
  message: '',
  jobId: 10 + id,
  startedBy: 'admin',
  createdAt: '2026-11-27T10:00:00.000Z',
  finishedAt: '2026-11-27T10:00:05.000Z',
});

async function fill(user: ReturnType<typeof userEvent.setup>, el: HTMLElement, text: string) {
  await user.click(el);
  await user.paste(text);
}

function renderPage(entry = '/web/applications') {
  const router = createMemoryRouter([{ path: '*', element: <ApplicationsPage /> }], {
    initialEntries: [entry],
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
  return { user: userEvent.setup(), router };
}

const rowOf = async (name: string) => (await screen.findAllByText(name))[0]!.closest<HTMLElement>('tr, li')!;

describe('ApplicationsPage', { timeout: 30_000 }, () => {
  it('lists the server’s rows: figures in the spec’s formats, the last log lines of an error, Stop/Start titles', async () => {
    routes['web/applications'] = [{ status: 200, body: [app, broken], total: 2 }];
    routes['web/capabilities/applications'] = [{ status: 200, body: capabilities }];
    routes['web/applications/toggle'] = [
      {
        status: 200,
        body: { success: true, message: 'shop stopped', application: { ...app, status: 'inactive' } },
      },
    ];
    const { user } = renderPage();
    const row = await rowOf('shop');
    expect(row).toHaveTextContent('The shop front');
    expect(row).toHaveTextContent('1h 2m');
    expect(row).toHaveTextContent('1.5K');
    const blog = await rowOf('blog');
    expect(blog).toHaveTextContent('Error');
    expect(blog).toHaveTextContent('The new release did not answer 2xx on /health');
    expect(blog).not.toHaveTextContent('npm ERR! missing script'); // the last 3 lines only
    expect(within(row).getByRole('button', { name: 'Stop shop' })).toHaveAttribute('title', 'Stop');
    expect(within(blog).getByRole('button', { name: 'Start blog' })).toHaveAttribute('title', 'Start');
    await user.click(within(row).getByRole('button', { name: 'Stop shop' }));
    await waitFor(() => expect(calls).toContain('POST web/applications/toggle/shop'));
  });

  it('asks before deleting in the spec’s words and sends whether to keep the releases', async () => {
    routes['web/applications'] = [{ status: 200, body: [app], total: 1 }];
    routes['web/capabilities/applications'] = [{ status: 200, body: capabilities }];
    routes['web/applications/remove'] = [
      { status: 200, body: { success: true, filesRemoved: false, deploymentPath: '/var/www/apps/shop' } },
    ];
    const { user } = renderPage();
    await user.click(within(await rowOf('shop')).getByRole('button', { name: 'Delete shop' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete the application "shop"?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(bodies.get('web/applications/remove/shop')).toEqual({ keepFiles: true }));
    expect(await screen.findByText(/Its releases are kept in \/var\/www\/apps\/shop/)).toBeInTheDocument();
  });

  it(
    'adds an application: Save waits for valid input, disabled fields say why, a server field error lands at its field',
    { timeout: 60_000 },
    async () => {
      routes['web/applications'] = [{ status: 200, body: [], total: 0 }];
      routes['web/capabilities/applications'] = [{ status: 200, body: capabilities }];
      routes['web/applications/add'] = [
        {
          status: 400,
          body: {
            code: 'VALIDATION',
            message: 'Deployment Path must be inside /var/www (symbolic links resolved)',
            details: [
              {
                field: 'deploymentPath',
                message: 'Deployment Path must be inside /var/www (symbolic links resolved)',
              },
            ],
          },
        },
      ];
      const { user } = renderPage();
      expect(await screen.findAllByText('No web applications found')).not.toHaveLength(0);
      await user.click(screen.getByRole('button', { name: 'Add Web Application' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Web Application' });
      for (const legend of [
        'Basic',
        'Repository',
        'SSL',
        'Deployment',
        'Monitoring',
        'Performance',
        'Security',
        'Scaling',
        'Maintenance',
        'Custom Configuration',
      ])
        expect(within(dialog).getByText(legend, { selector: 'legend' })).toBeInTheDocument();
      const save = within(dialog).getByRole('button', { name: 'Save Web Application' });
      expect(save).toBeDisabled();
      expect(within(dialog).queryByText('Domain is required')).toBeNull();
      expect(within(dialog).getByRole('switch', { name: /^Enable Scaling/ })).toBeDisabled();
      expect(
        within(dialog).getByText('Scaling is not supported yet: instances need the balancer'),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('textbox', { name: /^Port/ })).toHaveValue('3000');
      expect(within(dialog).getByRole('textbox', { name: /^Branch/ })).toHaveValue('main');

      await fill(user, within(dialog).getByRole('textbox', { name: /^Domain/ }), 'bare');
      await user.tab();
      expect(await within(dialog).findByText('Domain format is invalid')).toBeInTheDocument();
      await user.clear(within(dialog).getByRole('textbox', { name: /^Domain/ }));
      await fill(user, within(dialog).getByRole('textbox', { name: /^Domain/ }), 'new.example.com');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Name/ }), 'news');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Version/ }), '1.0.0');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Deployment Path/ }), '/srv/news');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Start Command/ }), 'node server.js');
      await fill(user, within(dialog).getByRole('textbox', { name: /^Environment Variables/ }), 'MODE=fast');
      await waitFor(() => expect(save).toBeEnabled());
      await user.click(save);
      expect(
        await within(dialog).findByText('Deployment Path must be inside /var/www (symbolic links resolved)'),
      ).toBeInTheDocument();
      const sent = bodies.get('web/applications/add') as Record<string, unknown>;
      expect(sent).toMatchObject({
        name: 'news',
        port: 3000,
        branch: 'main',
        customEnvironmentVariables: { MODE: 'fast' },
      });
    },
  );

  it('a PHP type says in the form what the operator must provide and what is kept across releases', async () => {
    routes['web/applications'] = [{ status: 200, body: [], total: 0 }];
    routes['web/capabilities/applications'] = [
      {
        status: 200,
        body: {
          ...capabilities,
          supportedTypes: [
            'Angular',
            'PHP',
            'Node.js',
            'Python',
            'Static',
            'Roundcube',
            'WordPress',
            'Drupal',
          ],
          unsupportedTypes: {},
        },
      },
    ];
    const { user } = renderPage();
    expect(await screen.findAllByText('No web applications found')).not.toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Add Web Application' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Web Application' });
    expect(within(dialog).queryByTestId('php-type-help')).toBeNull();
    await user.click(within(dialog).getByRole('textbox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'WordPress', hidden: true }));
    const help = await within(dialog).findByTestId('php-type-help');
    expect(help).toHaveTextContent('What a WordPress application needs');
    expect(help).toHaveTextContent(
      'You provide: A MySQL or MariaDB database and its user, made by you: give DB_NAME, DB_USER, DB_PASSWORD and DB_HOST as Environment Variables.',
    );
    expect(help).toHaveTextContent('wp-content/uploads/');
    expect(help).toHaveTextContent(
      'wp-config.php (made once from wp-config-sample.php; reads DB_NAME, DB_USER, DB_PASSWORD, DB_HOST with getenv)',
    );
    expect(
      within(dialog).getByText('Not used: Apache serves the WordPress files itself'),
    ).toBeInTheDocument();
    // Another type, another layout.
    await user.click(within(dialog).getByRole('textbox', { name: /^Type/ }));
    await user.click(await screen.findByRole('option', { name: 'Drupal', hidden: true }));
    expect(await within(dialog).findByTestId('php-type-help')).toHaveTextContent('sites/default/files/');
  });

  it('deploys from the row: the panel follows the job’s log by sequence number; rollback asks first', async () => {
    routes['web/applications'] = [{ status: 200, body: [app], total: 1 }];
    routes['web/capabilities/applications'] = [{ status: 200, body: capabilities }];
    routes['web/applications/deploy'] = [
      { status: 202, body: { jobId: 21, state: 'queued', message: 'Deploy queued' } },
    ];
    // Deploying when the panel opens; active once the job's end is read.
    routes['web/applications/shop'] = [
      { status: 200, body: { ...app, status: 'deploying', deployJobId: 21 } },
      { status: 200, body: app },
    ];
    routes['web/applications/shop/releases'] = [
      { status: 200, body: [release(2, 'live'), release(1, 'retired')] },
    ];
    routes['web/applications/shop/deploy-log'] = [
      {
        status: 200,
        body: {
          jobId: 21,
          state: 'running',
          lines: [
            { seq: 1, at: '2026-11-27T10:00:00Z', stream: 'info', text: 'Cloning /srv/git/shop.git at main' },
            { seq: 2, at: '2026-11-27T10:00:01Z', stream: 'stdout', text: 'added 12 packages' },
          ],
          lastSeq: 2,
          done: false,
        },
      },
      {
        status: 200,
        body: {
          jobId: 21,
          state: 'succeeded',
          lines: [{ seq: 3, at: '2026-11-27T10:00:02Z', stream: 'info', text: 'Switched to release 3' }],
          lastSeq: 3,
          done: true,
        },
      },
    ];
    routes['web/applications/rollback'] = [
      { status: 202, body: { jobId: 22, state: 'queued', message: 'Rollback queued' } },
    ];
    const { user, router } = renderPage();
    await user.click(within(await rowOf('shop')).getByRole('button', { name: 'Deploy shop' }));
    await waitFor(() => expect(calls).toContain('POST web/applications/deploy/shop'));
    // The panel is in the URL: a reload reopens it on the same job.
    await waitFor(() => expect(router.state.location.search).toBe('?app=shop&job=21'));
    const log = await screen.findByRole('log', { name: 'Deploy log' });
    expect(await within(log).findByText('Cloning /srv/git/shop.git at main')).toBeInTheDocument();
    const first = calls.find((c) => c.startsWith('GET web/applications/shop/deploy-log'));
    expect(first).toMatch(/after=0/);
    expect(first).toMatch(/jobId=21/);
    // The next read asks only for the lines after the last one held.
    await waitFor(
      () => expect(calls.some((c) => c.includes('deploy-log') && /after=2\b/.test(c))).toBe(true),
      {
        timeout: 6000,
      },
    );
    expect(await within(log).findByText('Switched to release 3')).toBeInTheDocument();

    const releases = await screen.findByRole('table', { name: 'Releases of shop' });
    // Only the earlier release still on disk offers Rollback; it asks first, then follows the new job.
    const rollback = within(releases).getAllByRole('button', { name: /^Rollback/ });
    expect(rollback).toHaveLength(1);
    await waitFor(() => expect(rollback[0]).toBeEnabled());
    await user.click(rollback[0]!);
    const confirm = await screen.findByRole('dialog', { name: 'Rollback' });
    expect(confirm).toHaveTextContent('Run release #1');
    await user.click(within(confirm).getByRole('button', { name: 'Rollback' }));
    await waitFor(() => expect(bodies.get('web/applications/rollback/shop')).toEqual({ releaseId: 1 }));
    await waitFor(() => expect(router.state.location.search).toBe('?app=shop&job=22'));
  });
});
