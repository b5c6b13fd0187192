import type { MailSaveProgress } from '@mailroom/contract/mail';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ServerEventListener } from '../../api/job-events.ts';

const listeners = new Set<ServerEventListener>();
vi.mock('../../api/job-events.ts', () => ({
  subscribeServerEvents: (l: ServerEventListener) => {
    listeners.add(l);
    return () => listeners.delete(l);
  },
}));
const { newSaveId, useMailSaveProgress } = await import('./use-mail-save-progress.ts');

const emit = (p: MailSaveProgress) => act(() => listeners.forEach((l) => l.mailSave?.(p)));
const at = (saveId: string, seq: number, state: 'running' | 'passed'): MailSaveProgress => ({
  saveId,
  seq,
  done: false,
  steps: [{ name: 'postconf', state, detail: '', ms: state === 'passed' ? 12 : null }],
});

describe('useMailSaveProgress (issue 22 #17)', () => {
  it('keeps the newest event of its own save only', () => {
    const { result, unmount } = renderHook(() => useMailSaveProgress());
    // Nothing begun: events of any save are left out.
    emit(at('someone-else-1', 1, 'running'));
    expect(result.current.steps).toEqual([]);
    let id = '';
    act(() => {
      id = result.current.begin();
    });
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    emit(at('someone-else-1', 2, 'passed'));
    expect(result.current.steps).toEqual([]);
    emit(at(id, 2, 'passed'));
    // A late, older event does not move a step back.
    emit(at(id, 1, 'running'));
    expect(result.current.steps.map((s) => s.state)).toEqual(['passed']);
    // The next save starts clean.
    act(() => {
      result.current.begin();
    });
    expect(result.current.steps).toEqual([]);
    unmount();
    expect(listeners.size).toBe(0);
  });

  it('makes a different id each time', () => {
    expect(newSaveId()).not.toBe(newSaveId());
  });
});
