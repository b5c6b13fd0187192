import type { HostFile } from '../host/staged-set.ts';

/** One rendered file of an apply, by its system path (mapped under the host root when written). */
export type ApplyFile = HostFile;

export type { FileChanges } from '../host/staged-set.ts';

/** What a checker says about a staged set. */
export interface ProveResult {
  ok: boolean;
  /** False when the checker program is missing: the files go live unproved. */
  checked: boolean;
  /** The checker's own words. */
  output: string;
}
