import { type ApiKeyList, type ApiKeyView } from '@mailroom/contract/api-monitoring';
import { Badge, Text } from '@mantine/core';
import { formatMs } from './health.ts';

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** The key's figures over the window; "—" for what a key without requests cannot have. */
export function KeyFigures({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <div data-testid={`key-requests-${k.name}`}>
      <Text size="sm">{f.requestCount.toLocaleString()}</Text>
      <Text size="xs" c="dimmed">
        {k.requests.toLocaleString()} since created
      </Text>
    </div>
  );
}

export function KeyErrors({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <Text size="sm" data-testid={`key-errors-${k.name}`}>
      {f.requestCount ? `${f.errorCount} / ${f.clientErrorCount} / ${f.rateLimitedCount}` : '—'}
    </Text>
  );
}

export function KeyTimes({ k }: { k: ApiKeyView }) {
  const f = k.figures;
  return (
    <Text size="sm" data-testid={`key-times-${k.name}`}>
      {f.requestCount ? `${formatMs(f.p50)} / ${formatMs(f.p95)} / ${formatMs(f.p99)}` : '—'}
    </Text>
  );
}

export function KeyBuckets({ k, limits }: { k: ApiKeyView; limits: ApiKeyList['rateLimit'] }) {
  return (
    <div data-testid={`key-buckets-${k.name}`}>
      <Text size="sm">
        {limits.enabled
          ? `${k.currentMinute} / ${limits.requestsPerMinute} · ${k.currentHour} / ${limits.requestsPerHour}`
          : `${k.currentMinute} · ${k.currentHour}`}
      </Text>
      {k.rateLimited ? (
        <Badge size="xs" color="red" variant="light">
          Limited
        </Badge>
      ) : (
        !limits.enabled && (
          <Text size="xs" c="dimmed">
            limit off
          </Text>
        )
      )}
    </div>
  );
}
