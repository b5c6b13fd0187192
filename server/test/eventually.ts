/** Waiting in tests for something a real daemon does in its own time. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls `fn` until `ok` accepts its answer (errors count as "not yet"); fails after `ms` with the last answer. */
export async function eventually<T>(
  what: string,
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (ok(v)) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    await sleep(150);
  }
  throw new Error(
    `timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
  );
}
