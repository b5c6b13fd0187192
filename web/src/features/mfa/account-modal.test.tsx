import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountModal } from './account-modal.tsx';

const calls: { method: string; path: string; body: unknown }[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { ok: true } };

beforeEach(() => {
  calls.length = 0;
  answer = { status: 200, body: { ok: true } };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://x');
      const path = url.searchParams.get('path') ?? url.pathname.replace(/^\/api\//, '');
      calls.push({
        method: init?.method ?? 'GET',
        path,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderModal(onDone = vi.fn()) {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <AccountModal opened onClose={() => undefined} onDone={onDone} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onDone;
}

const add = () => screen.getByRole('button', { name: 'Add account' });

// Typing into a Mantine modal is slow on a loaded machine.
describe('Add account (useForm with the contract schema NewConsoleAccount)', { timeout: 30_000 }, () => {
  it('says the schema messages while typing and keeps Add account disabled until valid', async () => {
    renderModal();
    const user = userEvent.setup({ delay: null });
    expect(add()).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'short');
    expect(await screen.findByText('Password must be at least 12 characters')).toBeInTheDocument();
    expect(add()).toBeDisabled();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ops@example.com');
    await user.type(screen.getByLabelText('Password'), '-long-enough');
    await waitFor(() => expect(add()).toBeEnabled());
    expect(calls).toEqual([]);
  });

  it('adds the account, then requires MFA of it, and answers onDone', async () => {
    const onDone = renderModal();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Email'), ' ops@example.com ');
    await user.type(screen.getByLabelText('Password'), 'a-long-password');
    await user.click(add());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST accounts', 'POST mfa/enable']);
    expect(calls[0]!.body).toEqual({ email: 'ops@example.com', password: 'a-long-password', role: 'admin' });
    expect(calls[1]!.body).toEqual({ email: 'ops@example.com' });
  });

  it("shows the server's field error on the field and stays open", async () => {
    answer = { status: 409, body: { code: 'CONFLICT', message: 'ops@example.com already exists' } };
    const onDone = renderModal();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Email'), 'ops@example.com');
    await user.type(screen.getByLabelText('Password'), 'a-long-password');
    await user.click(add());
    expect(await screen.findByText('ops@example.com already exists')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });
});

describe('Edit an account (ConsoleAccountUpdate)', { timeout: 30_000 }, () => {
  it('saves role and domains without a password when none is typed', async () => {
    const onDone = vi.fn();
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <AccountModal
            opened
            onClose={() => undefined}
            onDone={onDone}
            account={{
              email: 'dom@example.com',
              createdAt: '2026-11-27T10:00:00.000Z',
              role: 'domain-admin',
              domains: ['example.com'],
            }}
          />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await userEvent.setup({ delay: null }).click(save);
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT accounts/dom%40example.com']);
    expect(calls[0]!.body).toEqual({ role: 'domain-admin', domains: ['example.com'] });
  });
});
