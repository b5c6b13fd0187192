import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_INDEX } from '../search/search-index.ts';
import classes from './global-search.module.css';
import { SearchIcon } from '../search/search-icons.tsx';
import {
  SEARCH_BLUR_HIDE_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_CHARS,
  searchEntries,
} from '../search/search.ts';

/** The header search (spec §2/§4/§5/§9): ≥ 2 characters, 300 ms debounce, hides 200 ms after blur. */
export function GlobalSearch({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [debounced] = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const combobox = useCombobox();

  const enough = value.trim().length >= SEARCH_MIN_CHARS;
  const waiting = enough && value !== debounced;
  const results = useMemo(() => searchEntries(SEARCH_INDEX, debounced), [debounced]);

  useEffect(() => {
    if (!waiting && results.length > 0) combobox.selectFirstOption();
    // combobox is a new object on every render; selecting once per result list is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [results, waiting]);

  useEffect(
    () => () => {
      if (hideTimer.current) clearTimeout(hideTimer.current);
    },
    [],
  );

  const select = (route: string) => {
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
      <Combobox.Dropdown hidden={!enough} miw={340} data-testid="search-dropdown">
        <Combobox.Options aria-label="Search results" mah={420} style={{ overflowY: 'auto' }}>
          {waiting ? (
            <Combobox.Empty>
              <Group gap="xs" justify="center">
                <Loader size="xs" aria-hidden />
                <Text size="sm">Searching…</Text>
              </Group>
            </Combobox.Empty>
          ) : results.length === 0 ? (
            <Combobox.Empty>No results</Combobox.Empty>
          ) : (
            results.map((r) => (
              <Combobox.Option value={r.route} key={r.id} aria-label={r.title} className={classes.option}>
                <Group wrap="nowrap" gap="sm">
                  <SearchIcon name={r.icon} />
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={500}>
                      {r.title}
                    </Text>
                    <Text size="xs" truncate className={classes.secondary}>
                      {r.description}
                    </Text>
                  </div>
                  <Badge size="xs" variant="light" color="gray" className={classes.badge}>
                    {r.category}
                  </Badge>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
