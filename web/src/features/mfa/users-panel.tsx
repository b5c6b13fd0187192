import type { MfaUser, MfaUserListQuery } from '@mailroom/contract/mfa';
import { Group, Loader, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { type PagePosition, pagePosition, pageQuery } from '../../lib/cursor-pages.ts';
import { useMfaUsers } from './use-mfa-users.ts';
import { UsersTable } from './users-table.tsx';

export const MFA_USERS_PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;
const FILTERS = { 'MFA Enabled': 'enabled', 'MFA Disabled': 'disabled' } as const;

/** The Users tab's list: search, filter, sort and page on the server (mfa/users). */
export function useUserList() {
  const [filter, setFilter] = useState('All');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<TableSort>({ id: 'email', desc: false });
  const [pos, setPos] = useState<PagePosition>({ page: 1 });
  // A new search, filter or order starts at page 1.
  useEffect(() => setPos({ page: 1 }), [q, filter, sort]);
  const mfa = FILTERS[filter as keyof typeof FILTERS];
  const query: MfaUserListQuery = {
    ...(q ? { q } : {}),
    ...(mfa ? { mfa } : {}),
    ...pageQuery(pos, MFA_USERS_PAGE_SIZE),
    sort: sortParam(sort) as MfaUserListQuery['sort'],
  };
  const list = useMfaUsers(query);
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / MFA_USERS_PAGE_SIZE));
  // After the last row of the last page goes, step back to a page that exists.
  useEffect(() => {
    if (list.data && pos.page > lastPage) setPos({ page: lastPage });
  }, [list.data, pos.page, lastPage]);
  const setPage = (to: number) =>
    setPos(pagePosition({ page: pos.page, next: list.data?.next, prev: list.data?.prev }, to));
  return { list, filter, setFilter, search, setSearch, sort, setSort, page: pos.page, setPage, total };
}

export type UserList = ReturnType<typeof useUserList>;

/** Filter, search box and the paged users table of the MFA Management screen. */
export function UsersPanel({
  users,
  onView,
  onToggle,
}: {
  users: UserList;
  onView: (u: MfaUser) => void;
  onToggle: (u: MfaUser) => void;
}) {
  const { list } = users;
  return (
    <>
      <Group mb="sm" wrap="wrap">
        <Select
          aria-label="Filter users"
          data={['All', ...Object.keys(FILTERS)]}
          value={users.filter}
          onChange={(v) => users.setFilter(v ?? 'All')}
          allowDeselect={false}
          w={180}
        />
        <TextInput
          aria-label="Search users"
          placeholder="Search by name or email"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={users.search}
          onChange={(e) => users.setSearch(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200 }}
        />
        {list.isFetching && !list.isPending && <Loader size="sm" aria-label="Refreshing users" />}
      </Group>
      <LoadState
        loading={list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        errorTitle="Failed to load users"
        loadingLabel="Loading users…"
        onRetry={() => void list.refetch()}
      >
        {list.data && (
          <UsersTable
            users={list.data.data}
            withStatus={false}
            onManage={onView}
            onView={onView}
            onToggle={onToggle}
            sort={users.sort}
            onSortChange={users.setSort}
            pager={
              // No total while a new search loads: not the previous search's count.
              list.isPlaceholderData
                ? undefined
                : {
                    page: users.page,
                    pageSize: MFA_USERS_PAGE_SIZE,
                    total: users.total,
                    onPage: users.setPage,
                    noun: 'users',
                  }
            }
          />
        )}
      </LoadState>
    </>
  );
}
