import type { AcmeTables } from './acme.tables.ts';
import type { ApiMonitoringTables } from './api-monitoring.tables.ts';
import type { BulkTables } from './bulk.tables.ts';
import type { ConsoleTables } from './console.tables.ts';
import type { CoreTables } from './core.tables.ts';
import type { DnsTables } from './dns.tables.ts';
import type { DomainAdminTables } from './domain-admins.tables.ts';
import type { JobTables } from './jobs.tables.ts';
import type { MailTables } from './mail.tables.ts';
import type { MailboxAccountTables } from './mailbox-accounts.tables.ts';
import type { MfaTables } from './mfa.tables.ts';
import type { PagingTables } from './paging.tables.ts';
import type { PipelineTables } from './pipeline.tables.ts';
import type { SecurityTables } from './security.tables.ts';
import type { SslTables } from './ssl.tables.ts';
import type { SystemAdminTables } from './system-admin.tables.ts';
import type { WebTables } from './web.tables.ts';

// Each area declares its tables beside its migration and adds them here.
export interface Database
  extends
    CoreTables,
    DnsTables,
    MailTables,
    AcmeTables,
    ApiMonitoringTables,
    BulkTables,
    ConsoleTables,
    DomainAdminTables,
    JobTables,
    MailboxAccountTables,
    MfaTables,
    PagingTables,
    PipelineTables,
    SecurityTables,
    SslTables,
    SystemAdminTables,
    WebTables {}
