import type { SystemStats } from '@mailroom/contract/system-metrics';

/**
 * The one metrics collector, as the rest of the server sees it: the latest sample and a feed of new
 * ones. The alert thresholds, the events stream and /metrics read it; nothing samples the machine
 * twice.
 */
export interface MetricsSource {
  latest(): SystemStats | undefined;
  subscribe(listener: (stats: SystemStats) => void): () => void;
}
