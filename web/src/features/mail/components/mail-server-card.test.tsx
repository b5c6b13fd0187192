import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MailServerCard } from './mail-server-card.tsx';

describe('MailServerCard', () => {
  it('says why a daemon is not running on purpose (a restore, a restart), never "Running" or "Stopped"', () => {
    render(
      <MantineProvider>
        <MailServerCard
          dashboard={{
            serverStatus: 'offline',
            daemons: [
              {
                name: 'postfix',
                state: 'stopped',
                pid: null,
                since: null,
                detail:
                  'Stopped for a restore since 18:30:00 UTC; Mailroom starts it again when the restore ends.',
                pending: 'restore',
              },
              {
                name: 'dovecot',
                state: 'stopped',
                pid: null,
                since: null,
                detail: 'Restarting.',
                pending: 'restarting',
              },
              { name: 'rspamd', state: 'failed', pid: null, since: null, detail: 'rspamd exited.' },
            ],
          }}
        />
      </MantineProvider>,
    );
    expect(screen.getByText('Stopped for restore')).toBeInTheDocument();
    expect(screen.getByText('Restarting')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(screen.queryByText('Running')).toBeNull();
    expect(screen.queryByText('Stopped')).toBeNull();
    expect(screen.getByText(/Stopped for a restore since/)).toBeInTheDocument();
  });
});
