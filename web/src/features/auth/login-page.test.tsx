import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { setLogin } from '../../api/auth-store.ts';
import LoginPage from './login-page.tsx';

type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: Mock<FetchFn>;

function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', Component: LoginPage },
      { path: '/dashboard', element: <p>dashboard reached</p> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const emailInput = () => screen.getByLabelText(/Email address/);
const passwordInput = () => screen.getByLabelText(/^Password/);
const button = () => screen.getByRole('button', { name: /Sign in|Signing in/ });

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(emailInput(), email);
  await user.type(passwordInput(), password);
  return user;
}

beforeEach(() => {
  fetchMock = vi.fn<FetchFn>();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('/login', () => {
  it('shows the fields, no errors until touched, and a disabled Sign in while invalid', async () => {
    renderLogin();
    expect(emailInput()).toBeInTheDocument();
    expect(passwordInput()).toBeInTheDocument();
    expect(button()).toHaveTextContent('Sign in');
    expect(button()).toBeDisabled();
    expect(screen.queryByText('Email is required')).toBeNull();

    const user = userEvent.setup();
    await user.type(emailInput(), 'not-an-email');
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    await user.tab();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).toBeNull();

    await user.type(passwordInput(), '123');
    await user.tab();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();

    await user.clear(emailInput());
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it('marks every field touched on an invalid submit (Enter in a field)', async () => {
    renderLogin();
    const user = userEvent.setup();
    await user.type(emailInput(), 'x{Enter}');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs in, stores the key and email, and goes to /dashboard', async () => {
    let release!: (r: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise<Response>((r) => (release = r)));
    const router = renderLogin();
    const user = await fill(' admin@example.com ', 'admin-password-1');
    expect(button()).toBeEnabled();
    await user.click(button());
    expect(button()).toHaveTextContent('Signing in...');
    expect(button()).toBeDisabled();

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/auth/login');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'admin@example.com',
      password: 'admin-password-1',
    });

    await act(async () => release(json(200, { success: true, api_key: 'k-1', email: 'admin@example.com' })));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(localStorage.getItem('api_key')).toBe('k-1');
    expect(localStorage.getItem('user_email')).toBe('admin@example.com');
  });

  it.each([
    ['HTTP 401', () => json(401, { code: 'UNAUTHORIZED', message: 'x' }), 'Invalid email or password.'],
    [
      'success false',
      () => json(200, { success: false, api_key: '', email: '' }),
      'Invalid credentials. Please try again.',
    ],
    [
      'status 0',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'Unable to connect to server. Please check your connection.',
    ],
    [
      'HTTP 500',
      () => json(500, { code: 'INTERNAL_ERROR', message: 'x' }),
      'An error occurred during login. Please try again.',
    ],
    [
      'HTTP 429',
      () =>
        json(429, { code: 'RATE_LIMITED', message: 'Too many failed sign-ins. Try again in 60 seconds.' }),
      'Too many failed sign-ins. Try again in 60 seconds.',
    ],
  ])('%s shows the Login Failed box with the spec message', async (_, reply, text) => {
    fetchMock.mockImplementationOnce(async () => reply());
    const router = renderLogin();
    const user = await fill('admin@example.com', 'admin-password-1');
    await user.click(button());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login Failed');
    expect(alert).toHaveTextContent(text);
    expect(button()).toHaveTextContent('Sign in');
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('api_key')).toBeNull();
  });

  it('sends an already signed-in user to /dashboard', async () => {
    setLogin('k', 'admin@example.com');
    const router = renderLogin();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.getByText('dashboard reached')).toBeInTheDocument();
  });
});
