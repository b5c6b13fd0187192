import '@mantine/spotlight/styles.css';
import { Badge, Group, Text } from '@mantine/core';
import { createSpotlight, Spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { SearchIcon } from '../search/search-icons.tsx';
import { SEARCH_MIN_CHARS } from '../search/search.ts';
import { useGlobalSearch } from '../search/use-global-search.ts';

/**
 * The palette's own store: the shell loads this module when the palette is first wanted (or the
 * browser is idle), so Spotlight is not part of the first screen's script.
 */
export const [paletteStore, palette] = createSpotlight();

/** Ctrl+K (and the phone header): the same grouped search as the header box, in a centred palette. */
export function SearchPalette() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const { enough, waiting, groups, count, error } = useGlobalSearch(query);

  return (
    <Spotlight.Root
      store={paletteStore}
      query={query}
      onQueryChange={setQuery}
      shortcut={null}
      clearQueryOnClose
    >
      <Spotlight.Search
        placeholder="Search pages, mailboxes, aliases, domains, zones, records…"
        aria-label="Global search"
        leftSection={<IconSearch size={18} aria-hidden />}
      />
      <Spotlight.ActionsList aria-label="Search results">
        {!enough ? (
          <Spotlight.Empty>Type at least {SEARCH_MIN_CHARS} characters</Spotlight.Empty>
        ) : count === 0 && waiting ? (
          <Spotlight.Empty>Searching…</Spotlight.Empty>
        ) : count === 0 ? (
          <Spotlight.Empty>
            <Text size="sm">No results</Text>
            {error && (
              <Text size="xs" c="dimmed">
                Mailboxes, aliases, domains, zones and records could not be searched: {error}
              </Text>
            )}
          </Spotlight.Empty>
        ) : (
          groups.map((g) => (
            <Spotlight.ActionsGroup key={g.key} label={g.label}>
              {g.results.map((r) => (
                <Spotlight.Action key={r.key} onClick={() => void navigate(r.route)} aria-label={r.title}>
                  <Group wrap="nowrap" gap="sm" w="100%">
                    <SearchIcon name={r.icon} />
                    <div style={{ flex: 1, minWidth: 0 }}>
                      <Text size="sm" fw={500} truncate>
                        {r.title}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {r.description}
                      </Text>
                    </div>
                    <Badge size="xs" variant="light" color="gray">
                      {r.badge}
                    </Badge>
                  </Group>
                </Spotlight.Action>
              ))}
            </Spotlight.ActionsGroup>
          ))
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
