import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApplyOutcomeAlert } from './apply-outcome-alert.tsx';

const outcome = (target: string, state: string) => ({
  target,
  state,
  step: state === 'failed' ? 'reload' : null,
  message: state === 'failed' ? 'Saved, but not live: postfix reload failed' : 'Live',
  output: state === 'failed' ? 'postfix/postfix-script: fatal: the Postfix mail system is not running' : '',
  changed: { written: [], removed: [] },
  at: '2026-11-22T20:00:00Z',
  appliedAt: null,
  actor: 'admin@example.com',
});

let list: unknown[][];
const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://x');
      const path = url.searchParams.get('path') ?? url.pathname.replace(/^\/api\//, '');
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === 'apply/mail/retry')
        return new Response(JSON.stringify(outcome('mail', 'applied')), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      const body = list.length > 1 ? list.shift()! : list[0]!;
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAlert(onRetried = () => undefined) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={qc}>
        <ApplyOutcomeAlert target="mail" label="mail server" onRetried={onRetried} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return userEvent.setup();
}

describe('ApplyOutcomeAlert', () => {
  it('says nothing while the target is live (another target failing is not its business)', async () => {
    list = [[outcome('mail', 'applied'), outcome('dns', 'failed')]];
    renderAlert();
    await waitFor(() => expect(calls).toContain('GET apply'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a saved-but-not-live change with the command’s words, and Retry puts it live', async () => {
    list = [[outcome('mail', 'failed')], [outcome('mail', 'applied')]];
    const retried = vi.fn();
    const user = renderAlert(retried);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Saved, but not live on the mail server');
    expect(alert).toHaveTextContent('the Postfix mail system is not running');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(calls).toContain('POST apply/mail/retry'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(retried).toHaveBeenCalledOnce();
  });
});
