import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLogin } from '../api/auth-store.ts';
import { AuthBootstrap } from './auth-bootstrap.tsx';
import { AppProviders } from './providers.tsx';

function start() {
  render(
    <AppProviders>
      <AuthBootstrap>
        <p>app ready</p>
      </AuthBootstrap>
    </AppProviders>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('startup check (spec §4)', () => {
  it('without a stored key it does not ask the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps a key the server still accepts', async () => {
    setLogin('live', 'admin@example.com');
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{"authenticated":true}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/auth/status', expect.objectContaining({ method: 'GET' }));
    expect(localStorage.getItem('api_key')).toBe('live');
  });

  it('clears a key the server no longer knows', async () => {
    setLogin('dead', 'admin@example.com');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{"authenticated":false}', { status: 200 }))),
    );
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(localStorage.getItem('api_key')).toBeNull();
    expect(localStorage.getItem('user_email')).toBeNull();
  });

  it('keeps the key when the check fails or is aborted (a reload must not sign out)', async () => {
    setLogin('maybe', 'admin@example.com');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(localStorage.getItem('api_key')).toBe('maybe');
  });

  it('keeps the key on a server error of the check', async () => {
    setLogin('maybe', 'admin@example.com');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 503 }))),
    );
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(localStorage.getItem('api_key')).toBe('maybe');
  });

  it('clears the key on a 401 of the check', async () => {
    setLogin('gone', 'admin@example.com');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 401 }))),
    );
    start();
    expect(await screen.findByText('app ready')).toBeInTheDocument();
    expect(localStorage.getItem('api_key')).toBeNull();
  });
});
