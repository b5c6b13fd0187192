import { describe, expect, it, vi } from 'vitest';
import {
  AUTO_HIDE_MS,
  badgeLabel,
  createNotificationsStore,
  defaultPersistent,
  MAX_NOTIFICATIONS,
  reduceNotifications,
  type AppNotification,
} from './notifications-store.ts';

function manualTimers() {
  const pending = new Map<number, { fn: () => void; at: number }>();
  let now = 0;
  let next = 1;
  return {
    setTimer: (fn: () => void, ms: number) => {
      const id = next++;
      pending.set(id, { fn, at: now + ms });
      return id;
    },
    clearTimer: (h: unknown) => pending.delete(h as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...pending]) {
        if (t.at <= now) {
          pending.delete(id);
          t.fn();
        }
      }
    },
    get count() {
      return pending.size;
    },
  };
}

describe('notification rules', () => {
  it('success and info default to non-persistent; error and warning to persistent', () => {
    expect(defaultPersistent('success')).toBe(false);
    expect(defaultPersistent('info')).toBe(false);
    expect(defaultPersistent('error')).toBe(true);
    expect(defaultPersistent('warning')).toBe(true);
  });

  it('badge shows nothing at 0, the count up to 99, then 99+', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
    expect(badgeLabel(5000)).toBe('99+');
  });

  it('keeps at most 50, newest first', () => {
    const store = createNotificationsStore({ setTimer: () => 0, clearTimer: () => undefined });
    for (let i = 0; i < 60; i++) store.notify({ type: 'error', title: `t${i}`, message: 'm' });
    const list = store.getSnapshot();
    expect(MAX_NOTIFICATIONS).toBe(50);
    expect(list).toHaveLength(50);
    expect(list[0]!.title).toBe('t59');
    expect(list[49]!.title).toBe('t10');
  });

  it('hides non-persistent ones after 5000 ms and keeps persistent ones', () => {
    const timers = manualTimers();
    const store = createNotificationsStore(timers);
    store.notify({ type: 'success', title: 'saved', message: 'ok' });
    store.notify({ type: 'error', title: 'failed', message: 'no' });
    store.notify({ type: 'error', title: 'brief error', message: 'x', persistent: false });
    store.notify({ type: 'info', title: 'sticky info', message: 'x', persistent: true });
    expect(AUTO_HIDE_MS).toBe(5000);
    timers.advance(4999);
    expect(store.getSnapshot()).toHaveLength(4);
    timers.advance(1);
    expect(store.getSnapshot().map((n) => n.title)).toEqual(['sticky info', 'failed']);
  });

  it('clears the auto-hide timer of a notification removed earlier', () => {
    const timers = manualTimers();
    const store = createNotificationsStore(timers);
    const id = store.notify({ type: 'success', title: 'a', message: 'b' });
    expect(timers.count).toBe(1);
    store.remove(id);
    expect(timers.count).toBe(0);
  });

  it('marks read on click and all at once; clears read or all', () => {
    const store = createNotificationsStore({ setTimer: () => 0, clearTimer: () => undefined });
    const a = store.notify({ type: 'error', title: 'a', message: '' });
    store.notify({ type: 'warning', title: 'b', message: '' });
    store.notify({ type: 'error', title: 'c', message: '' });
    store.markRead(a);
    expect(
      store
        .getSnapshot()
        .filter((n) => n.read)
        .map((n) => n.title),
    ).toEqual(['a']);
    store.clearRead();
    expect(store.getSnapshot().map((n) => n.title)).toEqual(['c', 'b']);
    store.markAllRead();
    expect(store.getSnapshot().every((n) => n.read)).toBe(true);
    store.clearAll();
    expect(store.getSnapshot()).toEqual([]);
  });

  it('records the time, the actions and notifies subscribers and toast listeners', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    const store = createNotificationsStore({ now: () => at, setTimer: () => 0, clearTimer: () => undefined });
    const changed = vi.fn();
    const added = vi.fn();
    store.subscribe(changed);
    store.onAdded(added);
    const onClick = vi.fn();
    store.notify({
      type: 'info',
      title: 't',
      message: 'm',
      actions: [{ label: 'Undo', style: 'danger', onClick }],
    });
    const n = store.getSnapshot()[0]!;
    expect(n.timestamp).toBe(at);
    expect(n.read).toBe(false);
    expect(n.actions[0]!.style).toBe('danger');
    expect(changed).toHaveBeenCalledTimes(1);
    expect(added).toHaveBeenCalledWith(n);
  });

  it('the reducer returns the same state when nothing changes', () => {
    const s: AppNotification[] = [];
    expect(reduceNotifications(s, { type: 'clearAll' })).toBe(s);
    expect(reduceNotifications(s, { type: 'markAllRead' })).toBe(s);
  });
});

describe('a failure of an action that then succeeds (issue 22 #19)', () => {
  it('goes away, from the bell and the screen, when the same action then succeeds', () => {
    const store = createNotificationsStore();
    const gone: string[] = [];
    store.onSuperseded((id) => gone.push(id));
    const failed = store.notify({
      type: 'error',
      title: 'Failed to refresh system status',
      message: 'Server Error: 500',
      key: 'system-status.refresh',
    });
    const other = store.notify({
      type: 'error',
      title: 'Failed to save',
      message: 'x',
      key: 'settings.save',
    });
    store.notify({
      type: 'success',
      title: 'System status refreshed',
      message: 'Status: running',
      key: 'system-status.refresh',
    });
    const ids = store.getSnapshot().map((n) => n.id);
    expect(ids).not.toContain(failed);
    expect(ids).toContain(other);
    expect(gone).toEqual([failed]);
    store.succeeded('settings.save');
    expect(store.getSnapshot().map((n) => n.id)).not.toContain(other);
  });
});
