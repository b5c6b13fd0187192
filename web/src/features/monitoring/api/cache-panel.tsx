import {
  CACHE_MAX_SIZE,
  CACHE_TTL_CHOICES,
  CACHE_TTL_LABELS,
  CacheForm,
  type CacheState,
} from '@mailroom/contract/api-monitoring';
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';
import { formatCompactNumber } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { numberOrUndefined, type NumberField, zodValidate } from '../../../lib/zod-form.ts';
import { formatPercent } from './health.ts';
import { useClearCache } from './use-clear-cache.ts';
import { useSaveCache } from './use-save-cache.ts';

interface Values {
  enabled: boolean;
  ttl: string;
  maxSize: NumberField;
}

const toInput = (v: Values) => ({
  enabled: v.enabled,
  ttl: v.ttl === '' ? undefined : Number(v.ttl),
  maxSize: numberOrUndefined(v.maxSize),
});

const TTL_DATA = CACHE_TTL_CHOICES.map((s) => ({ value: String(s), label: CACHE_TTL_LABELS[s] }));

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} fz="lg" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/** Spec §2.13 Cache Management: the response cache's real figures (every worker) and its configuration. */
export function CachePanel({ state }: { state: CacheState }) {
  const save = useSaveCache();
  const clear = useClearCache();
  const form = useForm<Values>({
    initialValues: {
      enabled: state.config.enabled,
      ttl: String(state.config.ttl),
      maxSize: state.config.maxSize,
    },
    validate: zodValidate<Values>(CacheForm, toInput),
    validateInputOnChange: true,
  });
  useUnsavedChanges(form.isDirty());
  const s = state.stats;

  const submit = async (values: Values) => {
    try {
      const next = await save.mutateAsync(CacheForm.parse(toInput(values)));
      form.setInitialValues({
        enabled: next.config.enabled,
        ttl: String(next.config.ttl),
        maxSize: next.config.maxSize,
      });
      form.reset();
      notify({
        type: 'success',
        title: 'Cache settings saved',
        message: 'Every server process applies them within 5 seconds.',
      });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to save the cache settings', message: errorMessage(err) });
    }
  };

  const onClear = async () => {
    const ok = await confirmAction({
      title: 'Clear Cache',
      message: 'Empty the response cache of every server process?',
      confirmLabel: 'Clear',
      danger: true,
    });
    if (!ok) return;
    try {
      await clear.mutateAsync();
      notify({
        type: 'success',
        title: 'Cache cleared',
        message: 'Every server process empties its cache within 5 seconds.',
      });
    } catch (err) {
      notify({ type: 'error', title: 'Failed to clear the cache', message: errorMessage(err) });
    }
  };

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="cache-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="cache-title">
          Cache Management
        </Title>
        <Button
          variant="outline"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => void onClear()}
          loading={clear.isPending}
        >
          Clear Cache
        </Button>
      </Group>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 2, sm: 3 }}>
          <Figure label="Hits" value={formatCompactNumber(s.hits)} testId="cache-hits" />
          <Figure label="Misses" value={formatCompactNumber(s.misses)} testId="cache-misses" />
          <Figure label="Hit rate" value={formatPercent(s.hitRate)} testId="cache-hit-rate" />
          <Figure label="Bypasses" value={formatCompactNumber(s.bypasses)} testId="cache-bypasses" />
          <Figure label="Evictions" value={formatCompactNumber(s.evictions)} testId="cache-evictions" />
          <Figure label="Size" value={`${s.size} / ${state.config.maxSize}`} testId="cache-size" />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          Last 24 hours. Cached: the mailbox, alias, DNS and certificate lists (answers of 200, per
          administrator); every change of a list makes its entries stale at once.
        </Text>
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="sm">
            <Switch label="Cache enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select label="TTL" data={TTL_DATA} allowDeselect={false} {...form.getInputProps('ttl')} />
              <NumberInput
                label="Max size"
                min={CACHE_MAX_SIZE.min}
                max={CACHE_MAX_SIZE.max}
                allowDecimal={false}
                {...form.getInputProps('maxSize')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                loading={save.isPending}
                disabled={!form.isValid() || !form.isDirty()}
              >
                Save Cache Settings
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
