import { useSyncExternalStore } from 'react';

/** Spec §3/§4/§9 notification rules. */
export const MAX_NOTIFICATIONS = 50;
export const AUTO_HIDE_MS = 5000;
export const BADGE_MAX = 99;

export type NotificationType = 'success' | 'error' | 'warning' | 'info';
export type NotificationActionStyle = 'primary' | 'danger' | 'secondary';

export interface NotificationAction {
  label: string;
  style: NotificationActionStyle;
  onClick: () => void;
}

export interface NotifyInput {
  type: NotificationType;
  title: string;
  message: string;
  persistent?: boolean;
  actions?: NotificationAction[];
  /**
   * The action this is about (`system-status.refresh`, `service.postfix.restart`…). A success with
   * the same key takes away the earlier failures and warnings of that action: a "Failed to …"
   * does not stay up once the same action worked.
   */
  key?: string;
}

export interface AppNotification {
  id: string;
  type: NotificationType;
  title: string;
  message: string;
  timestamp: Date;
  read: boolean;
  persistent: boolean;
  actions: NotificationAction[];
  key?: string;
}

export type NotificationsAction =
  | { type: 'add'; notification: AppNotification }
  | { type: 'markRead'; id: string }
  | { type: 'markAllRead' }
  | { type: 'remove'; id: string }
  | { type: 'clearAll' }
  | { type: 'clearRead' };

/** Success and info hide themselves; errors and warnings stay until dismissed. */
export function defaultPersistent(type: NotificationType): boolean {
  return type === 'error' || type === 'warning';
}

/** The bell's badge: nothing at 0, the count up to 99, then '99+'. */
export function badgeLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

/** Newest first; the oldest fall off beyond the cap. */
export function reduceNotifications(
  state: AppNotification[],
  action: NotificationsAction,
): AppNotification[] {
  switch (action.type) {
    case 'add':
      return [action.notification, ...state].slice(0, MAX_NOTIFICATIONS);
    case 'markRead':
      return state.map((n) => (n.id === action.id && !n.read ? { ...n, read: true } : n));
    case 'markAllRead':
      return state.some((n) => !n.read) ? state.map((n) => (n.read ? n : { ...n, read: true })) : state;
    case 'remove':
      return state.filter((n) => n.id !== action.id);
    case 'clearAll':
      return state.length ? [] : state;
    case 'clearRead':
      return state.filter((n) => !n.read);
  }
}

export interface StoreOptions {
  now?: () => Date;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export function createNotificationsStore(opts: StoreOptions = {}) {
  const now = opts.now ?? (() => new Date());
  const setTimer = opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));

  let state: AppNotification[] = [];
  let seq = 0;
  const timers = new Map<string, unknown>();
  const listeners = new Set<() => void>();
  const addedListeners = new Set<(n: AppNotification) => void>();
  const removedListeners = new Set<(id: string) => void>();

  function dispatch(action: NotificationsAction): void {
    const next = reduceNotifications(state, action);
    if (next === state) return;
    const kept = new Set(next.map((n) => n.id));
    for (const [id, handle] of timers) {
      if (!kept.has(id)) {
        clearTimer(handle);
        timers.delete(id);
      }
    }
    state = next;
    for (const l of listeners) l();
  }

  /** The action `key` worked: its earlier failures and warnings go (from the bell and the screen). */
  function succeeded(key: string): void {
    for (const old of state)
      if (old.key === key && (old.type === 'error' || old.type === 'warning')) {
        dispatch({ type: 'remove', id: old.id });
        for (const l of removedListeners) l(old.id);
      }
  }

  function notify(input: NotifyInput): string {
    if (input.key && (input.type === 'success' || input.type === 'info')) succeeded(input.key);
    seq += 1;
    const id = `n${Date.now().toString(36)}-${seq}`;
    const notification: AppNotification = {
      id,
      type: input.type,
      title: input.title,
      message: input.message,
      timestamp: now(),
      read: false,
      persistent: input.persistent ?? defaultPersistent(input.type),
      actions: input.actions ?? [],
      ...(input.key ? { key: input.key } : {}),
    };
    dispatch({ type: 'add', notification });
    if (!notification.persistent) {
      timers.set(
        id,
        setTimer(() => {
          timers.delete(id);
          dispatch({ type: 'remove', id });
        }, AUTO_HIDE_MS),
      );
    }
    for (const l of addedListeners) l(notification);
    return id;
  }

  return {
    notify,
    succeeded,
    markRead: (id: string) => dispatch({ type: 'markRead', id }),
    markAllRead: () => dispatch({ type: 'markAllRead' }),
    remove: (id: string) => dispatch({ type: 'remove', id }),
    clearAll: () => dispatch({ type: 'clearAll' }),
    clearRead: () => dispatch({ type: 'clearRead' }),
    getSnapshot: (): AppNotification[] => state,
    subscribe: (listener: () => void): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** For the shell's toasts: called once per new notification. */
    onAdded: (listener: (n: AppNotification) => void): (() => void) => {
      addedListeners.add(listener);
      return () => addedListeners.delete(listener);
    },
    /** For the shell's toasts: a notification a later success of the same action took away. */
    onSuperseded: (listener: (id: string) => void): (() => void) => {
      removedListeners.add(listener);
      return () => removedListeners.delete(listener);
    },
  };
}

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

/** The app's one store. */
export const notificationsStore = createNotificationsStore();

export function notify(input: NotifyInput): string {
  return notificationsStore.notify(input);
}

/** The action `key` worked without a message of its own: its earlier failures go. */
export function actionSucceeded(key: string): void {
  notificationsStore.succeeded(key);
}

export function useNotifications() {
  const notifications = useSyncExternalStore(
    notificationsStore.subscribe,
    notificationsStore.getSnapshot,
    notificationsStore.getSnapshot,
  );
  return {
    notifications,
    unreadCount: notifications.filter((n) => !n.read).length,
    markRead: notificationsStore.markRead,
    markAllRead: notificationsStore.markAllRead,
    remove: notificationsStore.remove,
    clearAll: notificationsStore.clearAll,
    clearRead: notificationsStore.clearRead,
  };
}
