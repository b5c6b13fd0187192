import { existsSync, realpathSync } from 'node:fs';

/** True when the running program's entry script (`process.argv[1]`) is `file`, links resolved. */
export function isEntryPoint(file: string): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(file);
  } catch {
    return false;
  }
}

/** True when a file exists (a build's output, looked at once at start). */
export function existsNow(file: string): boolean {
  return existsSync(file);
}
