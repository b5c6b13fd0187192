import cluster, { type Worker } from 'node:cluster';

/**
 * Events one HTTP worker publishes that the event streams of every worker must send at once (a
 * mail settings save's steps, issue 22 #17): the page's stream may be held by another worker of
 * the cluster than the one running its request. A worker sends the event to the primary, which
 * passes it on to every other worker; each delivers it to its own streams. Jobs do not need this:
 * every worker reads their changes from the database.
 */

const TAG = 'mailroom:events';

interface Relayed {
  tag: typeof TAG;
  event: unknown;
}

const isRelayed = (m: unknown): m is Relayed =>
  typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === TAG && 'event' in m;

export interface EventRelay {
  /** Sends an event this process published to the other workers (nothing outside a cluster). */
  send(event: unknown): void;
  /** Stops listening to the other workers' events. */
  close(): void;
}

/** A worker's side: `deliver` receives the other workers' events. Outside a cluster it does nothing. */
export function workerEventRelay(deliver: (event: unknown) => void): EventRelay {
  if (!cluster.isWorker || !process.send) return { send: () => undefined, close: () => undefined };
  const onMessage = (m: unknown) => {
    if (isRelayed(m)) deliver(m.event);
  };
  process.on('message', onMessage);
  return {
    send(event) {
      if (process.connected)
        process.send?.({ tag: TAG, event } satisfies Relayed, undefined, {}, () => undefined);
    },
    close: () => void process.off('message', onMessage),
  };
}

/** The primary's side: passes each worker's events on to every other worker. Returns a stop function. */
export function relayWorkerEvents(): () => void {
  const onMessage = (from: Worker, m: unknown) => {
    if (!isRelayed(m)) return;
    for (const w of Object.values(cluster.workers ?? {}))
      if (w && w !== from && w.isConnected()) w.send(m, undefined, () => undefined);
  };
  cluster.on('message', onMessage);
  return () => void cluster.off('message', onMessage);
}
