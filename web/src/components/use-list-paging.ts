import { useEffect, useState } from 'react';
import { type PagePosition, pagePosition, pageQuery } from '../lib/cursor-pages.ts';
import type { ListPagerProps } from './list-pager.tsx';

/** Where a server-paged, selectable list is: its page (cursor or offset) and the selected row ids. */
export interface ListPaging {
  page: number;
  pageSize: number;
  /** The list query's paging part: `cursor` or `offset`, and `limit`. */
  query: ReturnType<typeof pageQuery>;
  setPosition: (pos: PagePosition) => void;
  selection: Set<string>;
  setSelection: (next: Set<string>) => void;
  clearSelection: () => void;
}

/** A page of a server-paged list as its query answers it (the cursors of its neighbours, the total). */
export interface PagedQuery {
  data?:
    { total: number; capped?: boolean; next?: string | undefined; prev?: string | undefined } | undefined;
  isPlaceholderData: boolean;
}

/**
 * The page and selection of a server-paged list: a new search, filter or order (any change of
 * `resetOn`) starts at page 1 with nothing selected.
 */
export function useListPaging(pageSize: number, resetOn: readonly unknown[]): ListPaging {
  const [pos, setPosition] = useState<PagePosition>({ page: 1 });
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const resetKey = JSON.stringify(resetOn);
  useEffect(() => {
    setPosition({ page: 1 });
    setSelection(new Set());
  }, [resetKey]);
  return {
    page: pos.page,
    pageSize,
    query: pageQuery(pos, pageSize),
    setPosition,
    selection,
    setSelection,
    clearSelection: () => setSelection(new Set()),
  };
}

/**
 * The pager of the list `paging` reads: steps follow the server's cursors; after deleting the last
 * rows of the last page it steps back to a page that exists. None while a new search loads (not
 * the previous search's count).
 */
export function useListPager(paging: ListPaging, list: PagedQuery, noun: string): ListPagerProps | undefined {
  const { page, pageSize, setPosition } = paging;
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    if (list.data && page > lastPage) setPosition({ page: lastPage });
  }, [list.data, page, lastPage, setPosition]);
  if (list.isPlaceholderData) return undefined;
  const onPage = (to: number) =>
    setPosition(pagePosition({ page, next: list.data?.next, prev: list.data?.prev }, to));
  return { page, pageSize, total, capped: list.data?.capped, onPage, noun };
}
