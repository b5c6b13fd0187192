import type { WebAppRelease } from '@mailroom/contract/web';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReleaseLogModal } from './release-log-modal.tsx';

const release: WebAppRelease = {
  id: 7,
  applicationId: 1,
  number: 3,
  state: 'live',
  trigger: 'deploy',
  sourceReleaseId: null,
  ref: 'main',
  commit: 'abcdef0123456789',
  path: '/var/www/apps/shop/releases/3',
  port: 41000,
  vhostConfigHash: null,
  environmentVariableNames: [],
  diskUsage: 0,
  timings: { clone: 1, build: 2, start: 0.1, health: 0.5, switch: 0.1 },
  message: '',
  jobId: 12,
  startedBy: 'admin@example.com',
  createdAt: '2026-11-27T10:00:00.000Z',
  finishedAt: '2026-11-27T10:00:05.000Z',
};

/** A stored log of 503 lines: the server answers `limit` lines after `after`. */
const TOTAL = 503;
const asked: string[] = [];

beforeEach(() => {
  asked.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      asked.push(url.search);
      const q = url.searchParams;
      expect(q.get('jobId')).toBe('12');
      const after = Number(q.get('after') ?? 0);
      const limit = Number(q.get('limit'));
      const seqs = Array.from(
        { length: Math.max(0, Math.min(limit, TOTAL - after)) },
        (_, i) => after + i + 1,
      );
      const body = {
        jobId: 12,
        state: 'succeeded',
        lines: seqs.map((seq) => ({
          seq,
          at: '2026-11-27T10:00:00.000Z',
          stream: 'stdout',
          text: `line ${seq}`,
        })),
        lastSeq: seqs.at(-1) ?? after,
        done: seqs.length < limit,
      };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('ReleaseLogModal', () => {
  it('shows the stored log of the release read-only, 500 lines a page from the server', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MantineProvider>
        <QueryClientProvider client={qc}>
          <ReleaseLogModal app="shop" release={release} onClose={() => undefined} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Build log of release #3' });
    const log = await within(dialog).findByRole('log', { name: 'Build log of release 3' });
    expect(await within(log).findByText('line 1')).toBeTruthy();
    expect(within(log).getByText('line 500')).toBeTruthy();
    expect(within(log).queryByText('line 501')).toBeNull();
    expect(within(dialog).getByText('Lines 1–500')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Previous lines' })).toHaveProperty('disabled', true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next lines' }));
    expect(await within(dialog).findByText('Lines 501–503')).toBeTruthy();
    expect(within(log).getByText('line 503')).toBeTruthy();
    expect(within(log).queryByText('line 1')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Next lines' })).toHaveProperty('disabled', true);
    expect(asked.map((s) => new URLSearchParams(s).get('after'))).toEqual(['0', '500']);
    // Read-only: nothing to type into.
    expect(within(dialog).queryByRole('textbox')).toBeNull();
  });
});
