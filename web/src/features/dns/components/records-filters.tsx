import { DNS_RECORD_TYPES } from '@mailroom/contract/dns';
import { Button, Grid, TextInput } from '@mantine/core';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { LabelledSelect } from '../../../components/labelled-select.tsx';
import { ZoneSelect } from './zone-select.tsx';

export const ALL_TYPES = '*';

export interface RecordFilterValues {
  search: string;
  /** A zone, or ALL_ZONES. */
  zone: string;
  /** A record type, or ALL_TYPES. */
  type: string;
}

export interface RecordsFiltersProps {
  value: RecordFilterValues;
  onChange: (next: RecordFilterValues) => void;
  onClear: () => void;
  active: boolean;
}

const TYPE_OPTIONS = [
  { value: ALL_TYPES, label: 'All types' },
  ...DNS_RECORD_TYPES.map((t) => ({ value: t, label: t })),
];

/** Search by name, value and type; filter by zone and type; Clear Filters. */
export function RecordsFilters({ value, onChange, onClear, active }: RecordsFiltersProps) {
  return (
    <Grid align="flex-end" gutter="sm" mb="md">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <TextInput
          label="Search records"
          placeholder="Search by name, value or type..."
          leftSection={<IconSearch size={16} aria-hidden />}
          value={value.search}
          onChange={(e) => onChange({ ...value, search: e.currentTarget.value })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
        <ZoneSelect
          label="Filter by zone"
          value={value.zone}
          onChange={(zone) => onChange({ ...value, zone })}
          withAll
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
        <LabelledSelect
          label="Filter by type"
          data={TYPE_OPTIONS}
          value={value.type}
          onChange={(t) => onChange({ ...value, type: t ?? ALL_TYPES })}
          allowDeselect={false}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 2 }}>
        <Button
          fullWidth
          variant="default"
          leftSection={<IconFilterOff size={16} aria-hidden />}
          onClick={onClear}
          disabled={!active}
        >
          Clear Filters
        </Button>
      </Grid.Col>
    </Grid>
  );
}
