import { defaultMailSettings, type MailSettingsResponse } from '@mailroom/contract/mail';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { checkWarnings, SettingsStatusPanel } from './settings-status-panel.tsx';

function loaded(
  filter: MailSettingsResponse['filter'],
  more: Partial<MailSettingsResponse> = {},
): MailSettingsResponse {
  const settings = defaultMailSettings('mx1.example.org', 'example.org');
  return {
    settings,
    defaults: settings,
    version: 3,
    appliedAt: null,
    check: null,
    filter,
    hostWarnings: [],
    ...more,
  };
}

const show = (filter: MailSettingsResponse['filter'], more: Partial<MailSettingsResponse> = {}) =>
  render(
    <MantineProvider>
      <SettingsStatusPanel loaded={loaded(filter, more)} dkim={{ data: [], loading: false, error: null }} />
    </MantineProvider>,
  );

describe('SettingsStatusPanel', () => {
  it('shows a filter that is not running, with the reason and the fix', () => {
    show({
      state: 'stopped',
      detail: 'rspamd is not answering on 127.0.0.1:11332: Postfix defers mail (4xx) until it runs.',
      virusScan: {
        available: false,
        active: false,
        detail: 'Virus scanning is not available: ClamAV is not installed.',
      },
    });
    expect(screen.getByText('Mail filter (rspamd)')).toBeInTheDocument();
    expect(screen.getByText('not running')).toBeInTheDocument();
    expect(screen.getByText(/Postfix defers mail/)).toBeInTheDocument();
    expect(screen.getByText('not available')).toBeInTheDocument();
    expect(screen.getByText(/ClamAV is not installed/)).toBeInTheDocument();
  });

  it('shows a running filter and active virus scanning', () => {
    show({
      state: 'running',
      detail: 'rspamd answers on 127.0.0.1:11332 (milter).',
      virusScan: { available: true, active: true, detail: 'ClamAV and its signatures are installed.' },
    });
    expect(screen.getByText('running')).toBeInTheDocument();
    expect(screen.queryByText('not running')).toBeNull();
    expect(screen.getByText(/answers on 127\.0\.0\.1:11332/)).toBeInTheDocument();
  });
});

describe('host names that are not public (issue 22 item 16)', () => {
  it('says "passed, 1 warning", not "passed", and names the host', () => {
    const warning =
      'MX target mail.localdomain is not a public host name (.localdomain names are not resolvable on the public Internet): other servers and clients cannot reach it.';
    show(
      {
        state: 'running',
        detail: 'rspamd answers on 127.0.0.1:11332 (milter).',
        virusScan: { available: true, active: true, detail: 'ClamAV and its signatures are installed.' },
      },
      { check: { ok: true, output: 'postconf: main.cf and master.cf parsed' }, hostWarnings: [warning] },
    );
    expect(screen.getByText('passed, 1 warning')).toBeInTheDocument();
    expect(screen.queryByText('passed')).toBeNull();
    expect(screen.getByText(warning)).toBeInTheDocument();
  });
});

describe('configuration check wording (issue 12)', () => {
  it('counts the warnings the checker printed, so "passed" never sits above them unqualified', () => {
    expect(checkWarnings('')).toBe(0);
    expect(
      checkWarnings(
        [
          'postconf: warning: /etc/postfix/main.cf: unused parameter: x=y',
          'postmap: fatal: open /etc/postfix/virtual: No such file or directory',
          'all good',
        ].join('\n'),
      ),
    ).toBe(2);
  });
});
