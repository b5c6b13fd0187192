import type { CoreTables } from './core.tables.ts';
import type { DnsTables } from './dns.tables.ts';
import type { JobTables } from './jobs.tables.ts';
import type { MailTables } from './mail.tables.ts';
import type { MfaTables } from './mfa.tables.ts';
import type { PagingTables } from './paging.tables.ts';
import type { PipelineTables } from './pipeline.tables.ts';
import type { SecurityTables } from './security.tables.ts';

// Each area declares its tables beside its migration and adds them here.
export interface Database
  extends
    CoreTables,
    DnsTables,
    MailTables,
    JobTables,
    PagingTables,
    PipelineTables,
    SecurityTables,
    MfaTables {}
