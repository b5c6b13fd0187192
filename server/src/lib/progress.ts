/**
 * What long work (an import) is given when it runs as a job: it reports progress and calls
 * `checkpoint()` every few hundred units, which lets the event loop breathe and throws when the
 * job was cancelled. The job runner's context (features/jobs/job-runner.service.ts) is one.
 */
export interface ProgressHooks {
  progress(p: {
    processed?: number;
    total?: number | null;
    phase?: string;
    counts?: Record<string, number>;
  }): void;
  checkpoint(): Promise<void>;
}

/** Rows between two checkpoints of an import loop. */
export const CHECKPOINT_ROWS = 500;

/** Data lines of a CSV text (lines after the header, ignoring a final newline); cheap, no parse. */
export function csvDataLines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  if (text.length && !text.endsWith('\n')) lines++;
  return Math.max(0, lines - 1);
}
