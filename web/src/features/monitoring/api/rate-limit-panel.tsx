import {
  RateLimitForm,
  RATE_PER_HOUR,
  RATE_PER_MINUTE,
  type RateLimitState,
} from '@mailroom/contract/api-monitoring';
import {
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { numberOrUndefined, type NumberField, zodValidate } from '../../../lib/zod-form.ts';
import { useSaveRateLimit } from './use-save-rate-limit.ts';

interface Values {
  enabled: boolean;
  requestsPerMinute: NumberField;
  requestsPerHour: NumberField;
}

const toInput = (v: Values) => ({
  enabled: v.enabled,
  requestsPerMinute: numberOrUndefined(v.requestsPerMinute),
  requestsPerHour: numberOrUndefined(v.requestsPerHour),
});

const clock = (iso: string) => new Date(iso).toLocaleTimeString();

function Bucket({ label, w, enabled }: { label: string; w: RateLimitState['minute']; enabled: boolean }) {
  const pct = Math.min(100, (w.currentRequests / Math.max(1, w.limit)) * 100);
  return (
    <Stack gap={4} data-testid={`bucket-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm" ff="monospace">
          {w.currentRequests} / {w.limit}
        </Text>
      </Group>
      <Progress
        value={enabled ? pct : 0}
        color={w.isLimited ? 'red' : pct > 80 ? 'yellow' : 'blue'}
        aria-label={`${label} used`}
      />
      <Text size="xs" c="dimmed">
        Resets at {clock(w.resetTime)}
        {w.isLimited ? ' · limited' : ''}
      </Text>
    </Stack>
  );
}

/**
 * Spec §2.13 Rate Limiting panel: the limits (§5: 1–1000 per minute, 1–10000 per hour), editable,
 * and the caller's own buckets as the server counts them (every worker).
 */
export function RateLimitPanel({ state }: { state: RateLimitState }) {
  const save = useSaveRateLimit();
  const form = useForm<Values>({
    initialValues: {
      enabled: state.enabled,
      requestsPerMinute: state.requestsPerMinute,
      requestsPerHour: state.requestsPerHour,
    },
    validate: zodValidate<Values>(RateLimitForm, toInput),
    validateInputOnChange: true,
  });
  useUnsavedChanges(form.isDirty());

  const submit = async (values: Values) => {
    try {
      const next = await save.mutateAsync(RateLimitForm.parse(toInput(values)));
      form.setInitialValues({
        enabled: next.enabled,
        requestsPerMinute: next.requestsPerMinute,
        requestsPerHour: next.requestsPerHour,
      });
      form.reset();
      notify({
        type: 'success',
        title: 'Rate limits saved',
        message: 'Every server process applies them within 5 seconds.',
      });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to save the rate limits', message: errorMessage(err) });
    }
  };

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="rate-limit-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="rate-limit-title">
          Rate Limiting
        </Title>
        <Badge
          color={state.isLimited ? 'red' : state.enabled ? 'green' : 'gray'}
          variant="dot"
          data-testid="rate-limited"
        >
          {state.isLimited ? 'Limited' : state.enabled ? 'Not limited' : 'Off'}
        </Badge>
      </Group>
      <Stack gap="md">
        {state.enabled ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Bucket label="This minute" w={state.minute} enabled />
            <Bucket label="This hour" w={state.hour} enabled />
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            Rate limiting is off: requests are not counted per administrator.
          </Text>
        )}
        <Text size="sm">
          Requests refused with 429 (last 24 hours): <b data-testid="rate-429">{state.rateLimitedCount}</b>
        </Text>
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="sm">
            <Switch
              label="Limit requests per administrator"
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label="Requests per minute"
                min={RATE_PER_MINUTE.min}
                max={RATE_PER_MINUTE.max}
                allowDecimal={false}
                {...form.getInputProps('requestsPerMinute')}
              />
              <NumberInput
                label="Requests per hour"
                min={RATE_PER_HOUR.min}
                max={RATE_PER_HOUR.max}
                allowDecimal={false}
                {...form.getInputProps('requestsPerHour')}
              />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Sign-in, your account's calls and this page are never limited, so a limit can always be changed
              back.
            </Text>
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                loading={save.isPending}
                disabled={!form.isValid() || !form.isDirty()}
              >
                Save Limits
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
