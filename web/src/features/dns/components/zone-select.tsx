import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { LabelledSelect } from '../../../components/labelled-select.tsx';
import { useZones } from '../use-zones.ts';

/** The 'All zones' option of a filter; never a zone name (those contain a dot). */
export const ALL_ZONES = '*';
const OPTION_LIMIT = 50;

export interface ZoneSelectProps {
  label: string;
  value: string;
  onChange: (zone: string) => void;
  /** Adds 'All zones' (value ALL_ZONES) for filters. */
  withAll?: boolean;
  error?: string | undefined;
  disabled?: boolean;
  withAsterisk?: boolean;
  onBlur?: () => void;
}

/**
 * A zone picker that asks the server (search by domain, 50 at a time), so it stays quick with
 * thousands of zones.
 */
export function ZoneSelect({
  label,
  value,
  onChange,
  withAll = false,
  error,
  disabled,
  withAsterisk,
  onBlur,
}: ZoneSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  // While the box shows the chosen zone's own name, list zones in general rather than that one.
  const q =
    debounced && debounced !== value && !(withAll && value === ALL_ZONES && debounced === 'All zones')
      ? debounced
      : undefined;
  const zones = useZones({ q, limit: OPTION_LIMIT }, !disabled);

  const data = useMemo(() => {
    const names = (zones.data?.data ?? []).map((z) => z.domain);
    if (value && value !== ALL_ZONES && !names.includes(value)) names.unshift(value);
    const options = names.map((n) => ({ value: n, label: n }));
    return withAll ? [{ value: ALL_ZONES, label: 'All zones' }, ...options] : options;
  }, [zones.data, value, withAll]);

  return (
    <LabelledSelect
      label={label}
      placeholder={withAll ? 'All zones' : 'Select a zone'}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? (withAll ? ALL_ZONES : ''))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      onBlur={onBlur}
      nothingFoundMessage={zones.isFetching ? 'Searching...' : 'No zones found'}
      loading={zones.isFetching}
      allowDeselect={false}
      error={error}
      disabled={disabled}
      withAsterisk={withAsterisk}
      helpText={
        !withAll && !disabled && (zones.data?.total ?? 0) === 0 && !zones.isFetching && !q
          ? 'Create a zone first on the Zone Management page'
          : undefined
      }
    />
  );
}
