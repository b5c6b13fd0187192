import type { CoreTables } from './core.tables.ts';
import type { DnsTables } from './dns.tables.ts';
import type { MailTables } from './mail.tables.ts';

// Each area declares its tables beside its migration and adds them here.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database extends CoreTables, DnsTables, MailTables {}
