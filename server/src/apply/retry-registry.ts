import type { AppDeps } from '../app-deps.ts';
import type { ApplyOutcome } from './outcome.repository.ts';

/** Applies a target's saved state again; throws the 422/502 answer when it still fails. */
export type RetryApply = () => Promise<ApplyOutcome>;

const registries = new WeakMap<object, Map<string, RetryApply>>();

/** Each area that owns a target names how to apply its saved state again (the Retry button). */
export function registerRetry(deps: AppDeps, target: string, retry: RetryApply): void {
  let m = registries.get(deps.host);
  if (!m) {
    m = new Map<string, RetryApply>();
    registries.set(deps.host, m);
  }
  m.set(target, retry);
}

export function retryFor(deps: AppDeps, target: string): RetryApply | undefined {
  return registries.get(deps.host)?.get(target);
}

/** The targets that can apply their saved state again (a restore applies each). */
export function retryTargets(deps: AppDeps): string[] {
  return [...(registries.get(deps.host)?.keys() ?? [])];
}
