import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_INDEX } from '../search/search-index.ts';
import { SearchIcon } from '../search/search-icons.tsx';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS, searchEntries } from '../search/search.ts';

/** Ctrl+K: the same index and rules as the header search, in a centred palette. */
export function SearchPalette() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const results = useMemo(() => searchEntries(SEARCH_INDEX, debounced), [debounced]);
  const enough = query.trim().length >= SEARCH_MIN_CHARS;
  const waiting = enough && query !== debounced;

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={null} clearQueryOnClose>
      <Spotlight.Search
        placeholder="Search pages and settings…"
        aria-label="Global search"
        leftSection={<IconSearch size={18} aria-hidden />}
      />
      <Spotlight.ActionsList aria-label="Search results">
        {!enough ? (
          <Spotlight.Empty>Type at least {SEARCH_MIN_CHARS} characters</Spotlight.Empty>
        ) : waiting ? (
          <Spotlight.Empty>Searching…</Spotlight.Empty>
        ) : results.length === 0 ? (
          <Spotlight.Empty>No results</Spotlight.Empty>
        ) : (
          results.map((r) => (
            <Spotlight.Action key={r.id} onClick={() => void navigate(r.route)} aria-label={r.title}>
              <Group wrap="nowrap" gap="sm" w="100%">
                <SearchIcon name={r.icon} />
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {r.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {r.description}
                  </Text>
                </div>
                <Badge size="xs" variant="light" color="gray">
                  {r.category}
                </Badge>
              </Group>
            </Spotlight.Action>
          ))
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
