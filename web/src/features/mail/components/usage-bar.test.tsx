import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsageBar } from './usage-bar.tsx';

function bar(percent: number | null) {
  render(
    <MantineProvider>
      <UsageBar percent={percent} label="a@example.com" />
    </MantineProvider>,
  );
}

describe('UsageBar', () => {
  it('is red above 80 %', () => {
    bar(81);
    expect(screen.getByText('81%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'a@example.com usage' }).getAttribute('style')).toContain(
      'red',
    );
  });
  it('is not red at 80 %', () => {
    bar(80);
    expect(
      screen.getByRole('progressbar', { name: 'a@example.com usage' }).getAttribute('style'),
    ).not.toContain('red');
  });
  it('caps the bar at 100 % but shows the real percent', () => {
    bar(140);
    expect(screen.getByText('140%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });
  it('shows a dash for an unlimited mailbox', () => {
    bar(null);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('—')).toBeInTheDocument();
  });
});
