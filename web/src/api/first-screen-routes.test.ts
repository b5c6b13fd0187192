import {
  EVENT_NAMES as contractEventNames,
  EVENTS_PATH as contractEventsPath,
} from '@mailroom/contract/jobs';
import { notificationRoutes as contractNotifications } from '@mailroom/contract/notifications';
import type { RouteDef } from '@mailroom/contract/route';
import { searchRoutes as contractSearch } from '@mailroom/contract/search';
import { systemRoutes as contractSystem } from '@mailroom/contract/system';
import { systemAdminRoutes as contractSystemAdmin } from '@mailroom/contract/system-admin';
import { describe, expect, it } from 'vitest';
import {
  EVENT_NAMES,
  EVENTS_PATH,
  notificationRoutes,
  searchRoutes,
  systemAdminRoutes,
  systemRoutes,
} from './first-screen-routes.ts';

/** What the client reads of an entry (buildUrl, send): the base defaults to /api. */
const address = (d: RouteDef) => ({ method: d.method, base: d.base ?? '/api', path: d.path });

const tables: [string, Record<string, RouteDef>, Record<string, RouteDef>][] = [
  ['system', systemRoutes, contractSystem],
  ['system-admin', systemAdminRoutes, contractSystemAdmin],
  ['search', searchRoutes, contractSearch],
  ['notifications', notificationRoutes, contractNotifications],
];

describe('zod-free first-screen entries', () => {
  for (const [name, copy, contract] of tables) {
    it.each(Object.keys(copy))(`${name}: %s matches the contract catalogue`, (key) => {
      expect(contract[key], `${name}.${key} is not in the contract`).toBeDefined();
      expect(address(copy[key]!)).toEqual(address(contract[key]!));
    });
  }

  it('the events stream has the contract path and event names', () => {
    expect(EVENTS_PATH).toBe(contractEventsPath);
    expect(EVENT_NAMES).toEqual(contractEventNames);
  });
});
