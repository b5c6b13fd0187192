// Kept apart from follow-job.ts: the shell's notifications read it on the first screen, which
// must not load the contract's schemas (first-screen-imports.test.ts).

/** How long after its start a job's own end notification is not toasted (the page said it). */
const OWN_TOAST_MS = 15 * 60_000;
const ownToasts = new Map<number, number>();

/**
 * The page following this job shows its end itself (a toast of its own): the server's
 * notification of the same end then goes to the bell only, so one toast says it.
 */
export function toastsItsOwnEnd(jobId: number): void {
  const now = Date.now();
  for (const [id, at] of ownToasts) if (now - at > OWN_TOAST_MS) ownToasts.delete(id);
  ownToasts.set(jobId, now);
}

/** Whether a page already toasts this job's end. */
export function endToastedByPage(jobId: number | null): boolean {
  if (jobId === null) return false;
  const at = ownToasts.get(jobId);
  return at !== undefined && Date.now() - at <= OWN_TOAST_MS;
}
