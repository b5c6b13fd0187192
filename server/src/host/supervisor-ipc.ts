import cluster, { type Worker } from 'node:cluster';
import type { DaemonHold, DaemonName, DaemonState, ReloadResult, ServiceControl } from './service-control.ts';

/**
 * Supervised local mode as a cluster (issue 22 #21): the primary process owns the daemons (its
 * LocalServices supervisor), the HTTP workers beside it reach them through cluster messages.
 * The primary tells every worker the daemons' states once a second and at once after an action;
 * a worker answers states from the last message (never a probe per request) and sends reloads,
 * starts, stops and restarts to the primary, which carries them out once and answers what happened.
 */

const TAG = 'mailroom:daemons';
/** How often the primary tells the workers the daemons' states. */
export const STATES_EVERY_MS = 1000;
/** A daemon action waits this long for the primary's answer (a restart waits for readiness). */
const CALL_TIMEOUT_MS = 180_000;

type Call =
  | {
      tag: typeof TAG;
      kind: 'call';
      id: number;
      op: 'reload';
      name: DaemonName;
      opts?: { zones?: string[]; reconfig?: boolean };
    }
  | {
      tag: typeof TAG;
      kind: 'call';
      id: number;
      op: 'control';
      name: DaemonName;
      action: 'start' | 'stop' | 'restart';
    }
  | { tag: typeof TAG; kind: 'call'; id: number; op: 'hold'; name: DaemonName; hold: DaemonHold | null }
  | { tag: typeof TAG; kind: 'call'; id: number; op: 'states' };
type Answer =
  | {
      tag: typeof TAG;
      kind: 'answer';
      id: number;
      result: ReloadResult | null;
      states: DaemonState[];
      error?: string;
    }
  | { tag: typeof TAG; kind: 'states'; states: DaemonState[] };

const isMessage = (m: unknown): m is Call | Answer =>
  typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === TAG;

/** Set in a worker's environment when the primary supervises the daemons. */
export const SUPERVISED_WORKER_ENV = 'MAILROOM_DAEMONS_IN_PRIMARY';

/**
 * The primary's side: answers the workers' calls with `services` (the one supervisor) and tells
 * every worker the states once a second. Returns a stop function.
 */
export function serveWorkers(
  services: ServiceControl,
  log: (o: object, msg: string) => void = () => undefined,
): () => void {
  let last: DaemonState[] = [];
  let reading: Promise<DaemonState[]> | null = null;
  const read = () =>
    (reading ??= services
      .states()
      .then((s) => (last = s))
      .catch(() => last)
      .finally(() => (reading = null)));
  const workers = () =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
  const broadcast = (states: DaemonState[]) => {
    for (const w of workers())
      w.send({ tag: TAG, kind: 'states', states } satisfies Answer, undefined, () => undefined);
  };
  const onMessage = (worker: Worker, m: unknown) => {
    if (!isMessage(m) || m.kind !== 'call') return;
    void (async () => {
      let result: ReloadResult | null = null;
      let error: string | undefined;
      try {
        if (m.op === 'reload') result = await services.reload(m.name, m.opts);
        else if (m.op === 'hold') {
          await services.hold?.(m.name, m.hold);
          result = { ok: true, attempted: true, output: '' };
        } else if (m.op === 'control') {
          if (!services.control)
            result = { ok: false, attempted: false, output: 'No daemon supervisor runs.' };
          else {
            log(
              { daemon: m.name, action: m.action, worker: worker.process.pid },
              'daemon action from a worker',
            );
            result = await services.control(m.name, m.action);
          }
        }
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const states = await read();
      // Every worker learns the new states with (or before) the answer.
      if (m.op !== 'states') broadcast(states);
      if (worker.isConnected())
        worker.send(
          {
            tag: TAG,
            kind: 'answer',
            id: m.id,
            result,
            states,
            ...(error ? { error } : {}),
          } satisfies Answer,
          undefined,
          () => undefined,
        );
    })();
  };
  cluster.on('message', onMessage);
  const timer = setInterval(() => {
    if (workers().length) void read().then(broadcast);
  }, STATES_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    cluster.off('message', onMessage);
  };
}

/**
 * A worker's ServiceControl: states from the primary's last message, actions carried out by the
 * primary's supervisor.
 */
export class PrimaryServices implements ServiceControl {
  readonly mode = 'local' as const;
  private states_: DaemonState[] | null = null;
  private next = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (a: Answer & { kind: 'answer' }) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly onMessage = (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.kind === 'states') this.states_ = m.states;
    else if (m.kind === 'answer') {
      this.states_ = m.states;
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      clearTimeout(w.timer);
      w.resolve(m);
    }
  };

  constructor() {
    process.on('message', this.onMessage);
  }

  private call(
    msg:
      | Omit<Extract<Call, { op: 'reload' }>, 'tag' | 'kind' | 'id'>
      | Omit<Extract<Call, { op: 'control' }>, 'tag' | 'kind' | 'id'>
      | Omit<Extract<Call, { op: 'hold' }>, 'tag' | 'kind' | 'id'>
      | { op: 'states' },
  ) {
    return new Promise<Answer & { kind: 'answer' }>((resolve, reject) => {
      if (!process.send || !process.connected)
        return reject(new Error('the supervisor process is not reachable'));
      const id = this.next++;
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('the supervisor process did not answer in time'));
      }, CALL_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve, reject, timer });
      process.send({ tag: TAG, kind: 'call', id, ...msg }, undefined, {}, (err) => {
        if (!err) return;
        this.waiting.delete(id);
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  async states(): Promise<DaemonState[]> {
    if (this.states_) return this.states_;
    return (await this.call({ op: 'states' })).states;
  }

  async reload(name: DaemonName, opts?: { zones?: string[]; reconfig?: boolean }): Promise<ReloadResult> {
    const a = await this.call({ op: 'reload', name, ...(opts ? { opts } : {}) });
    if (a.error || !a.result)
      return { ok: false, attempted: true, output: a.error ?? 'No answer from the supervisor.' };
    return a.result;
  }

  async control(name: DaemonName, action: 'start' | 'stop' | 'restart'): Promise<ReloadResult> {
    const a = await this.call({ op: 'control', name, action });
    if (a.error || !a.result)
      return { ok: false, attempted: true, output: a.error ?? 'No answer from the supervisor.' };
    return a.result;
  }

  async hold(name: DaemonName, hold: DaemonHold | null): Promise<void> {
    const a = await this.call({ op: 'hold', name, hold });
    if (a.error) throw new Error(a.error);
  }

  async close(): Promise<void> {
    process.off('message', this.onMessage);
    for (const [, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new Error('closing'));
    }
    this.waiting.clear();
  }
}
