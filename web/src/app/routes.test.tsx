import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLogin } from '../api/auth-store.ts';
import { AppProviders } from './providers.tsx';
import { consoleRoutes, routes } from './routes.tsx';

function start(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const SPEC_PATHS = [
  '/dashboard',
  '/mail',
  '/mail/mailboxes',
  '/mail/aliases',
  '/mail/domains', // issue 12: new mail domains are deliberate
  '/mail/settings',
  '/dns',
  '/dns/zones',
  '/dns/zones/:domain',
  '/dns/records',
  '/dns/settings',
  '/ssl',
  '/ssl/certificates',
  '/ssl/generate',
  '/ssl/settings',
  '/web',
  '/web/vhosts',
  '/web/applications',
  '/web/settings',
  '/mfa',
  '/mfa/management',
  '/mfa/recovery',
  '/system/monitoring',
  '/system/management',
  '/system',
  '/monitoring',
  '/bulk-operations',
  '/api-monitoring',
  // Issue 12: the audit log screen.
  '/audit',
];

beforeEach(() => {
  // Pages may load data; these tests are about where the router sends the user.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(new Response('{"code":"NOT_FOUND","message":"x"}', { status: 404 }))),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('route table (spec §2)', () => {
  it('has every console path of the spec and no other', () => {
    expect(consoleRoutes.map((r) => r.path).sort()).toEqual([...SPEC_PATHS].sort());
  });

  it.each(['/', '/nowhere', '/mail/unknown/deep'])('%s goes to /login', async (path) => {
    const router = start(path);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it.each(['/dashboard', '/mail/aliases', '/dns/zones/example.com', '/api-monitoring'])(
    '%s without a stored login goes to /login',
    async (path) => {
      const router = start(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    },
  );

  it('a signed-in user on an unknown path ends on /dashboard through /login', async () => {
    setLogin('k', 'admin@example.com');
    const router = start('/nowhere');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('a zone is reached by its domain', () => {
    const matches = matchRoutes(routes, '/dns/zones/example.com');
    expect(matches?.at(-1)?.route.path).toBe('/dns/zones/:domain');
    expect(matches?.at(-1)?.params.domain).toBe('example.com');
  });

  it('a signed-in user gets the shell with the page inside it', async () => {
    setLogin('k', 'admin@example.com');
    const router = start('/ssl');
    expect(
      await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/ssl');
  });
});
