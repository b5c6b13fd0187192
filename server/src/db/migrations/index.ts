import type { Migration } from 'kysely';
import * as m0001 from './0001-core.ts';

/** Every migration, in order. Add one line per new numbered file. */
export const migrations: Record<string, Migration> = {
  '0001-core': m0001,
};
