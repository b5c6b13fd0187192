import type { JobEvent } from '@mailroom/contract/jobs';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { JobProgress } from './job-progress.tsx';

const job = (over: Partial<JobEvent> = {}): JobEvent => ({
  id: 7,
  kind: 'mail.alias.import',
  state: 'running',
  title: 'Alias import',
  phase: 'Checking rows',
  processed: 2500,
  total: 10000,
  counts: {},
  message: null,
  startedBy: 'admin@example.com',
  cancelRequested: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  finishedAt: null,
  ...over,
});

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('JobProgress', () => {
  it('shows the phase, rows done of the total and the share on a labelled bar', () => {
    wrap(<JobProgress job={job()} />);
    expect(screen.getByText('Alias import: Checking rows')).toBeInTheDocument();
    expect(screen.getByText('2,500 / 10,000 (25%)')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar', { name: 'Alias import: Checking rows' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
  });

  it('offers Cancel while running, shows Cancelling… once asked, and nothing after the end', async () => {
    const onCancel = vi.fn();
    const { rerender } = wrap(<JobProgress job={job()} onCancel={onCancel} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    rerender(
      <MantineProvider>
        <JobProgress job={job({ cancelRequested: true })} onCancel={onCancel} />
      </MantineProvider>,
    );
    expect(screen.getByRole('button', { name: 'Cancelling…' })).toBeDisabled();
    rerender(
      <MantineProvider>
        <JobProgress job={job({ state: 'succeeded', phase: null, processed: 10000 })} onCancel={onCancel} />
      </MantineProvider>,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('10,000 / 10,000 (100%)')).toBeInTheDocument();
  });
});
