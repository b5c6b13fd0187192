/** One line of the results table. */
export interface BenchRow {
  measure: string;
  /** The figure as printed, with its unit. */
  value: string;
  /** The goal as printed (e.g. '≥ 0.50'), when the issue sets one. */
  goal?: string;
  /** Whether the figure meets the goal; absent when there is no goal. */
  pass?: boolean;
  /** Raw numbers for the JSON record under bench/out/. */
  raw?: Record<string, number | string>;
}

export interface BenchContext {
  /** Repository root. */
  root: string;
  /** bench/out, for logs and data files (ignored by git). */
  outDir: string;
  log(message: string): void;
}

/**
 * A benchmark suite: the default export of `bench/src/<name>/index.ts`. The runner finds every
 * such folder, so adding a suite needs no registry edit.
 */
export interface BenchSuite {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
