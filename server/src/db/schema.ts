import type { AcmeTables } from './ssl-acme.tables.ts';
import type { ApiMonitoringTables } from './api-monitoring.tables.ts';
import type { BulkTables } from './bulk.tables.ts';
import type { ConsoleTables } from './notifications.tables.ts';
import type { CoreTables } from './auth.tables.ts';
import type { DnsTables } from './dns.tables.ts';
import type { DomainAdminTables } from './auth-domains.tables.ts';
import type { JobTables } from './jobs.tables.ts';
import type { MailTables } from './mail.tables.ts';
import type { MailboxAccountTables } from './mailbox-account.tables.ts';
import type { MfaTables } from './mfa.tables.ts';
import type { PagingTables } from './list-versions.tables.ts';
import type { PipelineTables } from './apply.tables.ts';
import type { SecurityTables } from './rate-limit.tables.ts';
import type { SslTables } from './ssl.tables.ts';
import type { SystemAdminTables } from './system.tables.ts';
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
