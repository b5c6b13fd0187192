import type { CoreTables } from './core.tables.ts';
import type { DnsTables } from './dns.tables.ts';
import type { JobTables } from './jobs.tables.ts';
import type { MailTables } from './mail.tables.ts';

// Each area declares its tables beside its migration and adds them here.
export interface Database extends CoreTables, DnsTables, MailTables, JobTables {}
