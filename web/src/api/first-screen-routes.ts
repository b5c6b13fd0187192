import type { EVENT_NAMES as ContractEventNames } from '@mailroom/contract/jobs';
import type { notificationRoutes as contractNotificationRoutes } from '@mailroom/contract/notifications';
import type { searchRoutes as contractSearchRoutes } from '@mailroom/contract/search';
import type { systemRoutes as contractSystemRoutes } from '@mailroom/contract/system';
import type { systemAdminRoutes as contractSystemAdminRoutes } from '@mailroom/contract/system-admin';

/**
 * The catalogue entries the console's first screen calls (the shell: search, bell, maintenance
 * banner, events stream; the dashboard: system status), without their zod schemas, like
 * auth-routes.ts for the sign-in. Importing the contract's catalogues would put zod, and every
 * schema those modules build when they load, into the first screen's chunk: on a phone that is
 * main-thread time before the dashboard answers. The client only reads method, base and path;
 * the types are the contract's (`import type` is erased), and first-screen-routes.test.ts checks
 * that method, base and path equal the contract's entries.
 */

export const systemRoutes = {
  status: { method: 'GET', path: 'system/status' },
} as unknown as Pick<typeof contractSystemRoutes, 'status'>;

export const systemAdminRoutes = {
  settings: { method: 'GET', path: 'system/settings' },
} as unknown as Pick<typeof contractSystemAdminRoutes, 'settings'>;

export const searchRoutes = {
  search: { method: 'GET', path: 'search' },
} as unknown as Pick<typeof contractSearchRoutes, 'search'>;

export const notificationRoutes = {
  list: { method: 'GET', path: 'notifications' },
  markRead: { method: 'POST', path: 'notifications/:id/read' },
  markAllRead: { method: 'POST', path: 'notifications/read-all' },
  remove: { method: 'DELETE', path: 'notifications/:id' },
  clear: { method: 'POST', path: 'notifications/clear' },
} as unknown as Pick<
  typeof contractNotificationRoutes,
  'list' | 'markRead' | 'markAllRead' | 'remove' | 'clear'
>;

/** The contract's EVENTS_PATH: the server's event stream (jobs, notifications). */
export const EVENTS_PATH = '/api/events';
/** The contract's EVENT_NAMES: the event names on that stream. */
export const EVENT_NAMES: typeof ContractEventNames = {
  job: 'job',
  notification: 'notification',
  ready: 'ready',
};
