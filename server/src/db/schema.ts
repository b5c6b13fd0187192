import type { CoreTables } from './core.tables.ts';

// Each area declares its tables beside its migration and adds them here.
export interface Database extends CoreTables {}
