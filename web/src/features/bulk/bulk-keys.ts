import type { ItemsQuery } from '@mailroom/contract/bulk';

/** The one query-key factory of the bulk area; invalidate only through it. */
export const bulkKeys = {
  all: ['bulk'] as const,
  operations: () => ['bulk', 'operations'] as const,
  runs: () => ['bulk', 'runs'] as const,
  /** Every run's own entries (its figures and its item pages). */
  anyRun: () => ['bulk', 'run'] as const,
  run: (id: number) => ['bulk', 'run', id] as const,
  items: (id: number, q: ItemsQuery) => ['bulk', 'run', id, 'items', q] as const,
};
