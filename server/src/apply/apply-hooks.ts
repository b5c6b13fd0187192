import type { AppDeps } from '../app-deps.ts';
import type { StagedFile } from '../host/host.ts';
import { renameFile } from '../host/staged-set.ts';
import type { ProveResult } from './file-set.ts';

/**
 * Seams for fault injection in tests: a checker that fails or is slow, a rename that fails half
 * way, a failing commit. Production never sets them.
 */
export interface ApplyHooks {
  /** Wraps the target's real checker. */
  prove?: (target: string, staged: StagedFile[], real: () => Promise<ProveResult>) => Promise<ProveResult>;
  /** Moves one file into place (default `fs.rename`). */
  rename?: (from: string, to: string) => Promise<void>;
  /** Runs inside the commit transaction, last: throwing fails the commit. */
  beforeCommit?: (target: string) => Promise<void>;
}

const hooks = new WeakMap<object, ApplyHooks>();

export function setApplyHooks(deps: AppDeps, h: ApplyHooks): void {
  hooks.set(deps.host, h);
}

export function applyHooks(deps: AppDeps): ApplyHooks {
  return hooks.get(deps.host) ?? {};
}

export const defaultRename = renameFile;
