import type { DataTableProps } from './data-table/data-table.tsx';

/**
 * What a screen's table passes straight on to the shared data table: the empty text, the server's
 * sort, the selection and the pager. A table component takes its rows and actions and spreads these.
 */
export type TableControls = Pick<
  DataTableProps<unknown>,
  'emptyText' | 'sort' | 'onSortChange' | 'selection' | 'onSelectionChange' | 'pager'
>;
