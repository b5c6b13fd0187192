import type { Migration } from 'kysely';
import * as m0001 from './0001-core.ts';
import * as m0002 from './0002-mail.ts';
import * as m0003 from './0003-dns.ts';
import * as m0004 from './0004-mail-system-aliases.ts';

/** Every migration, in order. Add one line per new numbered file. */
export const migrations: Record<string, Migration> = {
  '0001-core': m0001,
  '0002-mail': m0002,
  '0003-dns': m0003,
  '0004-mail-system-aliases': m0004,
};
