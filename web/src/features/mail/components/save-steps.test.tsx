import type { LiveSaveStep } from '@mailroom/contract/mail';
import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SaveSteps } from './save-steps.tsx';

const step = (name: string, state: LiveSaveStep['state'], ms: number | null = null): LiveSaveStep => ({
  name,
  state,
  detail: '',
  ms,
});

describe('SaveSteps (issue 22 #17)', () => {
  it('shows each step with its own state while the save runs: only a step that passed says Passed', () => {
    render(
      <MantineProvider>
        <SaveSteps
          label="Save steps so far"
          steps={[
            step('Prepare the mail host', 'passed', 80),
            step('postfix check', 'running'),
            step('Save the settings', 'pending'),
            step('Put the files live', 'not-run'),
          ]}
        />
      </MantineProvider>,
    );
    const list = screen.getByLabelText('Save steps so far');
    const row = (name: string) => list.querySelector(`[data-step="${name}"]`)!;
    expect(row('Prepare the mail host').textContent).toContain('Passed');
    expect(row('Prepare the mail host').textContent).toContain('80 ms');
    expect(row('postfix check').textContent).toContain('Running');
    expect(row('Save the settings').textContent).toContain('Pending');
    expect(row('Put the files live').textContent).toContain('Not run');
    expect(list.textContent.match(/Passed/g)).toHaveLength(1);
    // No time for a step that has not ended.
    expect(row('postfix check').textContent).not.toMatch(/\d+ ms/);
  });

  it('shows nothing before any step is known', () => {
    const { container } = render(
      <MantineProvider>
        <SaveSteps steps={[]} />
      </MantineProvider>,
    );
    expect(container.querySelector('[data-step]')).toBeNull();
  });
});
