import type { FastifyInstance } from 'fastify';

type Done = (err?: Error) => void;
type CloseHook = (instance: FastifyInstance, done: Done) => unknown;

const pendingByApp = new WeakMap<FastifyInstance, Map<number, string>>();

/** Where `addHook` was called from: the frame below `caller` and `watched` (fixed depth, as the bundle has one file). */
function caller(): string {
  const frame = (new Error().stack ?? '').split('\n')[3];
  return (frame ?? 'unknown place').trim().replace(/^at /, '');
}

/**
 * Names every onClose hook by the place that added it, so a close that stalls says which hook it
 * waits for (`pendingCloseHooks`), and logs a hook that took longer than `slowMs`. A stalled
 * shutdown otherwise shows only as a timeout with no hint of the area that holds it.
 */
export function watchCloseHooks(app: FastifyInstance, slowMs = 10_000): void {
  const pending = new Map<number, string>();
  pendingByApp.set(app, pending);
  let next = 0;
  // Called on plugin instances too (they inherit this property): `this` keeps encapsulation.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with each instance's `this` below
  const addHook = app.addHook as unknown as (
    this: FastifyInstance,
    name: string,
    fn: unknown,
  ) => FastifyInstance;
  function watched(this: FastifyInstance, name: string, fn: unknown): FastifyInstance {
    if (name !== 'onClose') return addHook.call(this, name, fn);
    const hook = fn as CloseHook;
    const where = caller();
    const begin = (): (() => void) => {
      const id = next++;
      const started = Date.now();
      pending.set(id, where);
      return () => {
        pending.delete(id);
        const took = Date.now() - started;
        if (took > slowMs) app.log.warn({ hook: where, ms: took }, 'a close hook was slow');
      };
    };
    // Fastify tells the two kinds apart by arity: a callback hook takes (instance, done).
    const wrapped =
      hook.length >= 2
        ? (instance: FastifyInstance, done: Done) => {
            const end = begin();
            hook(instance, (err?: Error) => {
              end();
              done(err);
            });
          }
        : async (instance: FastifyInstance) => {
            const end = begin();
            try {
              return await (hook as (i: FastifyInstance) => unknown)(instance);
            } finally {
              end();
            }
          };
    return addHook.call(this, name, wrapped);
  }
  (app as unknown as { addHook: typeof watched }).addHook = watched;
}

/** The registration places of the onClose hooks that have started and not yet ended. */
export function pendingCloseHooks(app: FastifyInstance): string[] {
  return [...(pendingByApp.get(app)?.values() ?? [])];
}
