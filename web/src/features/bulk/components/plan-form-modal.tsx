import {
  type BulkFilter,
  type BulkOperation,
  type BulkOperationId,
  type BulkTarget,
  type TargetKind,
  BULK_CSV_MAX,
  bulkLabels,
  bulkMessages,
} from '@mailroom/contract/bulk';
import {
  Alert,
  Button,
  FileInput,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { usePlanBulk } from '../use-plan-bulk.ts';

const TARGET_LABELS: Record<TargetKind, string> = {
  all: 'All',
  selected: 'Selected',
  filtered: 'Filtered',
  csv: 'CSV file',
};

export interface PlanSeed {
  operation: BulkOperationId;
  keys?: string[];
  filter?: BulkFilter;
}

/**
 * Chooses the items of a run (the operation's Target Items: selected, filtered, all or a CSV) and
 * makes the plan: a dry run that changes nothing and answers what each item would do.
 */
export function PlanFormModal({
  operations,
  seed,
  onClose,
  onPlanned,
}: {
  operations: BulkOperation[];
  seed?: PlanSeed | undefined;
  onClose: () => void;
  onPlanned: (runId: number) => void;
}) {
  const [opId, setOpId] = useState<BulkOperationId>(seed?.operation ?? operations[0]!.id);
  const op = operations.find((o) => o.id === opId) ?? operations[0]!;
  const initialKind: TargetKind = seed?.keys ? 'selected' : seed?.filter ? 'filtered' : op.config.targetItems;
  const [kind, setKind] = useState<TargetKind>(
    op.targets.includes(initialKind) ? initialKind : op.targets[0]!,
  );
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<File | null>(null);
  const [keys, setKeys] = useState((seed?.keys ?? []).join('\n'));
  const [filter, setFilter] = useState<BulkFilter>(seed?.filter ?? {});
  const [ttl, setTtl] = useState<number | string>('');
  const plan = usePlanBulk();

  const changeOp = (id: BulkOperationId) => {
    setOpId(id);
    const next = operations.find((o) => o.id === id)!;
    setKind(next.targets.includes(kind) ? kind : next.config.targetItems);
  };
  const readFile = async (f: File | null) => {
    setFileName(f);
    setCsv(f ? await f.text() : '');
  };
  const target = (): BulkTarget => {
    switch (kind) {
      case 'csv':
        return { kind, csv };
      case 'selected':
        return { kind, keys: keys.split(/\s*[\n,]\s*/).filter(Boolean) };
      case 'filtered':
        return { kind, filter };
      case 'all':
        return { kind };
    }
  };
  const needsTtl = op.id === 'dns.record.update' && kind !== 'csv';
  const submit = () =>
    plan.mutate(
      {
        operation: op.id,
        target: target(),
        config: { ...op.config, targetItems: kind },
        ...(needsTtl && ttl !== '' ? { options: { ttl: Number(ttl) } } : {}),
      },
      { onSuccess: (a) => onPlanned(a.run.id) },
    );
  const blocked =
    (kind === 'csv' && !csv) ||
    (kind === 'selected' && !keys.trim()) ||
    (needsTtl && ttl === '') ||
    csv.length > BULK_CSV_MAX;
  const filterFields =
    op.category === 'dns'
      ? (['q', 'zone', 'type'] as const)
      : op.category === 'ssl'
        ? (['q', 'status'] as const)
        : (['q', 'domain', 'status'] as const);
  const filterLabels: Record<string, string> = {
    q: 'Search',
    zone: 'Zone',
    type: 'Type',
    domain: 'Domain',
    status: 'Status',
  };

  return (
    <Modal opened onClose={onClose} title="Plan a bulk operation" centered size="lg">
      <Stack gap="sm">
        {operations.length > 1 ? (
          <Select
            label="Operation"
            data={operations.map((o) => ({ value: o.id, label: o.name }))}
            value={opId}
            onChange={(v) => v && changeOp(v as BulkOperationId)}
            allowDeselect={false}
          />
        ) : (
          <Text fw={500}>{op.name}</Text>
        )}
        <Text size="sm" c="dimmed">
          {op.description}. {bulkLabels.batchSize}: {op.config.batchSize} · {bulkLabels.continueOnError}:{' '}
          {op.config.continueOnError ? 'on' : 'off'}
        </Text>
        {op.targets.length > 1 && (
          <div>
            <Text size="sm" fw={500} mb={4}>
              {bulkLabels.targetItems}
            </Text>
            <SegmentedControl
              fullWidth
              data={op.targets.map((t) => ({ value: t, label: TARGET_LABELS[t] }))}
              value={kind}
              onChange={(v) => setKind(v as TargetKind)}
            />
          </div>
        )}
        {kind === 'csv' && (
          <>
            <FileInput
              label="CSV file"
              description={op.csvColumns ? `Columns: ${op.csvColumns} (a header row first)` : undefined}
              placeholder="Choose a .csv file"
              accept=".csv,text/csv"
              value={fileName}
              onChange={(f) => void readFile(f)}
              clearable
            />
            <Textarea
              label="or paste the CSV"
              autosize
              minRows={3}
              maxRows={10}
              value={csv}
              onChange={(e) => {
                setFileName(null);
                setCsv(e.currentTarget.value);
              }}
              error={
                csv.length > BULK_CSV_MAX ? `The CSV must be at most ${BULK_CSV_MAX} characters` : undefined
              }
            />
          </>
        )}
        {kind === 'selected' && (
          <Textarea
            label="Selected items"
            description="One per line (picked in the list screens)"
            autosize
            minRows={3}
            maxRows={10}
            value={keys}
            onChange={(e) => setKeys(e.currentTarget.value)}
            error={!keys.trim() ? bulkMessages.keysRequired : undefined}
          />
        )}
        {kind === 'filtered' && (
          <Group grow wrap="wrap" align="flex-start">
            {filterFields.map((f) => (
              <TextInput
                key={f}
                label={filterLabels[f]}
                value={filter[f] ?? ''}
                onChange={(e) => setFilter((x) => ({ ...x, [f]: e.currentTarget.value || undefined }))}
              />
            ))}
          </Group>
        )}
        {kind === 'all' && (
          <Text size="sm">Every item of this kind, as it stands when the plan is made.</Text>
        )}
        {needsTtl && (
          <NumberInput
            label={bulkLabels.ttl}
            description="The TTL to set (seconds)"
            min={1}
            allowDecimal={false}
            value={ttl}
            onChange={setTtl}
          />
        )}
        {plan.error && (
          <Alert color="red" variant="light" title="The plan could not be made" role="alert">
            {errorMessage(plan.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={submit} loading={plan.isPending} disabled={blocked}>
            Make plan
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
