// Plain Node, no dependencies: these run before `npm ci` has installed anything.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time (ms) of a file, or of any file below a folder; 0 when absent. */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const st = statSync(target);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why dependencies must be installed, or null when node_modules is current. */
export function installReason(root) {
  const modules = path.join(root, 'node_modules');
  if (!existsSync(modules)) return 'node_modules is missing';
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(lock)) return null;
  // npm rewrites node_modules/.package-lock.json on every install; it is the best "installed at" stamp.
  const stamp = path.join(modules, '.package-lock.json');
  const installedAt = statSync(existsSync(stamp) ? stamp : modules).mtimeMs;
  return installedAt < statSync(lock).mtimeMs ? 'package-lock.json is newer than node_modules' : null;
}

export const WEB_SOURCES = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/first-screen-chunks.ts',
  'web/package.json',
  'web/postcss.config.cjs',
  'contract/src',
];

/** Why the web app must be (re)built, or null when web/dist is newer than every source. */
export function webBuildReason(root) {
  const built = path.join(root, 'web/dist/index.html');
  if (!existsSync(built)) return 'web/dist is missing';
  const builtAt = statSync(built).mtimeMs;
  const stale = WEB_SOURCES.find((s) => newestMtime(path.join(root, s)) > builtAt);
  return stale ? `${stale} changed since the last build` : null;
}
