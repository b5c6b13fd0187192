import { spawnSync } from 'node:child_process';
import { webBuildReason } from '../../../scripts/lib/freshness.mjs';

/** Builds the web app when web/dist is missing or older than its sources (as `npm start` does). */
export function ensureWebBuild(root: string, log: (m: string) => void): void {
  const reason = webBuildReason(root);
  if (!reason) return;
  log(`${reason}: building the web app`);
  const r = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status ?? r.signal})`);
}
