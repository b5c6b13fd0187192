import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CountedTextarea } from './counted-textarea.tsx';
import { LabelledSelect } from './labelled-select.tsx';
import { LoadState } from './load-state.tsx';
import { PageHeader } from './page-header.tsx';
import { statusColor } from './status-badge.tsx';

const wrap = (ui: React.ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

describe('CountedTextarea', () => {
  it('shows x/y while typing when a maximum is set (uncontrolled)', async () => {
    wrap(<CountedTextarea label="Notes" maxLength={10} />);
    expect(screen.getByText('0/10')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Notes'), 'hello');
    expect(screen.getByText('5/10')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Notes'), ' world!!');
    expect(screen.getByText('10/10')).toBeInTheDocument();
  });

  it('counts a controlled value and shows no counter without a maximum', async () => {
    function Controlled() {
      const [v, setV] = useState('abc');
      return (
        <CountedTextarea
          label="Body"
          maxLength={50}
          value={v}
          onChange={(e) => setV(e.currentTarget.value)}
        />
      );
    }
    wrap(
      <>
        <Controlled />
        <CountedTextarea label="Free" />
      </>,
    );
    expect(screen.getByText('3/50')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Body'), 'd');
    expect(screen.getByText('4/50')).toBeInTheDocument();
    expect(screen.queryByText(/\/undefined/)).toBeNull();
  });
});

describe('LoadState', () => {
  it('shows a spinner, then an error with Try Again and Dismiss, then the content', async () => {
    const retry = vi.fn();
    const dismiss = vi.fn();
    const { rerender } = wrap(
      <LoadState loading error={null} errorTitle="Failed to load mailboxes" loadingLabel="Loading mailboxes…">
        content
      </LoadState>,
    );
    expect(screen.getByText('Loading mailboxes…')).toBeInTheDocument();
    expect(screen.queryByText('content')).toBeNull();

    rerender(
      <MantineProvider>
        <LoadState
          loading={false}
          error="boom"
          errorTitle="Failed to load mailboxes"
          onRetry={retry}
          onDismiss={dismiss}
        >
          content
        </LoadState>
      </MantineProvider>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load mailboxes');
    expect(screen.getByRole('alert')).toHaveTextContent('boom');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(dismiss).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('content')).toBeNull();

    rerender(
      <MantineProvider>
        <LoadState loading={false} error={null} errorTitle="x">
          content
        </LoadState>
      </MantineProvider>,
    );
    expect(screen.getByText('content')).toBeInTheDocument();
  });
});

describe('LabelledSelect', () => {
  it('has label, help text, error text and a loading indicator', () => {
    wrap(
      <LabelledSelect
        label="Zone"
        placeholder="Pick a zone"
        helpText="Where the record goes"
        error="Zone is required"
        loading
        data={['a.com']}
      />,
    );
    expect(screen.getByText('Zone')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Pick a zone')).toBeInTheDocument();
    expect(screen.getByText('Where the record goes')).toBeInTheDocument();
    expect(screen.getByText('Zone is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Loading options')).toBeInTheDocument();
  });
});

describe('PageHeader', () => {
  it('links every crumb but the last', () => {
    wrap(
      <MemoryRouter>
        <PageHeader
          title="Mailboxes"
          breadcrumbs={[
            { label: 'Dashboard', to: '/dashboard' },
            { label: 'Mail Management', to: '/mail' },
            { label: 'Mailboxes' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Mail Management' })).toHaveAttribute('href', '/mail');
    expect(screen.queryByRole('link', { name: 'Mailboxes' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Mailboxes' })).toBeInTheDocument();
  });
});

describe('statusColor', () => {
  it('colours by meaning', () => {
    expect(['active', 'valid', 'online', 'running'].map(statusColor)).toEqual([
      'green',
      'green',
      'green',
      'green',
    ]);
    expect(['pending', 'expiring', 'warning'].map(statusColor)).toEqual(['yellow', 'yellow', 'yellow']);
    expect(['error', 'expired', 'offline', 'disabled', 'suspended'].map(statusColor)).toEqual([
      'red',
      'red',
      'red',
      'red',
      'red',
    ]);
    expect(statusColor('Primary')).toBe('blue');
    expect(statusColor(' ACTIVE ')).toBe('green');
  });
});
