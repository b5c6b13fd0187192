import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState, type Ref } from 'react';
import { useNavigate } from 'react-router';
import classes from './global-search.module.css';
import { SearchIcon } from '../search/search-icons.tsx';
import { SEARCH_BLUR_HIDE_MS } from '../search/search.ts';
import { useGlobalSearch } from '../search/use-global-search.ts';

/**
 * The header search (spec §2/§4/§5/§9): ≥ 2 characters, 300 ms debounce, hides 200 ms after blur.
 * Pages and the server's mailboxes, aliases, domains, zones and records, grouped; arrows move
 * through every group, Enter opens the highlighted one.
 */
export function GlobalSearch({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const combobox = useCombobox();
  const { enough, waiting, groups, count, error } = useGlobalSearch(value);

  useEffect(() => {
    if (count > 0) combobox.selectFirstOption();
    // combobox is a new object on every render; selecting once per result list is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [groups]);

  useEffect(
    () => () => {
      if (hideTimer.current) clearTimeout(hideTimer.current);
    },
    [],
  );

  const routes = new Map(groups.flatMap((g) => g.results.map((r) => [r.key, r.route] as const)));
  const select = (key: string) => {
    const route = routes.get(key);
    if (!route) return;
    setValue('');
    combobox.closeDropdown();
    void navigate(route);
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={select}
      withinPortal={false}
      position="bottom-start"
      hideDetached={false}
    >
      <Combobox.Target>
        <TextInput
          ref={inputRef}
          w={{ base: '100%', md: 340 }}
          placeholder="Search… (press /)"
          aria-label="Search"
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={waiting ? <Loader size="xs" aria-label="Searching" /> : null}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => {
            if (hideTimer.current) clearTimeout(hideTimer.current);
            combobox.openDropdown();
          }}
          onBlur={() => {
            hideTimer.current = setTimeout(() => combobox.closeDropdown(), SEARCH_BLUR_HIDE_MS);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              combobox.closeDropdown();
              e.currentTarget.blur();
            }
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!enough} miw={380} data-testid="search-dropdown">
        <Combobox.Options aria-label="Search results" mah={460} style={{ overflowY: 'auto' }}>
          {count === 0 && waiting ? (
            <Combobox.Empty>
              <Group gap="xs" justify="center">
                <Loader size="xs" aria-hidden />
                <Text size="sm">Searching…</Text>
              </Group>
            </Combobox.Empty>
          ) : count === 0 ? (
            <Combobox.Empty>
              <Text size="sm">No results</Text>
              {error && (
                <Text size="xs" c="dimmed">
                  Mailboxes, aliases, domains, zones and records could not be searched: {error}
                </Text>
              )}
            </Combobox.Empty>
          ) : (
            groups.map((g) => (
              <Combobox.Group key={g.key} label={g.more ? `${g.label} (first ${g.results.length})` : g.label}>
                {g.results.map((r) => (
                  <Combobox.Option value={r.key} key={r.key} aria-label={r.title} className={classes.option}>
                    <Group wrap="nowrap" gap="sm">
                      <SearchIcon name={r.icon} />
                      <div style={{ flex: 1, minWidth: 0 }}>
                        <Text size="sm" fw={500} truncate>
                          {r.title}
                        </Text>
                        <Text size="xs" truncate className={classes.secondary}>
                          {r.description}
                        </Text>
                      </div>
                      <Badge size="xs" variant="light" color="gray" className={classes.badge}>
                        {r.badge}
                      </Badge>
                    </Group>
                  </Combobox.Option>
                ))}
              </Combobox.Group>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
