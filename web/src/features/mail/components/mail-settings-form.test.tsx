import { defaultMailSettings, type MailSettingsResponse } from '@mailroom/contract/mail';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { MailSettingsForm } from './mail-settings-form.tsx';

function loaded(): MailSettingsResponse {
  return {
    settings: {
      ...defaultMailSettings('mx1.example.org', 'example.org'),
      maxRecipients: 250,
      enableDMARC: true,
    },
    defaults: defaultMailSettings('host.local', 'local.test'),
    version: 7,
    appliedAt: null,
    check: null,
    hostWarnings: [],
    filter: {
      state: 'running',
      detail: 'rspamd answers on 127.0.0.1:11332 (milter).',
      virusScan: {
        available: false,
        active: false,
        detail: 'Virus scanning is not available: ClamAV is not installed (Debian package: clamav-daemon).',
      },
    },
  };
}

function setup() {
  const onSave = vi.fn(async () => undefined);
  render(
    <MantineProvider>
      <ModalsProvider>
        <RouterProvider
          // The form guards unsaved changes with useBlocker, which needs a data router.
          router={createMemoryRouter([
            {
              path: '*',
              element: <MailSettingsForm loaded={loaded()} saving={false} onSave={onSave} />,
            },
          ])}
        />
      </ModalsProvider>
    </MantineProvider>,
  );
  return { onSave, user: userEvent.setup() };
}

// Typing through a whole form is slow on a busy 2-core machine.
describe('MailSettingsForm', { timeout: 30_000 }, () => {
  it('says plainly under Enable Virus Scan that ClamAV is missing', () => {
    setup();
    const toggle = screen.getByRole('switch', { name: 'Enable Virus Scan' });
    expect(toggle).toHaveAccessibleDescription(/ClamAV is not installed/);
    expect(screen.getByRole('switch', { name: 'Enable Spam Filter' })).not.toHaveAccessibleDescription();
  });

  it('keeps at least one MX record', async () => {
    const { user } = setup();
    expect(screen.getByRole('button', { name: 'Remove MX record 1' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Add MX Record' }));
    expect(screen.getByRole('textbox', { name: 'MX Host of MX record 2' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Priority of MX record 2' })).toHaveValue('20');
    expect(screen.getByRole('button', { name: 'Remove MX record 1' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Remove MX record 2' }));
    expect(screen.queryByRole('textbox', { name: 'MX Host of MX record 2' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove MX record 1' })).toBeDisabled();
  });

  it("refuses numbers below 1 with '{Label} must be at least 1'", async () => {
    const { user, onSave } = setup();
    const field = screen.getByRole('textbox', { name: /Max Recipients/ });
    await user.clear(field);
    await user.type(field, '0');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Max Recipients must be at least 1')).toBeInTheDocument();
    await user.clear(field);
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Max Recipients must be at least 1')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves the parsed settings with the loaded version', async () => {
    const { user, onSave } = setup();
    const host = screen.getByRole('textbox', { name: /^Hostname/ });
    await user.clear(host);
    await user.type(host, 'Mail.Example.org');
    await user.click(screen.getByRole('switch', { name: 'Enable Virus Scan' }));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const [settings, version] = onSave.mock.calls[0] as unknown as [Record<string, unknown>, number];
    expect(version).toBe(7);
    expect(settings).toMatchObject({
      hostname: 'mail.example.org',
      enableVirusScan: false,
      maxRecipients: 250,
      enableDMARC: true,
    });
  });

  it('resets the form to the defaults after confirming', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Reset to Defaults' }));
    expect(
      await screen.findByText('Are you sure you want to reset all settings to defaults?'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Hostname/ })).toHaveValue('host.local'));
    expect(screen.getByRole('textbox', { name: /Max Recipients/ })).toHaveValue('100');
    expect(screen.getByRole('switch', { name: 'Enable DMARC' })).not.toBeChecked();
  });
});
