/**
 * Serialises the applies of one target ("mail", "dns", …) while different targets run side by
 * side. The default lock is in-process; a multi-process deployment swaps in a database lock
 * (SQLite file lock / PostgreSQL advisory lock) with `setTargetLock`.
 */
export interface TargetLock {
  withTargetLock<T>(target: string, fn: () => Promise<T>): Promise<T>;
}

/** One promise chain per target, in this process. */
export function inProcessTargetLock(): TargetLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    withTargetLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
      const prev = tails.get(target) ?? Promise.resolve();
      const run = prev.then(fn, fn);
      const tail = run.catch(() => undefined);
      tails.set(target, tail);
      void tail.then(() => {
        if (tails.get(target) === tail) tails.delete(target);
      });
      return run;
    },
  };
}

let current: TargetLock = inProcessTargetLock();

/** Replaces the lock every apply takes (the jobs area's database lock). */
export function setTargetLock(lock: TargetLock): void {
  current = lock;
}

/** Runs `fn` once every earlier apply of `target` has finished. */
export function withTargetLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  return current.withTargetLock(target, fn);
}
