import type { Host } from '../../host/host.ts';

const queues = new Map<string, Promise<unknown>>();

/** Runs writes to one host root one after another (renders, DKIM files), in this process. */
export function serializedOn<T>(host: Host, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(host.root) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  queues.set(
    host.root,
    next.catch(() => undefined),
  );
  return next;
}
