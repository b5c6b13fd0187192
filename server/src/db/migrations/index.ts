import type { Migration } from 'kysely';
import * as m0001 from './0001-core.ts';
import * as m0002 from './0002-mail.ts';
import * as m0003 from './0003-dns.ts';
import * as m0004 from './0004-mail-system-aliases.ts';
import * as m0005 from './0005-pipeline.ts';
import * as m0006 from './0006-security.ts';
import * as m0007 from './0007-jobs.ts';
import * as m0010 from './0010-paging.ts';
import * as m0013 from './0013-accounts-mfa.ts';

/** Every migration, in order. Add one line per new numbered file. */
export const migrations: Record<string, Migration> = {
  '0001-core': m0001,
  '0002-mail': m0002,
  '0003-dns': m0003,
  '0004-mail-system-aliases': m0004,
  '0005-pipeline': m0005,
  '0006-security': m0006,
  '0007-jobs': m0007,
  '0010-paging': m0010,
  '0013-accounts-mfa': m0013,
};
