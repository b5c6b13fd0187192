import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVER_NOTIFICATIONS_KEY, useServerNotifications } from './use-server-notifications.ts';

const item = {
  id: 7,
  at: '2026-11-23T10:00:00.000Z',
  level: 'success',
  title: 'Backup finished',
  message: 'All mailboxes were saved.',
  jobId: null,
  read: false,
};

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200 });
}

/** A promise the test settles when it chooses. */
function later<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

afterEach(() => vi.unstubAllGlobals());

describe('useServerNotifications', () => {
  it('keeps a cleared notification cleared when a read begun before the clear answers after it', async () => {
    let stored = [item];
    const stale = later<Response>();
    const clearAnswer = later<Response>();
    let lists = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url === '/api/notifications') {
          lists += 1;
          // The second read is the one under way when Clear all is clicked: it answers late,
          // with the list as it was before the clear.
          if (lists === 2) return stale.promise;
          return Promise.resolve(answer({ notifications: stored, unread: stored.length }));
        }
        if (url === '/api/index.php?path=notifications%2Fclear') {
          stored = [];
          return clearAnswer.promise;
        }
        return Promise.resolve(new Response('{"code":"NOT_FOUND","message":"x"}', { status: 404 }));
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useServerNotifications(), { wrapper });
    await waitFor(() => expect(result.current.notifications).toHaveLength(1));

    // The events stream (re)opens and asks for the list again; it is still on its way.
    act(() => void client.invalidateQueries({ queryKey: SERVER_NOTIFICATIONS_KEY }));
    await waitFor(() => expect(lists).toBe(2));
    act(() => result.current.clear('all'));
    await waitFor(() => expect(result.current.notifications).toHaveLength(0));

    // The late read answers with the old list while the clear is still on its way.
    await act(async () => stale.resolve(answer({ notifications: [item], unread: 1 })));
    await waitFor(() => expect(client.getQueryState(SERVER_NOTIFICATIONS_KEY)?.fetchStatus).toBe('idle'));
    expect(client.getQueryData(SERVER_NOTIFICATIONS_KEY)).toEqual({ notifications: [], unread: 0 });
    expect(result.current.notifications).toHaveLength(0);

    // The clear is stored; the read after it says so too.
    await act(async () => clearAnswer.resolve(answer({ success: true })));
    await waitFor(() => expect(lists).toBe(3));
    expect(result.current.notifications).toHaveLength(0);
  });
});
